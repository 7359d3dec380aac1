// The float64 CPU reference: every method and flag computed by its definition (explicit
// loops over the reduced axes, independent of StatLayout), used to check the shaders.
#pragma once
#include "normlab/norm_params.hpp"

#include <vector>

namespace normlab {

struct ReferenceResult {
    NormResult stats;        // y is left empty; stats.* filled in float64
    std::vector<double> y;   // float64 output
};

ReferenceResult reference_normalize(const Tensor& x, const NormSpec& spec, const NormParams& params);

// max |a - b| over elements, NaN-aware: positions where both are NaN (or equal infinities)
// count as equal; a NaN on one side only gives +inf.
double max_abs_error(const std::vector<float>& a, const std::vector<double>& b);

}  // namespace normlab
