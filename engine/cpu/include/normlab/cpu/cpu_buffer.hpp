// CpuBuffer: a "device buffer" of the CPU backend — float32 values in host memory with a buffer
// generation (normlab/plan/buffer_generation.hpp) that changes whenever its storage is re-created,
// as a GPU buffer's does; and CompensatedSum, the float32 sum every CPU kernel reduces with (a long
// statistic keeps float32's precision instead of losing it to one running sum).
#pragma once
#include "normlab/plan/buffer_generation.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace normlab::cpu {

class CpuBuffer {
public:
    // Grows to hold n values (a new generation when its storage is re-created; contents lost then).
    void ensure(std::size_t n) {
        if (n <= values_.size() && generation_ != 0) return;
        values_.assign(n, 0.0f);
        generation_ = plan::next_buffer_generation();
    }
    std::uint64_t generation() const { return generation_; }
    std::size_t size() const { return values_.size(); }
    float* data() { return values_.data(); }
    const float* data() const { return values_.data(); }
    float& operator[](std::size_t i) { return values_[i]; }
    float operator[](std::size_t i) const { return values_[i]; }

private:
    std::vector<float> values_;
    std::uint64_t generation_ = 0;
};

// A float32 sum with Neumaier's compensation (the rounding error of each addition kept in a second
// float32 and added back at the end): about as exact as one rounding of the true sum, however many
// values and however different their sizes (a 1e4 outlier among values near 1), as a GPU's tree of
// partial sums is nearly so.
class CompensatedSum {
public:
    void add(float v) {
        const float t = sum_ + v;
        // The low-order bits lost in t: from v when |sum| ≥ |v|, else from sum.
        c_ += std::fabs(sum_) >= std::fabs(v) ? (sum_ - t) + v : (v - t) + sum_;
        sum_ = t;
    }
    float total() const { return sum_ + c_; }

private:
    float sum_ = 0.0f, c_ = 0.0f;
};

}  // namespace normlab::cpu
