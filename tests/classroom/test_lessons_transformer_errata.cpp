// The numbers the Transformer, small-batch, saturation, γ/β and errata lessons state, computed
// by the shaders: each CHECK names the lesson step whose text states it, rounded as written.
// Also the numbers issue 22's fixes and errata list under "literals" (lessons 04, 05, 13 and the
// second errata lesson), which the general number test cannot bind to a placeholder; the sets
// S_i the four-partitions lesson writes out, as the Explain panel gives them (partition_set.hpp);
// scale invariance and LayerNorm's options in the claims lesson.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/ops/backward.hpp"
#include "normlab/plan/batch_noise.hpp"
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/core/partition_set.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/ops/vulkan_backend.hpp"
#include "normlab/ops/sync_bn.hpp"
#include "normlab/io/scene_file.hpp"

#include <cmath>
#include <string>

using namespace normlab;

namespace {

core::NormResult run(const core::State& st) {
    return test::normalizer().run(io::load_tensor(st.source), st.spec, st.params);
}

// value rounded to `digits` decimals, as a lesson writes it
double rounded(double v, int digits) {
    const double k = std::pow(10.0, digits);
    return std::round(v * k) / k;
}

const classroom::Lesson& lesson(const std::string& id) {
    static classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    for (const auto& l : set.lessons)
        if (l.id == id) return l;
    FAIL("no lesson " << id);
    throw;
}

// y at (n, c, w) of a 3-D tensor
float y3(const core::NormResult& r, const core::Shape4& s, std::int64_t n, std::int64_t c, std::int64_t w) {
    return r.y.data[static_cast<std::size_t>((n * s.c + c) * s.w + w)];
}

// Whether the step's text, rendered with the engine's result for its state, states `en` / `zh`.
bool text_has(const classroom::LessonStep& step, const std::string& en, const std::string& zh) {
    const core::Tensor x = io::load_tensor(step.state.source);
    const core::NormResult r = run(step.state);
    return classroom::render_lesson_text(step.text.en, x, r).find(en) != std::string::npos &&
           classroom::render_lesson_text(step.text.zh, x, r).find(zh) != std::string::npos;
}

}  // namespace

TEST_CASE("Transformer lesson: per-token statistics, batch and length independence", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("transformer-layernorm");
    REQUIRE(l.steps.size() == 9);
    const core::Shape4 s = io::load_tensor(l.steps[1].state.source).shape;
    REQUIRE(s == core::Shape4::seq(2, 5, 8));
    core::NormResult r = run(l.steps[1].state);
    REQUIRE(r.layout.stat_count == 10);
    CHECK(r.layout.count() == 8);
    CHECK(rounded(r.mean[1], 3) == 2.625);  // token (0, 1)
    CHECK(rounded(r.var[1], 2) == 1.78);
    CHECK(rounded(r.var[1], 4) == 1.7819);
    CHECK(rounded(y3(r, s, 0, 1, 2), 3) == 1.554);
    CHECK(text_has(l.steps[2], "= 1.554", "= 1.554"));
    // step 4: the far-off third sequence leaves sequences 0 and 1 exactly as they were
    const classroom::Experiment& e = *classroom::find_experiment("transformer-layernorm");
    core::Tensor x3 = io::load_tensor(e.state.source);
    REQUIRE(x3.shape == core::Shape4::seq(3, 5, 8));
    core::NormResult left = test::normalizer().run(classroom::first_samples(x3, 2), e.state.spec);
    core::NormResult right = test::normalizer().run(x3, e.right.spec);
    for (std::size_t i = 0; i < left.y.data.size(); ++i) CHECK(left.y.data[i] == right.y.data[i]);
    // step 5: L = 3 gives token (0, 1) the same numbers
    core::NormResult rs = run(l.steps[4].state);
    CHECK(rs.mean[1] == r.mean[1]);
    CHECK(rs.var[1] == r.var[1]);
    CHECK(y3(rs, core::Shape4::seq(2, 3, 8), 0, 1, 2) == y3(r, s, 0, 1, 2));
    // step 6: BatchNorm1d over (N, L) on x.transpose(1, 2): feature 0
    core::NormResult rb = run(l.steps[5].state);
    REQUIRE(rb.layout.stat_count == 8);
    CHECK(rb.layout.count() == 10);
    CHECK(rounded(rb.mean[0], 2) == 1.27);
    CHECK(rounded(rb.var[0], 2) == 6.11);
    // step 9: RMSNorm keeps token (0, 3) positive (step 8: why Pre-LN trains without warm-up)
    core::NormResult rr = run(l.steps[8].state);
    for (std::int64_t d = 0; d < 8; ++d) CHECK(y3(rr, s, 0, 3, d) > 0);
}

TEST_CASE("small-batch lesson: batch statistics at N = 16 and N = 2, GroupNorm unchanged",
          "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("small-batch-groupnorm");
    core::NormResult r16 = run(l.steps[0].state);
    const double mu16[] = {-0.09, -0.18, 0.11, 0.01}, var16[] = {1.05, 0.95, 0.74, 1.26};
    for (std::size_t c = 0; c < 4; ++c) {
        CHECK(rounded(r16.mean[c], 2) == mu16[c]);
        CHECK(rounded(r16.var[c], 2) == var16[c]);
    }
    const classroom::Experiment& e = *classroom::find_experiment("small-batch");
    core::Tensor x = io::load_tensor(e.state.source);
    core::NormResult r2 = test::normalizer().run(classroom::first_samples(x, 2), e.state.spec);
    CHECK(rounded(r2.mean[0], 3) == -0.205);
    CHECK(rounded(r2.var[0], 2) == 0.26);
    double worst = 0;
    for (std::size_t i = 0; i < r2.y.data.size(); ++i)
        worst = std::max(worst, std::abs(static_cast<double>(r2.y.data[i]) - r16.y.data[i]));
    CHECK(rounded(worst, 2) == 0.94);
    // step 3's numbers: 1/√(6N) and 1 − 1/(6N)
    const int ns[] = {16, 8, 4, 2};
    const double sd[] = {0.102, 0.144, 0.204, 0.289}, ev[] = {0.990, 0.979, 0.958, 0.917};
    for (int i = 0; i < 4; ++i) {
        CHECK(rounded(1.0 / std::sqrt(6.0 * ns[i]), 3) == sd[i]);
        CHECK(rounded(1.0 - 1.0 / (6.0 * ns[i]), 3) == ev[i]);
    }
    // step 4: GroupNorm(2, 4) of the first two samples is the same in both batches
    const core::State& gn = l.steps[3].state;
    core::NormResult g16 = test::normalizer().run(x, gn.spec),
                     g2 = test::normalizer().run(classroom::first_samples(x, 2), gn.spec);
    for (std::size_t i = 0; i < g2.y.data.size(); ++i) CHECK(g2.y.data[i] == g16.y.data[i]);
    CHECK(rounded(g16.mean[0], 2) == -0.23);
    CHECK(rounded(g16.mean[1], 2) == -0.30);
}

TEST_CASE("saturation: normalizing h1 = [5, -3] gives ±1, and the sigmoid numbers", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("why-normalize");
    core::NormResult r = run(l.steps[1].state);
    CHECK(r.mean[0] == Approx(1.0));
    CHECK(r.var[0] == Approx(16.0));
    CHECK(rounded(r.y.data[0], 3) == 1.0);
    CHECK(rounded(r.y.data[1], 3) == -1.0);
    auto sig = [](double z) { return 1.0 / (1.0 + std::exp(-z)); };
    auto dsig = [&](double z) { return sig(z) * (1.0 - sig(z)); };
    CHECK(rounded(sig(2.5), 3) == 0.924);
    CHECK(rounded(dsig(2.5), 3) == 0.070);
    CHECK(rounded(sig(0.4), 3) == 0.599);
    CHECK(rounded(dsig(0.4), 3) == 0.240);
    CHECK(rounded(sig(5.0), 3) == 0.993);
    CHECK(rounded(dsig(5.0), 4) == 0.0066);
    CHECK(rounded(sig(-3.0), 3) == 0.047);
    CHECK(rounded(dsig(-3.0), 3) == 0.045);
    CHECK(rounded(dsig(1.0), 3) == 0.197);
    CHECK(rounded(dsig(0.71), 3) == 0.221);
    CHECK(rounded(std::sqrt(32.0), 2) == 5.66);
    // step 3: the Transformer tokens before and after LayerNorm(8)
    core::NormResult t = run(l.steps[2].state);
    const std::vector<float>& x = io::load_tensor(l.steps[2].state.source).data;
    int saturated = 0;
    double max_abs = 0, min_d03 = 1, min_raw03 = 1, max_raw03 = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        saturated += dsig(x[i]) < 0.05;
        max_abs = std::max(max_abs, std::abs(static_cast<double>(t.y.data[i])));
    }
    for (std::size_t i = 24; i < 32; ++i) {  // token (0, 3)
        min_d03 = std::min(min_d03, dsig(t.y.data[i]));
        min_raw03 = std::min(min_raw03, dsig(x[i]));
        max_raw03 = std::max(max_raw03, dsig(x[i]));
    }
    CHECK(saturated == 31);
    CHECK(max_abs < 2.27);
    CHECK(dsig(max_abs) >= 0.085);
    CHECK(rounded(min_d03, 3) == 0.090);
    CHECK(rounded(min_raw03, 4) == 0.0030);
    CHECK(rounded(max_raw03, 3) == 0.034);
}

TEST_CASE("γ and β: initial values, seed 004's values, and undoing the normalization", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("gamma-beta");
    const double xhat[] = {0.784, -0.784, 1.177, -1.177}, y05[] = {0.592, -0.192, 0.788, -0.388},
                 x[] = {1.5, -0.5, 2.0, -1.0};
    core::NormResult r1 = run(l.steps[0].state), r2 = run(l.steps[1].state), r3 = run(l.steps[2].state);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(rounded(r1.y.data[i], 3) == xhat[i]);
        CHECK(rounded(r2.y.data[i], 3) == y05[i]);
        CHECK(rounded(r3.y.data[i], 3) == x[i]);
    }
    CHECK(rounded(std::sqrt(r1.var[0] + 1e-5), 6) == 1.274759);
    core::NormResult rl = run(l.steps[4].state);
    CHECK(rl.layout.param_count == 96);
    CHECK(256 * 14 * 14 == 50176);
    const core::State& st = l.steps[5].state;
    core::NormResult rt = run(st);
    CHECK(rt.layout.param_count == 8);
    CHECK(rounded(y3(rt, core::Shape4::seq(2, 5, 8), 0, 1, 5), 3) == 3.109);
    CHECK(rounded(y3(rt, core::Shape4::seq(2, 5, 8), 0, 1, 5) / 2, 4) == 1.5545);
}

TEST_CASE("errata: SyncBN's variance, seed 000's scratch LayerNorm", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("seed-errata");
    core::NormResult per_gpu = run(l.steps[0].state);
    REQUIRE(per_gpu.layout.stat_count == 4);
    const double mu[] = {0.875, 3.0, -0.5, 5.25}, var[] = {0.921875, 0.875, 2.125, 0.8125};
    double mean_var = 0, mean_mu = 0, var_mu = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        CHECK(per_gpu.mean[k] == Approx(mu[k]).margin(1e-6));
        CHECK(per_gpu.var[k] == Approx(var[k]).margin(1e-6));
        mean_var += per_gpu.var[k] / 4;
        mean_mu += per_gpu.mean[k] / 4;
    }
    for (std::size_t k = 0; k < 4; ++k) var_mu += (per_gpu.mean[k] - mean_mu) * (per_gpu.mean[k] - mean_mu) / 4;
    core::NormResult global = run(l.steps[1].state);
    REQUIRE(global.layout.stat_count == 1);
    CHECK(global.layout.count() == 16);
    CHECK(rounded(mean_var, 2) == 1.18);
    CHECK(rounded(var_mu, 2) == 4.75);
    CHECK(global.mean[0] == Approx(2.15625).margin(1e-6));
    CHECK(rounded(global.var[0], 2) == 5.93);
    CHECK(global.var[0] == Approx(mean_var + var_mu).margin(1e-5));
    // seed 000: divide, not multiply
    core::NormResult ln = run(l.steps[4].state);
    CHECK(ln.mean[0] == Approx(2.5));
    CHECK(ln.var[0] == Approx(1.25));
    const double right[] = {-1.342, -0.447, 0.447, 1.342}, wrong[] = {-1.677, -0.559, 0.559, 1.677};
    const double xs[] = {1, 2, 3, 4};
    double wrong_var = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(rounded(ln.y.data[i], 3) == right[i]);
        const double w = (xs[i] - ln.mean[0]) * std::sqrt(ln.var[0] + 1e-5);
        CHECK(rounded(w, 3) == wrong[i]);
        wrong_var += w * w / 4;
    }
    CHECK(rounded(wrong_var, 4) == 1.5625);
    // LayerNorm's γ/β of [6, 4, 4]: 96 each
    CHECK(run(l.steps[2].state).layout.param_count == 96);
}

TEST_CASE("batch noise measured on the GPU follows 1/√(N·L) and 1 − 1/(N·L)", "[classroom][batch-noise]") {
    ops::VulkanBackend backend(test::context());  // the app's backend, buffers of its own
    auto rows = plan::measure_batch_noise(backend, 4, 6, {16, 8, 4, 2}, 200, 1);
    REQUIRE(rows.size() == 4);
    for (const auto& r : rows) {
        INFO("N = " << r.n);
        CHECK(r.count == r.n * 6);
        CHECK(r.samples == 800);
        CHECK(r.expected_sd_mean == Approx(1.0 / std::sqrt(6.0 * static_cast<double>(r.n))));
        CHECK(r.sd_mean == Approx(r.expected_sd_mean).epsilon(0.1));
        CHECK(r.mean_var == Approx(r.expected_mean_var).margin(0.05));
    }
    CHECK(rows[3].sd_mean > 2 * rows[0].sd_mean);  // N = 2 scatters about twice as much as N = 16 (√8 ≈ 2.8)
    CHECK_THROWS_AS(plan::measure_batch_noise(backend, 4, 6, {1}, 10, 1), core::InputError);
}

TEST_CASE("issue 22: the numbers the fixed lessons list as literals", "[classroom][lesson-numbers]") {
    // Lesson 04, step 3: n − 1 = N·H·W − 1 = 127, not N − 1 = 7.
    const classroom::Lesson& bn = lesson("bn-running-stats");
    const core::Tensor pop = io::load_tensor(bn.steps[0].state.source);
    const core::NormResult data = run(bn.steps[0].state);
    REQUIRE(data.layout.count() == 128);
    CHECK(data.layout.count() - 1 == 127);
    CHECK(pop.shape.n - 1 == 7);
    // Step 4: the tensor's own channel statistics, which the train step samples from.
    const double mu[] = {1.67, -1.01, 0.51}, var[] = {2.38, 0.22, 0.98};
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(rounded(data.mean[c], 2) == mu[c]);
        CHECK(rounded(data.var[c], 2) == var[c]);
    }
    CHECK(rounded(1.0 - std::pow(0.9, 30), 2) == 0.96);
    // Lesson 05, step 2: sample 2 of the classroom tensor has 28 negative values, all 16 of
    // channel 0, and RMSNorm keeps every sign.
    const classroom::Lesson& rms = lesson("rms-vs-ln");
    const core::Tensor cls = io::load_tensor(rms.steps[0].state.source);
    core::State rs = rms.steps[1].state;
    REQUIRE(rs.spec.method == core::Method::Rms);
    const core::NormResult rr = test::normalizer().run(cls, rs.spec, rs.params);
    int negative = 0, negative0 = 0;
    for (std::int64_t c = 0; c < cls.shape.c; ++c)
        for (std::int64_t h = 0; h < cls.shape.h; ++h)
            for (std::int64_t w = 0; w < cls.shape.w; ++w) {
                const auto o = static_cast<std::size_t>(cls.offset(2, c, h, w));
                negative += cls.data[o] < 0;
                negative0 += c == 0 && cls.data[o] < 0;
                CHECK((rr.y.data[o] < 0) == (cls.data[o] < 0));
            }
    CHECK(negative == 28);
    CHECK(negative0 == 16);
    CHECK(cls.shape.h * cls.shape.w == 16);
    // Lesson 13, step 4: devices with one distribution, the naive variance close; the sorted
    // classroom batch on 2 devices, 0.331 against 0.565.
    const classroom::Lesson& sy = lesson("syncbn-devices");
    const core::State& st = sy.steps[3].state;
    const core::Tensor xs = io::load_tensor(st.source);
    REQUIRE(xs.shape.n == 8);
    REQUIRE(st.spec.sync_devices == 4);
    const core::NormResult same = ops::SyncBatchNorm(test::normalizer()).run(xs, st.spec, st.params);
    REQUIRE(same.sync);
    CHECK(same.sync->naive_var[0] < same.sync->sync_var[0]);
    CHECK(same.sync->naive_var[0] > 0.97 * same.sync->sync_var[0]);
    core::NormSpec two = st.spec;
    two.sync_devices = 2;
    const core::NormResult sorted_batch = ops::SyncBatchNorm(test::normalizer()).run(cls, two);
    REQUIRE(sorted_batch.sync);
    CHECK(rounded(sorted_batch.sync->naive_var[0], 3) == 0.331);
    CHECK(rounded(sorted_batch.sync->sync_var[0], 3) == 0.565);
}

TEST_CASE("errata 2: BN backward, the unified framework, scale invariance, rounding, the G table",
          "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("seed-errata-formulas");
    REQUIRE(l.steps.size() == 11);
    // Step 1: ∂y_0/∂x from the backward shaders, and the seed's formula (γ twice) giving γ times it.
    const core::State& s0 = l.steps[0].state;
    const core::Tensor x = io::load_tensor(s0.source);
    core::Tensor dy(x.shape, 0.0f);
    dy.data[0] = 1.0f;
    const core::GradResult g = ops::run_backward(test::normalizer(), test::backward(), x, dy, s0.spec, s0.params);
    const double right[] = {0.234, -0.038, -0.189, -0.008}, seed[] = {0.117, -0.019, -0.094, -0.004};
    const core::NormResult r0 = run(s0);
    const double gamma = s0.params.weight.at(0);
    REQUIRE(gamma == 0.5);
    const double m = 4, sd = std::sqrt(r0.var[0] + 1e-5);
    std::vector<double> xhat(4), dxhat(4);
    for (std::size_t i = 0; i < 4; ++i) {
        xhat[i] = (x.data[i] - r0.mean[0]) / sd;
        dxhat[i] = dy.data[i] * gamma;  // the seed's ∂L/∂x̂_i = (∂L/∂y_i)·γ
    }
    double sum = 0, sumx = 0;
    for (std::size_t j = 0; j < 4; ++j) {
        sum += dxhat[j];
        sumx += dxhat[j] * xhat[j];
    }
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(rounded(g.dx.data[i], 3) == right[i]);
        const double seeds = gamma / (m * sd) * (m * dxhat[i] - sum - xhat[i] * sumx);
        CHECK(seeds == Approx(gamma * g.dx.data[i]).margin(1e-6));
        CHECK(rounded(seeds, 3) == seed[i]);
    }
    // Step 2: the seed's BN set is one sample's C·H·W = 96 elements (LayerNorm's).
    const core::NormResult r1 = run(l.steps[1].state);
    CHECK(r1.layout.count() == 64);
    core::State ln = l.steps[1].state;
    ln.spec = core::default_spec(core::Method::Layer);
    CHECK(run(ln).layout.count() == 96);
    // Step 3: BN(10·z) = BN(z) up to ε; 10·z has σ² = 162.5.
    const core::State& s2 = l.steps[2].state;
    core::Tensor z = io::load_tensor(s2.source), z10 = z;
    for (auto& v : z10.data) v *= 10.0f;
    const core::NormResult a = test::normalizer().run(z, s2.spec, s2.params);
    const core::NormResult b = test::normalizer().run(z10, s2.spec, s2.params);
    CHECK(b.var[0] == Approx(162.5).margin(1e-4));
    for (std::size_t i = 0; i < 4; ++i) CHECK(b.y.data[i] == Approx(a.y.data[i]).margin(1e-5));
    // Step 4: the seed's truncations and the rounded values.
    const core::NormResult r3 = run(l.steps[3].state);
    CHECK(std::trunc(r3.y.data[2] * 100) / 100 == Approx(0.36));
    CHECK(std::trunc(r3.y.data[3] * 100) / 100 == Approx(-1.09));
    const double x3 = 1.5 / std::sqrt(1.625 + 1e-5);
    CHECK(rounded(x3, 5) == 1.17669);
    CHECK(rounded(x3, 3) == 1.177);
    CHECK(std::trunc(x3 * 1000) / 1000 == Approx(1.176));
    // Step 5: the GN paper's errors as accuracies, and the gaps.
    CHECK(rounded(100 - 25.3, 1) == 74.7);
    CHECK(rounded(100 - 28.4, 1) == 71.6);
    CHECK(rounded(28.4 - 24.1, 1) == 4.3);
    CHECK(rounded(76.3 - 75.5, 1) == 0.8);
    core::State gn = l.steps[4].state;
    REQUIRE(gn.spec.groups == 1);
    core::State lnc = gn;
    lnc.spec = core::default_spec(core::Method::Layer);
    const core::NormResult g1 = run(gn), lr = run(lnc);
    REQUIRE(g1.var.size() == lr.var.size());
    for (std::size_t i = 0; i < g1.var.size(); ++i) CHECK(g1.var[i] == Approx(lr.var[i]).margin(1e-5));
}

TEST_CASE("four partitions: each step writes the S_i the Explain panel shows", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("four-partitions");
    REQUIRE(l.steps.size() == 6);
    // The filled-in set of each step's selection, as the step's text writes it (both languages).
    const char* sets[] = {"S_i = { k | k_C = 3 }",          "S_i = { k | k_N = 1 }",
                          "S_i = { k | k_N = 1, k_C = 3 }", "S_i = { k | k_N = 1, ⌊k_C/3⌋ = 1 }",
                          "S_i = { k | k_N = i_N }",        "S_i = { k | k_N = 0, k_L = 1 }"};
    for (std::size_t k = 0; k < l.steps.size(); ++k) {
        const core::State& st = l.steps[k].state;
        REQUIRE(st.selection);
        const core::Shape4 s = io::load_tensor(st.source).shape;
        const core::PartitionSet p = core::partition_set(st.spec, s, *st.selection);
        INFO("step " << k + 1 << ": " << p.filled);
        const std::string set = sets[k];
        CHECK(text_has(l.steps[k], set, set));
        if (k == 4)
            CHECK(p.rule == set);  // the seed's BN row: the rule, LayerNorm's
        else
            CHECK(p.filled.find(set) != std::string::npos);
        CHECK(p.size == core::make_layout(st.spec, s).count());
    }
    CHECK(l.steps[0].state.spec.method == core::Method::Batch);
    CHECK(l.steps[4].state.spec.method == core::Method::Layer);
}

TEST_CASE("claims lesson: scale invariance, elementwise_affine=False, bias=False", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("claims-and-options");
    REQUIRE(l.steps.size() == 10);
    // Step 1: channel 1 = 10 × channel 0, the same x̂ up to ε.
    const core::Tensor x = io::load_tensor(l.steps[0].state.source);
    const core::NormResult r = run(l.steps[0].state);
    for (std::int64_t n = 0; n < 4; ++n) {
        CHECK(x.data[static_cast<std::size_t>(n * 2 + 1)] == 10.0f * x.data[static_cast<std::size_t>(n * 2)]);
        CHECK(r.y.data[static_cast<std::size_t>(n * 2 + 1)] ==
              Approx(r.y.data[static_cast<std::size_t>(n * 2)]).margin(1e-5));
    }
    // Step 4: no γ, no β; step 5: γ only, y = γ·x̂ of step 4.
    const core::State& na = l.steps[3].state;
    const core::State& nb = l.steps[4].state;
    CHECK_FALSE(na.spec.has_weight());
    CHECK_FALSE(na.spec.has_bias());
    CHECK(nb.spec.has_weight());
    CHECK_FALSE(nb.spec.has_bias());
    const core::NormResult ra = run(na), rb = run(nb);
    for (std::size_t i = 0; i < 4; ++i) CHECK(rb.y.data[i] == Approx(nb.params.weight[i] * ra.y.data[i]).margin(1e-6));
}
