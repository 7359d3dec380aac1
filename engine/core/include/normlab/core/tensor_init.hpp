// Deterministic tensor generators (the same values for a seed on every machine: the random
// numbers come from splitmix64 and Box–Muller, not from the implementation-defined
// std:: distributions).
#pragma once
#include "normlab/core/tensor.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab::core {

enum class Init { Randn, Uniform, Arange, Zeros, Ones, Constant };

const char* init_name(Init i);
std::optional<Init> parse_init(const std::string& name);
std::vector<std::string> init_names();

// randn: N(0,1); uniform: U[0,1) as torch.rand; arange: 0,1,2,...; constant: `value`.
Tensor make_tensor(const Shape4& shape, Init init, std::uint64_t seed = 0, float value = 0.0f);

// numel standard-normal floats from `seed` (the same stream make_tensor uses).
std::vector<float> randn(std::int64_t numel, std::uint64_t seed);

}  // namespace normlab::core
