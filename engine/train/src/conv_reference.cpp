#include "normlab/train/conv_reference.hpp"

#include "normlab/train/train_data.hpp"

#include <cmath>

namespace normlab::train {
namespace {

std::size_t at(int a, int b, int c, int d, int nb, int nc, int nd) {
    return ((static_cast<std::size_t>(a) * nb + b) * nc + c) * nd + d;
}

}  // namespace

std::vector<double> conv3x3_forward(const ConvShape& s, const std::vector<double>& x, const std::vector<double>& weight,
                                    const std::vector<double>& bias) {
    std::vector<double> y(s.y_size());
    for (int n = 0; n < s.n; ++n)
        for (int co = 0; co < s.cout; ++co)
            for (int i = 0; i < s.h; ++i)
                for (int j = 0; j < s.w; ++j) {
                    double acc = bias[co];
                    for (int ci = 0; ci < s.cin; ++ci)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                int yi = i + ky - 1, xj = j + kx - 1;
                                if (yi < 0 || yi >= s.h || xj < 0 || xj >= s.w) continue;
                                acc += weight[at(co, ci, ky, kx, s.cin, 3, 3)] * x[at(n, ci, yi, xj, s.cin, s.h, s.w)];
                            }
                    y[at(n, co, i, j, s.cout, s.h, s.w)] = acc;
                }
    return y;
}

ConvGrads conv3x3_backward(const ConvShape& s, const std::vector<double>& x, const std::vector<double>& weight,
                           const std::vector<double>& dy) {
    ConvGrads g{std::vector<double>(s.x_size()), std::vector<double>(s.weight_size()),
                std::vector<double>(static_cast<std::size_t>(s.cout))};
    for (int n = 0; n < s.n; ++n)
        for (int co = 0; co < s.cout; ++co)
            for (int i = 0; i < s.h; ++i)
                for (int j = 0; j < s.w; ++j) {
                    double d = dy[at(n, co, i, j, s.cout, s.h, s.w)];
                    g.dbias[co] += d;
                    for (int ci = 0; ci < s.cin; ++ci)
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                int yi = i + ky - 1, xj = j + kx - 1;
                                if (yi < 0 || yi >= s.h || xj < 0 || xj >= s.w) continue;
                                std::size_t xi = at(n, ci, yi, xj, s.cin, s.h, s.w);
                                std::size_t wi = at(co, ci, ky, kx, s.cin, 3, 3);
                                g.dweight[wi] += d * x[xi];
                                g.dx[xi] += d * weight[wi];
                            }
                }
    return g;
}

double conv3x3_init_bound(int cin) { return 1.0 / std::sqrt(static_cast<double>(cin) * 9.0); }

ConvParams conv3x3_init(int cin, int cout, TrainRng& rng) {
    double bound = conv3x3_init_bound(cin);
    ConvParams p{std::vector<double>(static_cast<std::size_t>(cout) * cin * 9),
                 std::vector<double>(static_cast<std::size_t>(cout))};
    for (auto& v : p.weight) v = rng.uniform(-bound, bound);
    for (auto& v : p.bias) v = rng.uniform(-bound, bound);
    return p;
}

}  // namespace normlab::train
