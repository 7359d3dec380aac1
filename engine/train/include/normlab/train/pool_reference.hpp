// Float64 references of the cnn's pooling on NCHW arrays: AvgPool2d(2) (2×2 windows, stride 2, an odd
// last row or column dropped as PyTorch floors) and the global average pool (n×c×h×w → n×c), forward
// and backward.
#pragma once
#include <cstddef>
#include <vector>

namespace normlab::train {

struct PoolShape {
    int n = 1, c = 1, h = 1, w = 1;
    std::size_t size() const { return static_cast<std::size_t>(n) * c * h * w; }
};

// n×c×(h/2)×(w/2)
std::vector<double> avgpool2_forward(const PoolShape& s, const std::vector<double>& x);
// dy: n×c×(h/2)×(w/2) → dx: n×c×h×w (dy/4 on each window, 0 on a dropped row or column)
std::vector<double> avgpool2_backward(const PoolShape& s, const std::vector<double>& dy);

// n×c: the mean over h×w
std::vector<double> global_avgpool_forward(const PoolShape& s, const std::vector<double>& x);
// dy: n×c → dx: n×c×h×w, dy/(h·w) everywhere
std::vector<double> global_avgpool_backward(const PoolShape& s, const std::vector<double>& dy);

}  // namespace normlab::train
