// TrainRng: the documented random stream of the training data and initial parameters, the same on
// every machine: splitmix64 (Steele, Lea and Flood 2014: state += 0x9E3779B97F4A7C15, then two
// xor-shift-multiply rounds), uniform = (next() >> 11)·2⁻⁵³ in [0, 1), normal by Box–Muller (both
// values of a pair used, in order), never the implementation-defined std:: distributions.
#pragma once
#include <cstdint>

namespace normlab {

class TrainRng {
public:
    explicit TrainRng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // [0, 1)
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // [lo, hi)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // 0 … n−1 (n ≥ 1; the modulo bias is below 2⁻⁵⁰ for the small n used here)
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
    // N(0, 1)
    double normal();

private:
    std::uint64_t state_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace normlab
