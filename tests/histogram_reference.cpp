#include "histogram_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace normlab::test {
namespace {

std::string show(const std::vector<std::uint32_t>& b) {
    std::ostringstream os;
    for (std::size_t i = 0; i < b.size(); ++i) os << (i ? " " : "") << b[i];
    return os.str();
}

}  // namespace

RefHistogram histogram_reference(const std::vector<float>& x, const std::vector<float>* sub,
                                 const std::vector<std::int64_t>& offsets, std::uint32_t bins) {
    RefHistogram r;
    r.bins.assign(bins, 0);
    std::vector<float> v;
    for (std::int64_t i : offsets) {
        const auto u = static_cast<std::size_t>(i);
        const float value = sub ? x[u] - (*sub)[u] : x[u];
        if (std::isfinite(value)) v.push_back(value);
    }
    r.count = static_cast<std::int64_t>(v.size());
    if (v.empty()) return r;
    float lo = v[0], hi = v[0];
    double sum = 0;
    for (float f : v) {
        lo = std::min(lo, f);
        hi = std::max(hi, f);
        sum += f;
    }
    r.min = lo;
    r.max = hi;
    r.mean = sum / static_cast<double>(v.size());
    double m2 = 0;
    for (float f : v) m2 += (f - r.mean) * (f - r.mean);
    r.var = m2 / static_cast<double>(v.size());
    const volatile float range = hi - lo;  // float32 steps, as in the shader
    const float scale = hi > lo ? static_cast<float>(bins) / range : 0.0f;
    for (float f : v) {
        std::uint32_t b = bins / 2;
        if (hi > lo) {
            const volatile float d = f - lo;
            const float pos = d * scale;
            b = static_cast<std::uint32_t>(std::clamp(static_cast<int>(pos), 0, static_cast<int>(bins) - 1));
            const double exact = (static_cast<double>(f) - lo) / (static_cast<double>(hi) - lo) * bins;
            const double edge = std::round(exact);
            if (edge >= 1 && edge <= bins - 1 && std::abs(exact - edge) < 1e-4) ++r.near_edge;
        }
        ++r.bins[b];
    }
    return r;
}

std::vector<std::int64_t> statistic_offsets(const core::StatLayout& l, std::int64_t s) {
    std::vector<std::int64_t> o;
    for (std::int64_t e = 0; e < l.count(); ++e) o.push_back(l.element_offset(s, e));
    return o;
}

std::string histogram_mismatch(const plan::HistogramResult& got, const RefHistogram& ref, bool exact_bins) {
    std::ostringstream os;
    if (got.bins.size() != ref.bins.size()) os << got.bins.size() << " bins, want " << ref.bins.size() << "; ";
    if (got.count != ref.count) os << "count " << got.count << ", want " << ref.count << "; ";
    if (got.min != ref.min || got.max != ref.max)  // min and max are values of the set: exact
        os << "range [" << got.min << ", " << got.max << "], want [" << ref.min << ", " << ref.max << "]; ";
    const double spread = ref.max - ref.min;
    const double magnitude = std::max(std::abs(ref.min), std::abs(ref.max));
    if (!(std::abs(got.mean - ref.mean) <= 2.5e-7 * magnitude + 1e-5 * spread))
        os << "mean " << got.mean << ", want " << ref.mean << "; ";
    if (!(std::abs(got.var - ref.var) <= 2e-5 * ref.var + 1e-6 * spread * spread))
        os << "var " << got.var << ", want " << ref.var << "; ";
    std::int64_t total = 0;
    for (auto b : got.bins) total += b;
    if (total != ref.count) os << "the bins hold " << total << " values, want " << ref.count << "; ";
    if (got.bins.size() == ref.bins.size()) {
        if (exact_bins || ref.near_edge == 0) {
            if (got.bins != ref.bins) os << "bins differ; ";
        } else {
            std::int64_t moved = 0;
            for (std::size_t i = 0; i < ref.bins.size(); ++i)
                moved += std::abs(static_cast<std::int64_t>(got.bins[i]) - static_cast<std::int64_t>(ref.bins[i]));
            if (moved > 2 * ref.near_edge)
                os << moved << " bin counts moved, more than 2 × " << ref.near_edge << " values near an edge; ";
        }
    }
    if (os.str().empty()) return "";
    os << "device bins: " << show(got.bins) << "; reference bins: " << show(ref.bins);
    return os.str();
}

}  // namespace normlab::test
