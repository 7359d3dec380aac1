// The experiments' numbers from the shaders: the seeds' worked examples, batch independence
// (difference exactly 0 except under BatchNorm), the GroupNorm continuum's identities, the
// misconception pairs and BatchNorm's running statistics converging over train steps.
// gradient-coupling: the support of one Jacobian row under BatchNorm (train) and LayerNorm.
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/ops/backward.hpp"
#include "normlab/classroom/batch_sampler.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/io/scene_file.hpp"

#include <cmath>

using namespace normlab;

namespace {

core::NormResult run(const core::Tensor& x, core::NormSpec spec, const core::NormParams& p = {}) {
    return test::normalizer().run(x, spec, p);
}

double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
    return m;
}

}  // namespace

TEST_CASE("seed examples as experiments give the textbook's numbers", "[classroom][seed]") {
    const classroom::Experiment& bn = *classroom::find_experiment("seed004-bn");
    core::NormResult r = run(io::load_tensor(bn.state.source), bn.state.spec, bn.state.params);
    CHECK(r.mean[0] == Approx(0.5).margin(1e-6));
    CHECK(r.var[0] == Approx(1.625).margin(1e-6));
    const float want[] = {0.592f, -0.192f, 0.788f, -0.388f};
    for (int i = 0; i < 4; ++i) CHECK(r.y.data[static_cast<std::size_t>(i)] == Approx(want[i]).margin(1e-3));

    const classroom::Experiment& in = *classroom::find_experiment("seed003-in-vs-ln");
    core::Tensor x = io::load_tensor(in.state.source);
    core::NormResult ri = run(x, core::default_spec(core::Method::Instance));
    CHECK(ri.mean[0] == Approx(2.5));
    CHECK(ri.mean[1] == Approx(6.5));
    CHECK(ri.var[0] == Approx(1.25));
    core::NormResult rl = run(x, core::default_spec(core::Method::Layer));
    CHECK(rl.mean[0] == Approx(4.5));
    CHECK(rl.var[0] == Approx(5.25));

    const classroom::Experiment& in4 = *classroom::find_experiment("seed004-in");
    core::NormResult r4 = run(io::load_tensor(in4.state.source), in4.state.spec);
    CHECK(r4.mean[0] == Approx(0.4).margin(1e-6));
    CHECK(r4.var[0] == Approx(0.075).margin(1e-6));
    CHECK(r4.y.data[0] == Approx(1.46).margin(5e-3));
    CHECK(r4.y.data[3] == Approx(-1.0954).margin(1e-3));
}

TEST_CASE("batch independence: appending a far-off sample changes only BatchNorm", "[classroom]") {
    const classroom::Experiment& e = *classroom::find_experiment("batch-independence");
    core::Tensor all = io::load_tensor(e.state.source);
    core::Tensor four = classroom::first_samples(all, e.left_samples);
    REQUIRE(all.shape.n == 5);
    for (core::Method m :
         {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 3;
        core::NormResult a = run(four, spec), b = run(all, spec);
        const double d = max_diff(a.y.data, classroom::first_samples(b.y, 4).data);
        INFO(core::method_name(m) << ": max |diff| = " << d);
        if (m == core::Method::Batch)
            CHECK(d > 0.5);
        else
            CHECK(d == 0.0);
    }
}

TEST_CASE("GroupNorm continuum: G = 1 has LayerNorm's statistics, G = C InstanceNorm's", "[classroom]") {
    core::Tensor x = io::load_tensor(classroom::find_experiment("gn-continuum")->state.source);
    core::NormSpec g = core::default_spec(core::Method::Group);
    g.groups = 1;
    core::NormResult g1 = run(x, g), ln = run(x, core::default_spec(core::Method::Layer));
    CHECK(max_diff(g1.mean, ln.mean) < 1e-6);
    CHECK(max_diff(g1.var, ln.var) < 1e-5);
    g.groups = x.shape.c;
    core::NormResult gc = run(x, g), in = run(x, core::default_spec(core::Method::Instance));
    CHECK(max_diff(gc.mean, in.mean) < 1e-6);
    CHECK(max_diff(gc.var, in.var) < 1e-5);
    g.groups = 2;
    CHECK(run(x, g).layout.count() == 4 * 9);
}

TEST_CASE("misconception pairs really differ, the identity pair does not", "[classroom]") {
    for (const char* id : {"misconception-layernorm-c", "misconception-groupnorm1", "groupnorm1-equals-layernorm"}) {
        const classroom::Experiment& e = *classroom::find_experiment(id);
        core::Tensor x = io::load_tensor(e.state.source);
        core::NormResult left = run(x, e.state.spec);
        core::Tensor xr = e.right_channels_last ? classroom::to_channels_last(x) : x;
        core::NormResult right = run(xr, e.right.spec);
        core::Tensor yr = e.right_channels_last ? classroom::from_channels_last(right.y) : right.y;
        const double d = max_diff(left.y.data, yr.data);
        INFO(id << ": max |diff| = " << d);
        if (std::string(id) == "groupnorm1-equals-layernorm")
            CHECK(d < 1e-5);
        else
            CHECK(d > 0.1);
    }
}

TEST_CASE("BatchNorm train steps move the running statistics towards the data's", "[classroom]") {
    const classroom::Experiment& e = *classroom::find_experiment("bn-train-eval");
    core::Tensor x = io::load_tensor(e.state.source);
    core::NormParams p;
    core::NormSpec spec = e.state.spec;
    for (int step = 0; step < 40; ++step) {
        core::NormResult r = run(classroom::sample_like(x, 1000 + static_cast<std::uint64_t>(step)), spec, p);
        REQUIRE(r.running_updated);
        p.running_mean.assign(r.running_mean.begin(), r.running_mean.end());
        p.running_var.assign(r.running_var.begin(), r.running_var.end());
        p.num_batches_tracked = r.num_batches_tracked;
    }
    CHECK(p.num_batches_tracked == 40);
    // Towards the data's own channel statistics (the batches are drawn from them).
    core::NormResult data = run(x, spec);
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(p.running_mean[c] == Approx(data.mean[c]).margin(0.2));
        CHECK(std::sqrt(p.running_var[c]) == Approx(std::sqrt(data.var[c])).margin(0.2));
    }
    // Eval with the converged statistics is close to train on the same batch.
    core::NormSpec eval = spec;
    eval.mode = core::Mode::Eval;
    core::NormResult tr = run(x, spec, p), ev = run(x, eval, p);
    CHECK(ev.stats_from_running);
    CHECK(max_diff(tr.y.data, ev.y.data) < 0.6);
    core::NormResult cold = run(x, eval, {});
    CHECK(max_diff(tr.y.data, cold.y.data) > 1.0);  // eval before training: running stats 0/1
}

TEST_CASE("gradient coupling: the Jacobian row's support is the statistic group, as the text says", "[classroom]") {
    const classroom::Experiment& e = *classroom::find_experiment("gradient-coupling");
    REQUIRE(e.kind == classroom::ExperimentKind::Pair);
    REQUIRE(e.view.gradient);
    REQUIRE(e.state.selection);
    const core::Index4 k = *e.state.selection;
    // One side: ∂y_k/∂x from the backward shaders; every non-zero entry must lie in the group
    // `in_group` names, and the count must be the one the explanation states (both languages).
    const auto check = [&](const core::State& st, auto in_group, std::int64_t want) {
        core::Tensor x = io::load_tensor(st.source);
        REQUIRE(x.shape.numel() == 192);
        core::Tensor dy(x.shape, 0.0f);
        dy.data[static_cast<std::size_t>(x.offset(k[0], k[1], k[2], k[3]))] = 1.0f;
        core::GradResult g = ops::run_backward(test::normalizer(), test::backward(), x, dy, st.spec, st.params);
        std::int64_t nonzero = 0, outside = 0;
        for (std::int64_t n = 0; n < x.shape.n; ++n)
            for (std::int64_t c = 0; c < x.shape.c; ++c)
                for (std::int64_t h = 0; h < x.shape.h; ++h)
                    for (std::int64_t w = 0; w < x.shape.w; ++w) {
                        const float v = g.dx.data[static_cast<std::size_t>(x.offset(n, c, h, w))];
                        REQUIRE(std::isfinite(v));
                        if (in_group(n, c))
                            nonzero += v != 0.0f;
                        else
                            outside += v != 0.0f;
                    }
        CHECK(outside == 0);
        CHECK(nonzero == want);
        for (const std::string& text : {e.explanation.en, e.explanation.zh}) {
            INFO(text);
            CHECK(text.find(std::to_string(nonzero)) != std::string::npos);
            CHECK(text.find(std::to_string(x.shape.numel())) != std::string::npos);
        }
    };
    REQUIRE(e.state.spec.method == core::Method::Batch);
    REQUIRE(e.state.spec.uses_batch_stats());
    REQUIRE(e.right.spec.method == core::Method::Layer);
    // BatchNorm (train): channel k[1] of every sample, N·H·W = 64; LayerNorm: sample k[0], C·H·W = 48.
    const auto channel_k = [&](std::int64_t, std::int64_t c) { return c == k[1]; };
    const auto sample_k = [&](std::int64_t n, std::int64_t) { return n == k[0]; };
    check(e.state, channel_k, 64);
    check(e.right, sample_k, 48);
}
