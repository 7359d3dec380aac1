// ExplainPanel: says in words which axes the method reduces and why (with the actual
// sizes), and writes the normalization formula for the selected element with its numbers:
// y = γ·(x − μ)/√(σ² + ε) + β = … (μ, σ², y from the Normalizer's shaders), after the
// element's S_i in the Group Normalization paper's set notation (normlab/core/partition_set.hpp).
#pragma once
#include "normlab/session/session.hpp"

#include <string>

namespace normlab::views {

// "GroupNorm, G=2: one statistic per (n, g) over C/G·H·W = 3·4·4 = 48 elements".
std::string reduction_summary(const core::NormSpec& spec, const core::StatLayout& layout);

class ExplainPanel {
public:
    void draw(const session::Session& session);
};

}  // namespace normlab::views
