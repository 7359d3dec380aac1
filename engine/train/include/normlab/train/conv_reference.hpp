// Float64 references of the cnn's convolution: Conv2d(Cin, Cout, 3, stride=1, padding=1) forward and
// backward (∂x, ∂W, ∂b) on NCHW arrays, and its PyTorch-default initial parameters
// (kaiming_uniform(a=√5): weight and bias both U(−1/√fan_in, 1/√fan_in), fan_in = Cin·9).
#pragma once
#include <cstddef>
#include <vector>

namespace normlab::train {

class TrainRng;

// x: n×cin×h×w, weight: cout×cin×3×3, bias: cout, y: n×cout×h×w (row-major NCHW).
struct ConvShape {
    int n = 1, cin = 1, cout = 1, h = 1, w = 1;
    std::size_t x_size() const { return static_cast<std::size_t>(n) * cin * h * w; }
    std::size_t y_size() const { return static_cast<std::size_t>(n) * cout * h * w; }
    std::size_t weight_size() const { return static_cast<std::size_t>(cout) * cin * 9; }
};

std::vector<double> conv3x3_forward(const ConvShape& s, const std::vector<double>& x, const std::vector<double>& weight,
                                    const std::vector<double>& bias);

struct ConvGrads {
    std::vector<double> dx;       // n×cin×h×w
    std::vector<double> dweight;  // cout×cin×3×3: Σ over n, y, x
    std::vector<double> dbias;    // cout: Σ of dy over n, y, x
};

// Gradients of Σ dy·conv3x3_forward(x, weight, bias) with respect to x, weight and bias.
ConvGrads conv3x3_backward(const ConvShape& s, const std::vector<double>& x, const std::vector<double>& weight,
                           const std::vector<double>& dy);

// PyTorch's Conv2d default: both bounds are 1/√(cin·9).
double conv3x3_init_bound(int cin);

struct ConvParams {
    std::vector<double> weight, bias;
};

// weight (cout×cin×3×3, in order) then bias (cout) drawn U(−bound, bound) from rng.
ConvParams conv3x3_init(int cin, int cout, TrainRng& rng);

}  // namespace normlab::train
