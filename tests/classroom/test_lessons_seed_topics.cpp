// The six lessons on the seeds' untaught topics (issue 41), checked on the shaders' numbers:
// FRN's ν² is InstanceNorm's σ² + μ² for every (n, c); Switchable Normalization's LayerNorm and
// BatchNorm statistics derived from InstanceNorm's equal the ones LayerNorm and BatchNorm compute,
// and the mix lies between the three; Weight Normalization's RMSNorm of a 1-D vector (ε = 0) has
// unit mean square; Scaled Weight Standardization is LayerNorm over each filter; LayerNorm of one
// token alone equals that token in a batch and BatchNorm1d's eval() with fresh buffers divides by
// √(1 + ε); the timing lesson runs LayerNorm and RMSNorm on the same tensor and shows both times.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/io/scene_file.hpp"

#include <algorithm>
#include <cmath>
#include <string>

using namespace normlab;

namespace {

const classroom::LessonSet& lessons() {
    static classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    return set;
}

const classroom::Lesson& lesson(const std::string& id) {
    for (const auto& l : lessons().lessons)
        if (l.id == id) return l;
    FAIL("no lesson " << id);
    throw;
}

struct Ran {
    core::Tensor x;
    core::NormResult r;
};

Ran run(const classroom::LessonStep& s) {
    Ran out{io::load_tensor(s.state.source), {}};
    out.r = test::normalizer().run(out.x, s.state.spec, s.state.params);
    return out;
}

double rel(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

double value(const std::string& placeholder, const Ran& ran) {
    const auto ps = classroom::parse_placeholders(placeholder);
    REQUIRE(ps.size() == 1);
    double v = 0;
    REQUIRE(classroom::placeholder_value(ps[0], ran.x, ran.r, v));
    return v;
}

}  // namespace

TEST_CASE("28 lessons, the six seed-topic ones among them", "[classroom][lesson-numbers]") {
    for (const auto& e : lessons().errors) FAIL(e);
    CHECK(lessons().lessons.size() == 28);  // 24-28 train: test_train_lessons.cpp
    for (const char* id : {"filter-response-norm", "switchable-norm", "weight-norm-nf-resnets", "layernorm-state-eval",
                           "transformer-detection-practice", "rmsnorm-cost"})
        CHECK(lesson(id).steps.size() >= 3);
}

TEST_CASE("FRN lesson: ν² of RMSNorm over [H, W] is InstanceNorm's σ² + μ²", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("filter-response-norm");
    const Ran in = run(l.steps[0]), frn = run(l.steps[1]);
    REQUIRE(in.r.layout.method == core::Method::Instance);
    REQUIRE(frn.r.layout.method == core::Method::Rms);
    REQUIRE(frn.r.mean_square.size() == in.r.mean.size());
    for (std::size_t s = 0; s < in.r.mean.size(); ++s)
        CHECK(rel(frn.r.mean_square[s], in.r.var[s] + in.r.mean[s] * in.r.mean[s]) < 1e-5);
    // Step 1 states ν² beside μ and σ² ({ms[s]} under InstanceNorm): RMSNorm's, as step 2 computes it.
    for (const int s : {0, 8}) CHECK(rel(value("{ms[" + std::to_string(s) + "]}", in), frn.r.mean_square[s]) < 1e-5);
    // Step 3: every x̂ of channel 0, sample 0 is below 0 (a ReLU would zero them all).
    const Ran tlu = run(l.steps[2]);
    for (std::size_t i = 0; i < 16; ++i) CHECK(tlu.r.y.data[i] < 0.0f);
}

TEST_CASE("SN lesson: LN's and BN's statistics derived from IN's equal the GPU's", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("switchable-norm");
    const Ran in = run(l.steps[1]), ln = run(l.steps[2]), bn = run(l.steps[3]);
    REQUIRE(in.r.layout.method == core::Method::Instance);
    REQUIRE(ln.r.layout.method == core::Method::Layer);
    REQUIRE(bn.r.layout.method == core::Method::Batch);
    const std::int64_t N = in.x.shape.n, C = in.x.shape.c;
    for (std::int64_t n = 0; n < N; ++n) {
        CHECK(rel(value("{ln_mean[" + std::to_string(n) + "]}", in), ln.r.mean[n]) < 1e-5);
        CHECK(rel(value("{ln_var[" + std::to_string(n) + "]}", in), ln.r.var[n]) < 1e-5);
    }
    for (std::int64_t c = 0; c < C; ++c) {
        CHECK(rel(value("{bn_mean[" + std::to_string(c) + "]}", in), bn.r.mean[c]) < 1e-5);
        CHECK(rel(value("{bn_var[" + std::to_string(c) + "]}", in), bn.r.var[c]) < 1e-5);
    }
    // The mix of (1, 2), as step 5 states it: the mean of the three, between the smallest and largest.
    const Ran mix = run(l.steps[4]);
    const double m[] = {in.r.mean[1 * C + 2], ln.r.mean[1], bn.r.mean[2]};
    const double v[] = {in.r.var[1 * C + 2], ln.r.var[1], bn.r.var[2]};
    CHECK(rel(value("{sn_mean[1,2]}", mix), (m[0] + m[1] + m[2]) / 3) < 1e-5);
    CHECK(rel(value("{sn_var[1,2]}", mix), (v[0] + v[1] + v[2]) / 3) < 1e-5);
    CHECK(value("{sn_var[1,2]}", mix) > *std::min_element(v, v + 3));
    CHECK(value("{sn_var[1,2]}", mix) < *std::max_element(v, v + 3));
}

TEST_CASE("WN and NF-ResNets lesson: normalized weights", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("weight-norm-nf-resnets");
    const Ran wn = run(l.steps[0]);
    REQUIRE(wn.x.shape.rank == 1);
    REQUIRE(wn.r.layout.stat_count == 1);
    double sq = 0, vv = 0;  // ε = 0: y = v / RMS(v), so mean(y²) = 1 and ‖v‖² = D · mean(v²)
    for (std::size_t i = 0; i < wn.x.data.size(); ++i) {
        sq += double(wn.r.y.data[i]) * wn.r.y.data[i];
        vv += double(wn.x.data[i]) * wn.x.data[i];
    }
    CHECK(sq / double(wn.x.data.size()) == Approx(1.0).epsilon(1e-5));
    CHECK(vv == Approx(double(wn.x.data.size()) * wn.r.mean_square[0]).epsilon(1e-5));
    // Scaled WS: filter 1's μ and σ² over its fan-in, from the weights themselves.
    const Ran ws = run(l.steps[2]);
    REQUIRE(ws.r.layout.count() == 27);
    double s = 0, s2 = 0;
    for (std::size_t i = 27; i < 54; ++i) s += ws.x.data[i];
    for (std::size_t i = 27; i < 54; ++i) s2 += (ws.x.data[i] - s / 27) * (ws.x.data[i] - s / 27);
    CHECK(rel(ws.r.mean[1], s / 27) < 1e-5);
    CHECK(rel(ws.r.var[1], s2 / 27) < 1e-5);
}

TEST_CASE("LayerNorm state/eval lesson: one token alone, BatchNorm1d's eval", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("layernorm-state-eval");
    const Ran batch = run(l.steps[0]), alone = run(l.steps[1]);
    REQUIRE(alone.x.shape.rank == 1);
    for (std::size_t i = 0; i < 4; ++i) CHECK(alone.x.data[i] == batch.x.data[i]);  // the same token
    CHECK(rel(alone.r.mean[0], batch.r.mean[0]) < 1e-6);
    CHECK(rel(alone.r.var[0], batch.r.var[0]) < 1e-6);
    for (std::size_t i = 0; i < 4; ++i) CHECK(alone.r.y.data[i] == Approx(batch.r.y.data[i]).margin(1e-6));
    const Ran train = run(l.steps[2]), eval = run(l.steps[3]);
    REQUIRE(eval.r.stats_from_running);
    for (std::size_t i = 0; i < eval.x.data.size(); ++i)
        CHECK(eval.r.y.data[i] == Approx(eval.x.data[i] / std::sqrt(1.0 + 1e-5)).margin(1e-6));
    CHECK(std::abs(train.r.y.data[0] - eval.r.y.data[0]) > 0.1);  // "train mode gave a different value"
}

TEST_CASE("RMSNorm cost lesson: both forwards timed on the same tensor", "[classroom][lesson-numbers]") {
    const classroom::Lesson& l = lesson("rmsnorm-cost");
    const Ran ln = run(l.steps[0]), rms = run(l.steps[1]);
    CHECK(ln.x.shape == rms.x.shape);
    CHECK(ln.x.data == rms.x.data);
    CHECK(ln.r.layout.method == core::Method::Layer);
    CHECK(rms.r.layout.method == core::Method::Rms);
    for (const Ran* r : {&ln, &rms}) {
        CHECK(r->r.gpu_ms >= 0.0);
        CHECK(r->r.dispatch_ms > 0.0);
        const std::string text = classroom::render_lesson_text("{gpu_ms:.3f} {dispatch_ms:.2f}", r->x, r->r);
        CHECK(text.find('?') == std::string::npos);
    }
}
