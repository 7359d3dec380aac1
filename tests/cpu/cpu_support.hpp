// What the CPU backend's tests share: the golden fixtures' folder, float64 .npy values read exactly,
// tensors from .npy files, and the comparisons of the GPU suites (their tolerances).
#pragma once
#include "normlab/io/npy.hpp"
#include "normlab/core/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace normlab::test {

inline const std::string kGoldenDir = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/";

// A float64 .npy's values, read exactly (read_npy gives float32).
inline std::vector<double> read_f64(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(f)), {});
    const std::size_t n = io::read_npy(path).data.size();
    std::vector<double> v(n);
    if (raw.size() >= n * 8) std::memcpy(v.data(), raw.data() + raw.size() - n * 8, n * 8);
    return v;
}

inline core::Tensor read_tensor(const std::string& path) {
    const io::NpyArray a = io::read_npy(path);
    core::Tensor t;
    t.shape = core::Shape4::from_dims(a.shape);
    t.data = a.data;
    return t;
}

// max |a − b| relative to max(1, |b|) per element (NaN on both sides, or the same infinity, is equal).
inline double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if ((std::isnan(a[i]) && std::isnan(b[i])) || (std::isinf(a[i]) && a[i] == b[i])) continue;
        const double d = std::abs(a[i] - b[i]) / std::max(1.0, std::abs(b[i]));
        w = std::max(w, std::isnan(d) ? INFINITY : d);
    }
    return w;
}

// max |a − b| relative to max(1, max |b|) (tests/gpu/test_backward.cpp's rel_err).
template <class A>
double rel_err(const std::vector<A>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0, m = 1;
    for (double v : b) m = std::max(m, std::abs(v));
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(static_cast<double>(a[i]) - b[i]));
    return w / m;
}

}  // namespace normlab::test
