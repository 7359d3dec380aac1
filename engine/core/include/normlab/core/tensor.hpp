// Tensor: a float32 N×C×H×W tensor in C order, the one data type the engine normalizes.
#pragma once
#include "normlab/core/shape.hpp"

#include <cstdint>
#include <vector>

namespace normlab::core {

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

// Samples [n0, n0 + count) of x (a SyncBN device's shard): consecutive in C order.
inline Tensor batch_slice(const Tensor& x, std::int64_t n0, std::int64_t count) {
    Tensor t;
    t.shape = x.shape;
    t.shape.n = count;
    const std::int64_t per = x.shape.numel() / (x.shape.n ? x.shape.n : 1);
    t.data.assign(x.data.begin() + n0 * per, x.data.begin() + (n0 + count) * per);
    return t;
}

// The (n, c, h, w) index of a flat offset.
std::array<std::int64_t, 4> unravel(const Shape4& s, std::int64_t offset);

// Number of NaN and ±Inf values in the tensor.
std::int64_t count_nonfinite(const std::vector<float>& values);

}  // namespace normlab::core
