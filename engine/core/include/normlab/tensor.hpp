// Tensor: a float32 N×C×H×W tensor in C order, the one data type the engine normalizes.
#pragma once
#include "normlab/shape.hpp"

#include <cstdint>
#include <vector>

namespace normlab {

struct Tensor {
    Shape4 shape;
    std::vector<float> data;  // numel() values, row-major (C order)

    Tensor() = default;
    explicit Tensor(const Shape4& s, float fill = 0.0f) : shape(s), data(static_cast<std::size_t>(s.numel()), fill) {}

    std::int64_t offset(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) const {
        return ((n * shape.c + c) * shape.h + h) * shape.w + w;
    }
    float at(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) const {
        return data[static_cast<std::size_t>(offset(n, c, h, w))];
    }
};

// The (n, c, h, w) index of a flat offset.
std::array<std::int64_t, 4> unravel(const Shape4& s, std::int64_t offset);

// Number of NaN and ±Inf values in the tensor.
std::int64_t count_nonfinite(const std::vector<float>& values);

}  // namespace normlab
