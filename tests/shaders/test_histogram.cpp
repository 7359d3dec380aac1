// histogram.comp (normlab/ops/histogram.hpp, Histogram::run) against a CPU reference of the same rules: count,
// mean, biased variance, min, max and every bin count, for whole tensors, one statistic's elements (batch
// layouts: several segments), strided samples (segments of length 1), y − x, 1 and 256 bins, values on bin
// edges and at the maximum, NaN/±Inf (skipped, not counted), constant and empty sets, and bad bin counts.
// Why: the app's histogram panels and the heatmap's value range come from this shader alone.
#include <catch2/catch.hpp>

#include "../histogram_reference.hpp"
#include "../support.hpp"

#include "normlab/ops/histogram.hpp"
#include "normlab/gpu/staging.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

using namespace normlab;
using namespace normlab::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kFltMax = std::numeric_limits<float>::max();

// Puts `values` into a new compute buffer through the engine's Staging (chunks of
// NORMLAB_STAGING_BYTES under NORMLAB_MEMORY=staged, a memcpy where compute memory is mapped).
gpu::GpuBuffer to_device(const std::vector<float>& values) {
    gpu::VulkanContext& ctx = context();
    gpu::GpuBuffer buf(ctx, std::max<std::size_t>(values.size(), 1) * 4, gpu::BufferRole::Compute);
    gpu::CommandRecorder rec(ctx);
    gpu::Staging st(ctx, rec);
    if (!values.empty()) st.upload({{&buf, 0, values.data(), values.size() * 4}});
    return buf;
}

// Everything the GPU result must match (count, min, max exactly; mean, var; the bins): the check of
// tests/histogram_reference.hpp, shared with the browser's WGSL histogram test.
void check(const plan::HistogramResult& got, const RefHistogram& ref, bool exact_bins = false) {
    CHECK(histogram_mismatch(got, ref, exact_bins) == "");
}

std::vector<std::int64_t> iota_offsets(std::int64_t base, std::int64_t n) {
    std::vector<std::int64_t> o(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) o[static_cast<std::size_t>(i)] = base + i;
    return o;
}

plan::ElementSet strided(std::int64_t base, std::int64_t segments, std::int64_t stride) {
    plan::ElementSet set;
    set.base = base;
    set.segments = segments;
    set.segment_len = 1;
    set.segment_stride = stride;
    return set;
}

std::vector<std::int64_t> strided_offsets(const plan::ElementSet& set) {
    std::vector<std::int64_t> o;
    for (std::int64_t j = 0; j < set.segments; ++j) o.push_back(set.base + j * set.segment_stride);
    return o;
}

// randn values with NaN, +Inf and −Inf sprinkled in at fixed places (first element too).
std::vector<float> with_nonfinite(std::vector<float> v) {
    for (std::size_t i = 0; i < v.size(); i += 37) v[i] = kNaN;
    for (std::size_t i = 5; i < v.size(); i += 53) v[i] = kInf;
    for (std::size_t i = 11; i < v.size(); i += 71) v[i] = -kInf;
    return v;
}

}  // namespace

TEST_CASE("histogram of a whole tensor matches the CPU reference", "[histogram]") {
    ops::Histogram hist(context());
    // 120 values (one chunk), 15,345 (four 4,096-element chunks merged with Chan's formula), 1e4 + 0.1·randn.
    for (const core::Shape4& shape : {core::Shape4{2, 3, 4, 5}, core::Shape4{3, 5, 33, 31}}) {
        for (bool offset : {false, true}) {
            core::Tensor x = make_tensor(shape, core::Init::Randn, 11 + static_cast<std::uint64_t>(shape.numel()));
            if (offset)
                for (float& f : x.data) f = 1e4f + 0.1f * f;
            gpu::GpuBuffer buf = to_device(x.data);
            const auto offsets = iota_offsets(0, shape.numel());
            for (std::uint32_t bins : {1u, 2u, 7u, 40u, 255u, 256u}) {
                INFO(shape.str() << (offset ? " 1e4 + 0.1·randn" : " randn") << ", " << bins << " bins");
                check(hist.run(buf, plan::ElementSet::whole(shape), bins),
                      histogram_reference(x.data, nullptr, offsets, bins));
            }
        }
    }
}

TEST_CASE("histogram of one statistic's elements (batch layouts have several segments)", "[histogram]") {
    ops::Histogram hist(context());
    struct Case {
        core::Method method;
        core::Shape4 shape;
        std::int64_t groups;
        std::vector<std::int64_t> normalized_shape;
    };
    // batch 5×3×30×40: 6,000 elements per channel in 5 segments of 1,200 (two chunks, a segment across them).
    const std::vector<Case> cases{
        {core::Method::Batch, {3, 4, 5, 6}, 0, {}},     {core::Method::Batch, {5, 3, 30, 40}, 0, {}},
        {core::Method::Batch, {4, 2, 1, 1}, 0, {}},     {core::Method::Group, {2, 6, 3, 4}, 2, {}},
        {core::Method::Layer, {2, 3, 4, 5}, 0, {4, 5}}, {core::Method::Instance, {2, 3, 7, 5}, 0, {}},
        {core::Method::Rms, {3, 2, 2, 3}, 0, {3}}};
    for (const Case& c : cases) {
        core::NormSpec spec = core::default_spec(c.method);
        spec.groups = c.groups;
        spec.normalized_shape = c.normalized_shape;
        core::Tensor x = make_tensor(c.shape, core::Init::Randn, 3 + static_cast<std::uint64_t>(c.shape.numel()));
        // The Normalizer leaves x and y on the device: the app histograms exactly these buffers.
        core::NormResult r = normalizer().run(x, spec);
        const core::StatLayout& l = r.layout;
        if (c.method == core::Method::Batch) CHECK(l.segments == c.shape.n);
        for (std::int64_t s = 0; s < l.stat_count; ++s) {
            const plan::ElementSet set = plan::ElementSet::statistic(l, s);
            REQUIRE(set.count() == l.count());
            const auto offsets = statistic_offsets(l, s);
            for (std::uint32_t bins : {1u, 16u, 256u}) {
                INFO(describe(c.shape, spec) << ", statistic " << s << ", " << bins << " bins");
                check(hist.run(normalizer().x_buffer(), set, bins),
                      histogram_reference(x.data, nullptr, offsets, bins));
                check(hist.run(normalizer().y_buffer(), set, bins),
                      histogram_reference(r.y.data, nullptr, offsets, bins));
                check(hist.run(normalizer().y_buffer(), set, bins, &normalizer().x_buffer()),
                      histogram_reference(r.y.data, &x.data, offsets, bins));
            }
        }
    }
    core::NormSpec layer = core::default_spec(core::Method::Layer);
    const core::StatLayout l = core::make_layout(layer, {2, 3, 4, 5});
    CHECK_THROWS_AS(plan::ElementSet::statistic(l, l.stat_count), core::InputError);
    CHECK_THROWS_AS(plan::ElementSet::statistic(l, -1), core::InputError);
}

TEST_CASE("histogram of strided sample sets (segments of length 1)", "[histogram]") {
    ops::Histogram hist(context());
    const std::int64_t n = 20011;  // prime: no stride divides it
    std::vector<float> x = core::randn(n, 5);
    gpu::GpuBuffer buf = to_device(x);
    // (base, stride): every element as single-element segments, the app's even sample of a large tensor
    // (segments = ceil(n / stride)), offsets from the middle, a stride past most of the buffer, one element.
    const std::vector<std::pair<std::int64_t, std::int64_t>> samples{{0, 1}, {0, 3}, {2, 7}, {1000, 13}, {17, 9000}};
    for (auto [base, stride] : samples) {
        const plan::ElementSet set = strided(base, (n - base + stride - 1) / stride, stride);
        for (std::uint32_t bins : {1u, 33u, 256u}) {
            INFO("base " << base << ", stride " << stride << ", " << set.segments << " samples, " << bins << " bins");
            check(hist.run(buf, set, bins), histogram_reference(x, nullptr, strided_offsets(set), bins));
        }
    }
    const plan::ElementSet one = strided(n - 1, 1, 5);
    plan::HistogramResult r = hist.run(buf, one, 8);
    check(r, histogram_reference(x, nullptr, {n - 1}, 8));
    CHECK(r.min == r.max);
    CHECK(r.bins[4] == 1);
}

TEST_CASE("histogram of y − x (the subtract buffer)", "[histogram]") {
    ops::Histogram hist(context());
    const core::Shape4 shape{3, 4, 23, 29};  // 8,004 values: two chunks
    core::Tensor x = make_tensor(shape, core::Init::Randn, 21);
    core::Tensor y = make_tensor(shape, core::Init::Uniform, 22);
    // Finite x and y whose difference is not: overflow to ±Inf, and Inf − Inf = NaN; skipped like the rest.
    x.data[3] = -3e38f, y.data[3] = 3e38f;
    x.data[100] = 3e38f, y.data[100] = -3e38f;
    x.data[200] = kInf, y.data[200] = kInf;
    x.data[300] = kNaN;
    y.data[400] = -kInf;
    // Inputs whose own range is wide but whose difference is small: y − x is what is histogrammed.
    y.data[500] = 1e30f, x.data[500] = 1e30f;
    normalizer().load_values(x, y);
    const gpu::GpuBuffer& xb = normalizer().x_buffer();
    const gpu::GpuBuffer& yb = normalizer().y_buffer();
    const auto all = iota_offsets(0, shape.numel());
    for (std::uint32_t bins : {1u, 10u, 256u}) {
        INFO(bins << " bins");
        const RefHistogram ref = histogram_reference(y.data, &x.data, all, bins);
        CHECK(ref.count == shape.numel() - 5);
        check(hist.run(yb, plan::ElementSet::whole(shape), bins, &xb), ref);
        check(hist.run(xb, plan::ElementSet::whole(shape), bins, &yb), histogram_reference(x.data, &y.data, all, bins));
        const core::StatLayout l = core::make_layout(core::default_spec(core::Method::Batch), shape);
        for (std::int64_t s = 0; s < l.stat_count; ++s)
            check(hist.run(yb, plan::ElementSet::statistic(l, s), bins, &xb),
                  histogram_reference(y.data, &x.data, statistic_offsets(l, s), bins));
        const plan::ElementSet sample = strided(1, shape.numel() / 3, 3);
        check(hist.run(yb, sample, bins, &xb), histogram_reference(y.data, &x.data, strided_offsets(sample), bins));
    }
    // x − x is 0 everywhere x is finite: a constant set.
    plan::HistogramResult zero = hist.run(xb, plan::ElementSet::whole(shape), 5, &xb);
    CHECK(zero.count == shape.numel() - 2);  // x[200] = Inf and x[300] = NaN; x[3], x[100] = ∓3e38 are finite
    CHECK(zero.min == 0.0);
    CHECK(zero.max == 0.0);
    CHECK(zero.var == 0.0);
    CHECK(zero.bins == std::vector<std::uint32_t>{0, 0, static_cast<std::uint32_t>(zero.count), 0, 0});
}

TEST_CASE("histogram values exactly on bin edges and at the maximum", "[histogram]") {
    ops::Histogram hist(context());
    SECTION("8 bins over [0, 8]: v = k goes to bin k, v = 8 (the max) to bin 7") {
        std::vector<float> v;
        std::vector<std::uint32_t> want(8, 0);
        for (int rep = 0; rep < 3; ++rep)
            for (int k = 0; k <= 8; ++k) {
                v.push_back(static_cast<float>(k));
                ++want[static_cast<std::size_t>(std::min(k, 7))];
                if (k < 8) {
                    v.push_back(static_cast<float>(k) + 0.5f);                     // inside bin k
                    v.push_back(std::nextafter(static_cast<float>(k + 1), 0.0f));  // just under the next edge
                    want[static_cast<std::size_t>(k)] += 2;
                }
            }
        plan::HistogramResult r = hist.run(to_device(v), strided(0, static_cast<std::int64_t>(v.size()), 1), 8);
        CHECK(r.bins == want);
        check(r, histogram_reference(v, nullptr, iota_offsets(0, static_cast<std::int64_t>(v.size())), 8), true);
    }
    SECTION("5 bins over [-2, 3] (width 1) and 4 bins over [0, 8] (width 2)") {
        const std::vector<float> a{-2, -1, 0, 1, 2, 3, -1.5f, 2.5f, 3, 3};
        plan::HistogramResult ra = hist.run(to_device(a), strided(0, 10, 1), 5);
        CHECK(ra.bins == std::vector<std::uint32_t>{2, 1, 1, 1, 5});
        check(ra, histogram_reference(a, nullptr, iota_offsets(0, 10), 5), true);
        const std::vector<float> b{0, 1, 2, 3, 4, 5, 6, 7, 8};
        plan::HistogramResult rb = hist.run(to_device(b), plan::ElementSet::whole({1, 1, 1, 9}), 4);
        CHECK(rb.bins == std::vector<std::uint32_t>{2, 2, 2, 3});
        check(rb, histogram_reference(b, nullptr, iota_offsets(0, 9), 4), true);
    }
    SECTION("256 bins over [0, 256]: one value per bin, two in the last") {
        std::vector<float> v(257);
        for (int k = 0; k <= 256; ++k) v[static_cast<std::size_t>(k)] = static_cast<float>(256 - k);  // max first
        plan::HistogramResult r = hist.run(to_device(v), plan::ElementSet::whole({1, 1, 1, 257}), 256);
        std::vector<std::uint32_t> want(256, 1);
        want[255] = 2;
        CHECK(r.bins == want);
        check(r, histogram_reference(v, nullptr, iota_offsets(0, 257), 256), true);
        // The same values with 1 bin: everything in bin 0.
        plan::HistogramResult one = hist.run(to_device(v), plan::ElementSet::whole({1, 1, 1, 257}), 1);
        CHECK(one.bins == std::vector<std::uint32_t>{257});
    }
    SECTION("10 bins over [0, 1] with v = k/10 in float32 (edges not exact: the float32 rule decides)") {
        std::vector<float> v;
        for (int k = 0; k <= 10; ++k) v.push_back(static_cast<float>(k) / 10.0f);
        check(hist.run(to_device(v), plan::ElementSet::whole({1, 1, 1, 11}), 10),
              histogram_reference(v, nullptr, iota_offsets(0, 11), 10));
    }
}

TEST_CASE("histogram skips NaN and ±Inf and does not count them", "[histogram]") {
    ops::Histogram hist(context());
    const core::Shape4 shape{2, 3, 40, 41};  // 9,840 values, three chunks
    std::vector<float> x = with_nonfinite(core::randn(shape.numel(), 9));
    gpu::GpuBuffer buf = to_device(x);
    std::int64_t finite = 0;
    for (float f : x) finite += std::isfinite(f) ? 1 : 0;
    REQUIRE(finite < shape.numel());
    REQUIRE(std::isnan(x[0]));  // the first value is the shader's shift K: NaN must not poison it
    for (std::uint32_t bins : {1u, 20u, 256u}) {
        INFO(bins << " bins");
        const RefHistogram ref = histogram_reference(x, nullptr, iota_offsets(0, shape.numel()), bins);
        REQUIRE(ref.count == finite);
        const plan::HistogramResult r = hist.run(buf, plan::ElementSet::whole(shape), bins);
        check(r, ref);
        CHECK(std::isfinite(r.mean));
        CHECK(std::isfinite(r.var));
        const core::StatLayout l = core::make_layout(core::default_spec(core::Method::Batch), shape);
        for (std::int64_t s = 0; s < l.stat_count; ++s)
            check(hist.run(buf, plan::ElementSet::statistic(l, s), bins),
                  histogram_reference(x, nullptr, statistic_offsets(l, s), bins));
    }
}

TEST_CASE("histogram of a set of only NaN and ±Inf: nothing counted, every bin 0", "[histogram]") {
    ops::Histogram hist(context());
    const std::vector<float> bad{kNaN, kInf, -kInf, kNaN, kInf};
    const plan::HistogramResult r = hist.run(to_device(bad), plan::ElementSet::whole({1, 1, 1, 5}), 16);
    CHECK(r.count == 0);
    CHECK(r.bins == std::vector<std::uint32_t>(16, 0));
    CHECK(r.mean == 0.0);
    CHECK(r.var == 0.0);
    CHECK(r.min == 0.0);
    CHECK(r.max == 0.0);
}

TEST_CASE("histogram counts finite values out to ±FLT_MAX, which are its min and max", "[histogram]") {
    ops::Histogram hist(context());
    const std::vector<float> big{kFltMax, kFltMax, kNaN, kFltMax};
    const plan::HistogramResult r = hist.run(to_device(big), plan::ElementSet::whole({1, 1, 1, 4}), 4);
    CHECK(r.count == 3);
    CHECK(r.min == kFltMax);
    CHECK(r.max == kFltMax);
    CHECK(r.bins == std::vector<std::uint32_t>{0, 0, 3, 0});
    const std::vector<float> small{-kFltMax, -kInf, -kFltMax};
    const plan::HistogramResult s = hist.run(to_device(small), plan::ElementSet::whole({1, 1, 1, 3}), 4);
    CHECK(s.count == 2);
    CHECK(s.min == -kFltMax);
    CHECK(s.max == -kFltMax);
}

TEST_CASE("histogram of a constant set: min == max, every value in bin bins / 2", "[histogram]") {
    ops::Histogram hist(context());
    for (float value : {2.5f, 0.0f, -1e4f}) {
        std::vector<float> v(9000, value);  // three chunks
        v[17] = kNaN;
        v[4500] = -kInf;
        gpu::GpuBuffer buf = to_device(v);
        for (std::uint32_t bins : {1u, 2u, 7u, 256u}) {
            INFO("value " << value << ", " << bins << " bins");
            const plan::HistogramResult r = hist.run(buf, plan::ElementSet::whole({1, 1, 90, 100}), bins);
            check(r, histogram_reference(v, nullptr, iota_offsets(0, 9000), bins), true);
            CHECK(r.count == 8998);
            CHECK(r.min == value);
            CHECK(r.max == value);
            CHECK(r.mean == value);
            CHECK(r.var == 0.0);
            std::vector<std::uint32_t> want(bins, 0);
            want[bins / 2] = 8998;
            CHECK(r.bins == want);
        }
    }
}

TEST_CASE("histogram of an empty set: nothing counted, every bin 0", "[histogram]") {
    ops::Histogram hist(context());
    gpu::GpuBuffer buf = to_device(core::randn(64, 1));
    plan::ElementSet empty;
    empty.base = 8;
    empty.segment_len = 0;
    plan::ElementSet no_segments = strided(4, 0, 3);
    for (const plan::ElementSet& set : {empty, no_segments}) {
        for (std::uint32_t bins : {1u, 256u}) {
            const plan::HistogramResult r = hist.run(buf, set, bins);
            CHECK(r.count == 0);
            CHECK(r.bins == std::vector<std::uint32_t>(bins, 0));
            CHECK(r.mean == 0.0);
            CHECK(r.var == 0.0);
        }
    }
}

TEST_CASE("histogram rejects bad bin counts and sets outside the buffer with InputError", "[histogram]") {
    ops::Histogram hist(context());
    std::vector<float> v = core::randn(100, 2);
    gpu::GpuBuffer buf = to_device(v);
    const plan::ElementSet all = plan::ElementSet::whole({1, 1, 10, 10});
    CHECK_THROWS_AS(hist.run(buf, all, 0), core::InputError);
    CHECK_THROWS_AS(hist.run(buf, all, ops::Histogram::kMaxBins + 1), core::InputError);
    CHECK_THROWS_AS(hist.run(buf, all, 100000), core::InputError);
    CHECK_THROWS_AS(hist.run(buf, plan::ElementSet::whole({1, 1, 10, 11}), 8), core::InputError);
    CHECK_THROWS_AS(hist.run(buf, strided(0, 35, 3), 8), core::InputError);  // its last offset is 102
    CHECK_NOTHROW(hist.run(buf, strided(0, 34, 3), 8));                      // its last offset is 99
    gpu::GpuBuffer small = to_device(core::randn(50, 3));
    CHECK_THROWS_AS(hist.run(buf, all, 8, &small), core::InputError);  // the subtracted buffer is smaller
    // The histogram still works after the refusals.
    check(hist.run(buf, all, ops::Histogram::kMaxBins),
          histogram_reference(v, nullptr, iota_offsets(0, 100), ops::Histogram::kMaxBins));
    CHECK(context().validation_messages() == 0);
}
