#include "histogram_test.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/tensor_init.hpp"
#include "normlab/webgpu/wgpu_histogram.hpp"
#include "histogram_reference.hpp"
#include "random_configs.hpp"

#include <chrono>
#include <limits>
#include <random>

namespace normlab::web {
namespace {

using webgpu::WgpuHistogram;
using webgpu::WgpuNormalizer;

std::vector<std::int64_t> all_offsets(const core::Shape4& s) {
    std::vector<std::int64_t> o(static_cast<std::size_t>(s.numel()));
    for (std::size_t i = 0; i < o.size(); ++i) o[i] = static_cast<std::int64_t>(i);
    return o;
}

class HistogramSuite {
public:
    explicit HistogramSuite(webgpu::WgpuNormalizer& n) : n_(n), hist_(n.context()) {}

    // One histogram on the device against the CPU reference of the same values (tests/histogram_reference.hpp).
    void check(const std::string& name, const std::vector<float>& x, const std::vector<float>* sub,
               const webgpu::WgpuBuffer& xb, const webgpu::WgpuBuffer* subb, const plan::ElementSet& set,
               const std::vector<std::int64_t>& offsets, std::uint32_t bins) {
        ++cases_;
        try {
            const plan::HistogramResult g = hist_.run(xb, set, bins, subb);
            const test::RefHistogram ref = test::histogram_reference(x, sub, offsets, bins);
            values_ += ref.count;
            near_edge_ += ref.near_edge;
            const std::string what = test::histogram_mismatch(g, ref);
            if (!what.empty()) fail(name, set, bins, what);
        } catch (const std::exception& ex) {
            fail(name, set, bins, std::string("threw: ") + ex.what());
        }
    }

    // x, y and y − x of one normalizer run: the whole tensor; x and y of the first and the last statistic.
    void run_sets(const std::string& name, const core::Tensor& x, const core::NormSpec& spec,
                  const core::NormParams& params, std::uint32_t bins) {
        const core::NormResult r = n_.run(x, spec, params);
        const auto b = n_.buffers();
        const plan::ElementSet whole = plan::ElementSet::whole(x.shape);
        const std::vector<std::int64_t> all = all_offsets(x.shape);
        check(name + " x", x.data, nullptr, b.x, nullptr, whole, all, bins);
        check(name + " y", r.y.data, nullptr, b.y, nullptr, whole, all, bins);
        check(name + " y - x", r.y.data, &x.data, b.y, &b.x, whole, all, bins);
        const std::int64_t S = r.layout.stat_count;
        for (std::int64_t s : {std::int64_t{0}, S - 1}) {
            const plan::ElementSet set = plan::ElementSet::statistic(r.layout, s);
            const std::vector<std::int64_t> offsets = test::statistic_offsets(r.layout, s);
            check(name + " x, statistic " + std::to_string(s), x.data, nullptr, b.x, nullptr, set, offsets, bins);
            check(name + " y, statistic " + std::to_string(s), r.y.data, nullptr, b.y, nullptr, set, offsets, bins);
        }
        ++methods_[core::method_name(spec.method)];
    }

    void fail(const std::string& name, const plan::ElementSet& set, std::uint32_t bins, const std::string& what) {
        failures_.push_back(
            {{"case", name + " (" + std::to_string(set.count()) + " values, " + std::to_string(bins) + " bins)"},
             {"what", what}});
    }

    nlohmann::json report() const {
        return {{"cases", cases_},
                {"values", values_},
                {"failures", failures_},
                {"near_edge", near_edge_},
                {"methods", methods_}};
    }

    webgpu::WgpuHistogram& histogram() { return hist_; }
    webgpu::WgpuNormalizer& normalizer() { return n_; }

private:
    webgpu::WgpuNormalizer& n_;
    webgpu::WgpuHistogram hist_;
    int cases_ = 0;
    std::int64_t values_ = 0, near_edge_ = 0;
    nlohmann::json failures_ = nlohmann::json::array();
    std::map<std::string, int> methods_;
};

const core::Method kMethods[] = {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                                 core::Method::Rms};

// Random configurations of every method on shapes of rank 3 to 5, bins from 1 to 256.
void random_runs(HistogramSuite& t) {
    std::mt19937_64 rng(2020);
    const std::uint32_t bin_counts[] = {1, 7, 64, 100, 256};
    int k = 0;
    for (int rank : {4, 3, 5})
        for (core::Method m : kMethods) {
            for (int tries = 0; tries < 20; ++tries) {
                const core::Shape4 s = test::random_shape(rank, {1, 2, 3, 5, 8, 13, 31}, rng);
                auto [spec, params] = test::random_config(m, s, rng);
                if (!test::valid(m, s, spec) || s.numel() > (1 << 15)) continue;
                const core::Tensor x = make_tensor(s, core::Init::Randn, rng());
                t.run_sets(test::describe(s, spec), x, spec, params, bin_counts[k++ % 5]);
                break;
            }
        }
}

// Non-finite values skipped, a constant set (its middle bin), many chunks, bad requests refused.
void special_sets(HistogramSuite& t, nlohmann::json& j) {
    core::Tensor x = make_tensor({2, 3, 8, 8}, core::Init::Randn, 31);
    x.data[3] = std::numeric_limits<float>::quiet_NaN();
    x.data[70] = std::numeric_limits<float>::infinity();
    x.data[200] = -std::numeric_limits<float>::infinity();
    t.run_sets("NaN and Inf", x, core::default_spec(core::Method::Instance), {}, 32);
    t.run_sets("constant", make_tensor({2, 3, 4, 4}, core::Init::Constant, 0, 1.5f),
               core::default_spec(core::Method::Layer), {}, 9);
    core::NormSpec batch = core::default_spec(core::Method::Batch);
    t.run_sets("many chunks", make_tensor({8, 4, 64, 64}, core::Init::Randn, 32), batch, {}, 256);  // 32 chunks a set
    int refused = 0;
    for (std::uint32_t bins : {0u, plan::kHistogramMaxBins + 1}) {
        try {
            t.histogram().run(t.normalizer().buffers().x, plan::ElementSet::whole({1, 1, 1, 4}), bins);
        } catch (const core::InputError&) {
            ++refused;
        }
    }
    j["bad_bins_refused"] = refused;
    // The comparison must see a wrong count: the device's 64 bins against the CPU's for the same
    // values with one moved up by 1 (several bin widths).
    const core::Tensor c = make_tensor({2, 3, 8, 8}, core::Init::Randn, 33);
    t.normalizer().run(c, core::default_spec(core::Method::Layer), {});
    const plan::ElementSet set = plan::ElementSet::whole(c.shape);
    const plan::HistogramResult g = t.histogram().run(t.normalizer().buffers().x, set, 64);
    std::vector<float> moved = c.data;
    moved[0] += 1.0f;
    const std::string seen =
        test::histogram_mismatch(g, test::histogram_reference(moved, nullptr, all_offsets(c.shape), 64));
    j["negative_control_detected"] = !seen.empty();
    j["negative_control"] = seen.substr(0, 200);
}

}  // namespace

nlohmann::json run_histogram_tests(webgpu::WgpuNormalizer& normalizer) {
    const auto t0 = std::chrono::steady_clock::now();
    HistogramSuite t(normalizer);
    nlohmann::json extra;
    random_runs(t);
    special_sets(t, extra);
    nlohmann::json j = t.report();
    j.update(extra);
    j["ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return j;
}

}  // namespace normlab::web
