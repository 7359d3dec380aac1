#include "normlab/train/pool_reference.hpp"

namespace normlab::train {

std::vector<double> avgpool2_forward(const PoolShape& s, const std::vector<double>& x) {
    int ho = s.h / 2, wo = s.w / 2;
    std::vector<double> y(static_cast<std::size_t>(s.n) * s.c * ho * wo);
    for (std::size_t p = 0; p < static_cast<std::size_t>(s.n) * s.c; ++p)
        for (int i = 0; i < ho; ++i)
            for (int j = 0; j < wo; ++j) {
                const double* src = x.data() + p * s.h * s.w + static_cast<std::size_t>(2 * i) * s.w + 2 * j;
                y[(p * ho + i) * wo + j] = (src[0] + src[1] + src[s.w] + src[s.w + 1]) / 4.0;
            }
    return y;
}

std::vector<double> avgpool2_backward(const PoolShape& s, const std::vector<double>& dy) {
    int ho = s.h / 2, wo = s.w / 2;
    std::vector<double> dx(s.size(), 0.0);
    for (std::size_t p = 0; p < static_cast<std::size_t>(s.n) * s.c; ++p)
        for (int i = 0; i < 2 * ho; ++i)
            for (int j = 0; j < 2 * wo; ++j) dx[(p * s.h + i) * s.w + j] = dy[(p * ho + i / 2) * wo + j / 2] / 4.0;
    return dx;
}

std::vector<double> global_avgpool_forward(const PoolShape& s, const std::vector<double>& x) {
    std::size_t plane = static_cast<std::size_t>(s.h) * s.w;
    std::vector<double> y(static_cast<std::size_t>(s.n) * s.c);
    for (std::size_t p = 0; p < y.size(); ++p) {
        double acc = 0.0;
        for (std::size_t k = 0; k < plane; ++k) acc += x[p * plane + k];
        y[p] = acc / static_cast<double>(plane);
    }
    return y;
}

std::vector<double> global_avgpool_backward(const PoolShape& s, const std::vector<double>& dy) {
    std::size_t plane = static_cast<std::size_t>(s.h) * s.w;
    std::vector<double> dx(s.size());
    for (std::size_t k = 0; k < dx.size(); ++k) dx[k] = dy[k / plane] / static_cast<double>(plane);
    return dx;
}

}  // namespace normlab::train
