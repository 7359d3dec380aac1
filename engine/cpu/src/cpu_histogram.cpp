#include "normlab/cpu/cpu_histogram.hpp"

#include "normlab/cpu/cpu_buffer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace normlab::cpu {
namespace {

struct Values {
    const float* x;
    const float* sub;
    const plan::ElementSet& set;
    float operator()(std::int64_t e) const {
        const std::int64_t i = set.segments == 1
                                   ? set.base + e
                                   : set.base + (e / set.segment_len) * set.segment_stride + e % set.segment_len;
        return sub ? x[i] - sub[i] : x[i];
    }
};

struct Partial {
    float n = 0, mean = 0, m2 = 0, lo = 0, hi = 0;
};

// histogram.wgsl's PASS 0 for elements [e0, e1).
Partial chunk_stats(const Values& v, std::int64_t e0, std::int64_t e1, float K) {
    Partial p;
    CompensatedSum s;
    float lo = INFINITY, hi = -INFINITY;
    for (std::int64_t e = e0; e < e1; ++e) {
        const float x = v(e);
        if (!std::isfinite(x)) continue;
        p.n += 1.0f;
        s.add(x - K);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    if (p.n == 0) return p;
    p.mean = s.total() / p.n;
    CompensatedSum m2;
    for (std::int64_t e = e0; e < e1; ++e) {
        const float x = v(e);
        if (!std::isfinite(x)) continue;
        const float d = x - K - p.mean;
        m2.add(d * d);
    }
    p.m2 = m2.total();
    p.lo = lo, p.hi = hi;
    return p;
}

}  // namespace

plan::HistogramResult cpu_histogram(const float* values, std::size_t size, const plan::ElementSet& set,
                                    std::uint32_t bins, const float* subtract, std::size_t subtract_size) {
    plan::check_histogram(set, bins, std::uint64_t{size} * 4,
                          subtract ? std::max<std::uint64_t>(subtract_size * 4, 1) : 0);
    plan::HistogramResult r;
    r.bins.assign(bins, 0);
    if (set.count() == 0) return r;
    const auto t = std::chrono::steady_clock::now();
    const Values v{values, subtract, set};
    const std::int64_t count = set.count();
    const float K = std::isfinite(v(0)) ? v(0) : 0.0f;
    // PASS 0 and 1: the chunks, merged with Chan's formula (histogram.wgsl's merge).
    float n = 0, mean = 0, m2 = 0, lo = 0, hi = 0;
    for (std::int64_t e0 = 0; e0 < count; e0 += plan::kHistogramChunkLen) {
        const Partial p = chunk_stats(v, e0, std::min<std::int64_t>(e0 + plan::kHistogramChunkLen, count), K);
        if (p.n <= 0) continue;
        lo = n == 0 ? p.lo : std::min(lo, p.lo);
        hi = n == 0 ? p.hi : std::max(hi, p.hi);
        const float nn = n + p.n, delta = p.mean - mean;
        mean = mean + delta * p.n / nn;
        m2 = m2 + p.m2 + delta * delta * n * p.n / nn;
        n = nn;
    }
    const float res[8] = {n, K + mean, n > 0 ? std::max(m2 / n, 0.0f) : 0.0f, K, lo, hi, 0, 0};
    // PASS 2: the bins over [lo, hi].
    std::vector<std::uint32_t> counts(bins, 0);
    const float scale = hi > lo ? static_cast<float>(bins) / (hi - lo) : 0.0f;
    for (std::int64_t e = 0; e < count; ++e) {
        const float x = v(e);
        if (!std::isfinite(x)) continue;
        std::uint32_t b = bins / 2;
        if (hi > lo)
            b = static_cast<std::uint32_t>(
                std::clamp(static_cast<int>((x - lo) * scale), 0, static_cast<int>(bins) - 1));
        ++counts[b];
    }
    r = plan::unpack_histogram(res, counts.data(), bins);
    r.gpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    return r;
}

}  // namespace normlab::cpu
