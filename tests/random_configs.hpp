// Random valid configurations for the GPU suites (tests/gpu and the browser's kernel test):
// random shapes of every rank, flags, eps, G, normalized_shape, γ/β and running statistics.
// Backend-neutral: depends on engine/core only.
#pragma once
#include "normlab/core/norm_params.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/shape.hpp"
#include "normlab/core/tensor.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace normlab::test {

// "batch [2, 3, 4] G=… affine=1 …": a case's name in a failure message.
std::string describe(const core::Shape4& s, const core::NormSpec& spec);
// A shape of the given rank (2 to 5) with each dim drawn from `sizes`.
core::Shape4 random_shape(int rank, const std::vector<std::int64_t>& sizes, std::mt19937_64& rng);
// A random configuration for shape s and method m, with random flags and parameters (valid()
// tells whether PyTorch accepts it; γ/β are only drawn for one it accepts).
std::pair<core::NormSpec, core::NormParams> random_config(core::Method m, const core::Shape4& s, std::mt19937_64& rng);
// Whether the configuration is accepted on shape s: NormSpec::validate, the product's own rule
// (PyTorch's refusals of one value per statistic among them).
bool valid(core::Method m, const core::Shape4& s, const core::NormSpec& spec);

// SyncBN's random case i (of the series both GPU suites run from one rng seeded 12): K in 1, 2, 4,
// N a multiple of K, the mode, train or eval, momentum, running statistics on or off, γ/β.
struct SyncCase {
    core::Tensor x;
    core::NormSpec spec;
    core::NormParams params;
    std::string name;  // "[N, C, H, W] K 2 naive train"
};
SyncCase random_sync_case(int i, std::mt19937_64& rng);

}  // namespace normlab::test
