#include "normlab/classroom/batch_sampler.hpp"

#include "normlab/core/tensor_init.hpp"

#include <cmath>
#include <vector>

namespace normlab::classroom {

core::Tensor sample_like(const core::Tensor& x, std::uint64_t seed) {
    const core::Shape4& s = x.shape;
    std::vector<double> mean(static_cast<std::size_t>(s.c), 0.0), var(static_cast<std::size_t>(s.c), 0.0);
    const double count = static_cast<double>(s.n * s.hw());
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t c = 0; c < s.c; ++c)
            for (std::int64_t i = 0; i < s.hw(); ++i)
                mean[static_cast<std::size_t>(c)] += x.data[static_cast<std::size_t>((n * s.c + c) * s.hw() + i)];
    for (auto& m : mean) m /= count;
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t c = 0; c < s.c; ++c)
            for (std::int64_t i = 0; i < s.hw(); ++i) {
                const double d =
                    x.data[static_cast<std::size_t>((n * s.c + c) * s.hw() + i)] - mean[static_cast<std::size_t>(c)];
                var[static_cast<std::size_t>(c)] += d * d;
            }
    core::Tensor out = make_tensor(s, core::Init::Randn, seed);
    for (std::int64_t n = 0; n < s.n; ++n)
        for (std::int64_t c = 0; c < s.c; ++c) {
            const double sd = std::sqrt(var[static_cast<std::size_t>(c)] / count);
            for (std::int64_t i = 0; i < s.hw(); ++i) {
                float& v = out.data[static_cast<std::size_t>((n * s.c + c) * s.hw() + i)];
                v = static_cast<float>(mean[static_cast<std::size_t>(c)] + sd * v);
            }
        }
    return out;
}

}  // namespace normlab::classroom
