#include "normlab/core/tensor_init.hpp"

#include <cmath>

namespace normlab::core {
namespace {

struct SplitMix64 {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

constexpr Init kInits[] = {Init::Randn, Init::Uniform, Init::Arange, Init::Zeros, Init::Ones, Init::Constant};

}  // namespace

const char* init_name(Init i) {
    switch (i) {
        case Init::Randn: return "randn";
        case Init::Uniform: return "uniform";
        case Init::Arange: return "arange";
        case Init::Zeros: return "zeros";
        case Init::Ones: return "ones";
        case Init::Constant: return "constant";
    }
    return "?";
}

std::optional<Init> parse_init(const std::string& name) {
    for (Init i : kInits)
        if (name == init_name(i)) return i;
    return std::nullopt;
}

std::vector<std::string> init_names() {
    std::vector<std::string> out;
    for (Init i : kInits) out.emplace_back(init_name(i));
    return out;
}

std::vector<float> randn(std::int64_t numel, std::uint64_t seed) {
    SplitMix64 rng{seed};
    std::vector<float> out(static_cast<std::size_t>(numel));
    for (std::size_t i = 0; i < out.size(); i += 2) {
        double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();  // u1 in (0, 1]
        double r = std::sqrt(-2.0 * std::log(u1));
        out[i] = static_cast<float>(r * std::cos(2.0 * M_PI * u2));
        if (i + 1 < out.size()) out[i + 1] = static_cast<float>(r * std::sin(2.0 * M_PI * u2));
    }
    return out;
}

Tensor make_tensor(const Shape4& shape, Init init, std::uint64_t seed, float value) {
    shape.validate();
    Tensor t(shape);
    switch (init) {
        case Init::Randn: t.data = randn(shape.numel(), seed); break;
        case Init::Uniform: {
            SplitMix64 rng{seed};
            for (auto& v : t.data) v = static_cast<float>(rng.uniform());
            break;
        }
        case Init::Arange:
            for (std::size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<float>(i);
            break;
        case Init::Zeros: break;
        case Init::Ones: std::fill(t.data.begin(), t.data.end(), 1.0f); break;
        case Init::Constant: std::fill(t.data.begin(), t.data.end(), value); break;
    }
    return t;
}

}  // namespace normlab::core
