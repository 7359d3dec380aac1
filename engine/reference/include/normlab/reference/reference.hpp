// The float64 CPU reference: every method and flag computed by its definition (explicit
// loops over each method's reduced axes, independent of StatLayout's strides), used to check
// the shaders. Statistics are computed once; outputs are computed per element on demand, so
// checking a large tensor needs no float64 copy of it.
#pragma once
#include "normlab/core/norm_params.hpp"

#include <vector>

namespace normlab::reference {

class Reference {
public:
    // Throws InputError for invalid input, like Normalizer::run. x must outlive the Reference.
    Reference(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params);

    const core::NormResult& stats() const { return stats_; }  // y left empty; statistics in float64
    double y(std::int64_t offset) const;                      // float64 output at a flat offset
    std::vector<double> y_all() const;
    // max |gpu_y − y| (NaN-aware: NaN where both are NaN counts as equal, NaN on one side is +inf).
    double max_abs_error(const std::vector<float>& gpu_y) const;
    // The statistic and the γ/β index of a flat offset, both found by definition.
    std::int64_t stat_of(std::int64_t offset) const { return stat_of_[static_cast<std::size_t>(offset)]; }
    std::int64_t param_of(std::int64_t offset) const;
    const core::Tensor& x() const { return *x_; }
    const core::NormSpec& spec() const { return spec_; }
    const core::NormParams& params() const { return params_; }

private:
    const core::Tensor* x_;
    core::NormSpec spec_;
    core::NormParams params_;
    core::NormResult stats_;
    std::vector<std::int32_t> stat_of_;  // statistic of each element, filled by definition
};

struct ReferenceResult {
    core::NormResult stats;
    std::vector<double> y;
};
ReferenceResult reference_normalize(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params);

// SyncBN's float64 reference (spec.sync_devices = K > 0): each shard's statistics from the
// Reference on its N/K samples, the sync statistics from the Reference on the whole batch,
// the naive ones by their formula (mean of the shard means and of the shard variances); y,
// mean/var/rstd (the applied ones) and the running statistics of spec.sync_mode; stats.sync
// holds all three modes' statistics. Throws InputError like the GPU path.
ReferenceResult reference_sync(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params);

// NaN-aware max |a − b| (see Reference::max_abs_error).
double max_abs_error(const std::vector<float>& a, const std::vector<double>& b);

// The float64 check of a GPU run's y: max |y − reference|, with SyncBN's reference when the spec
// has sync devices (the Session's check and normlab-cli's).
double reference_error(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                       const std::vector<float>& y);

}  // namespace normlab::reference
