// Every number a lesson states, checked on the GPU: each step of every shipped lesson is run
// through the shaders with the state the lesson gives it; in both languages every placeholder
// ({mean[1]:.2f}, normlab/classroom/lesson_text.hpp) must have a value, and every number the text states
// literally must be one of the engine's numbers for that step (x, y, μ, σ², unbiased σ², 1/σ,
// mean(x²), running statistics, counts) at the precision it is written with, rounded, unless the
// step lists it under "literals" (shapes, ε, momentum, section numbers). English and Chinese
// must state the same numbers. A step with SyncBN devices runs on them (SyncBatchNorm).
// The experiments' titles and explanations and the presets' sources and descriptions are held
// to the same rule, with their own "literals".
// Every lesson text also renders character for character the same from the shaders' result as
// from the float64 reference's (the timings, the device's own, aside).
// NORMLAB_PRINT_LESSONS=1 prints every rendered text (for a read-through).
#include <catch2/catch.hpp>

#include "../support.hpp"

#include "normlab/plan/adain.hpp"
#include "normlab/classroom/batch_sampler.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/ops/sync_bn.hpp"
#include "normlab/io/scene_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace normlab;

namespace {

// Every value the engine produced for this step.
std::vector<double> engine_values(const core::Tensor& x, const core::NormResult& r) {
    std::vector<double> v(x.data.begin(), x.data.end());
    v.insert(v.end(), r.y.data.begin(), r.y.data.end());
    for (const auto* s : {&r.mean, &r.var, &r.rstd, &r.mean_square, &r.running_mean, &r.running_var})
        v.insert(v.end(), s->begin(), s->end());
    for (std::size_t i = 0; i < r.var.size(); ++i) v.push_back(r.unbiased_var(i));
    v.push_back(static_cast<double>(r.layout.count()));
    v.push_back(static_cast<double>(r.layout.stat_count));
    return v;
}

// Whether `number` ("-1.10", "64") is some value rounded to the decimals it is written with.
bool stated_by_engine(const std::string& number, const std::vector<double>& values) {
    const auto dot = number.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(number.size() - dot - 1);
    for (double v : values) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
        std::string s = buf;
        if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // "-0.00"
        if (s == number) return true;
    }
    return false;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<std::string> placeholder_texts(const std::string& t) {
    std::vector<std::string> out;
    for (const auto& p : classroom::parse_placeholders(t)) out.push_back(t.substr(p.begin, p.end - p.begin));
    return out;
}

// Checks one text of one step; returns its literal numbers (for the English/Chinese comparison).
std::vector<std::string> check_text(const std::string& text, const std::vector<std::string>& literals,
                                    const core::Tensor& x, const core::NormResult& r,
                                    const std::vector<double>& values) {
    INFO("text: " << text);
    for (const auto& p : classroom::parse_placeholders(text)) {
        // A training run's or a sweep's: test_train_lessons.cpp, test_train_lesson_sweeps.cpp.
        if (p.name == "run" || p.name == "sweep") continue;
        double v = 0;
        INFO("placeholder " << text.substr(p.begin, p.end - p.begin));
        CHECK(classroom::placeholder_value(p, x, r, v));
    }
    const std::string rendered = classroom::render_lesson_text(text, x, r);
    if (std::getenv("NORMLAB_PRINT_LESSONS")) std::printf("%s\n", rendered.c_str());
    INFO("rendered: " << rendered);
    CHECK(classroom::parse_placeholders(rendered).empty());  // nothing left unrendered
    const auto numbers = classroom::literal_numbers(text, literals);
    for (const auto& n : numbers) {
        INFO("the number " << n << " is neither the engine's (rounded as written) nor listed under \"literals\"");
        CHECK(stated_by_engine(n, values));
    }
    return numbers;
}

// The step's normalization as the app runs it: with an AdaIN style image, the style's
// statistics from the shaders first (γ = σ_s, β = μ_s).
// The step's spec and parameters as the app runs them: with an AdaIN style image, γ = σ_s and
// β = μ_s of the style's statistics from the shaders.
std::pair<core::NormSpec, core::NormParams> step_config(const core::State& st) {
    core::NormSpec spec = st.spec;
    core::NormParams params = st.params;
    if (!st.style_image.empty()) {
        const core::Tensor style = io::load_image(st.style_image);
        const core::NormResult measured =
            test::normalizer().run(style, plan::style_run_spec(spec), {}, plan::kStyleRunOptions);
        plan::apply_style(plan::style_stats_of(measured, spec), spec, params);
    }
    return {spec, params};
}

core::NormResult run_step(const core::Tensor& x, const core::State& st) {
    const auto [spec, params] = step_config(st);
    return ops::SyncBatchNorm(test::normalizer()).run(x, spec, params);  // plain BatchNorm unless K devices
}

// The same step by the float64 reference: its statistics and y (as float, as the shaders write it).
core::NormResult reference_step(const core::Tensor& x, const core::State& st) {
    const auto [spec, params] = step_config(st);
    reference::ReferenceResult ref = spec.sync_devices > 0 ? reference::reference_sync(x, spec, params)
                                                           : reference::reference_normalize(x, spec, params);
    core::NormResult r = std::move(ref.stats);
    r.y.shape = x.shape;
    r.y.data.assign(ref.y.begin(), ref.y.end());
    if (r.sync) {  // SyncBN: y under each mode, from the reference of that mode
        for (const core::SyncMode m : {core::SyncMode::Sync, core::SyncMode::Local, core::SyncMode::Naive}) {
            core::NormSpec each = spec;
            each.sync_mode = m;
            const std::vector<double> y = reference::reference_sync(x, each, params).y;
            auto& out = m == core::SyncMode::Sync    ? r.sync->y_sync
                        : m == core::SyncMode::Local ? r.sync->y_local
                                                     : r.sync->y_naive;
            out.assign(y.begin(), y.end());
        }
    }
    return r;
}

}  // namespace

TEST_CASE("every number every lesson states is the engine's, in both languages", "[classroom][lesson]") {
    io::set_image_search_dir(std::string(NORMLAB_SOURCE_DIR) + "/assets");  // lessons name images/NAME.png
    const classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    for (const auto& e : set.errors) FAIL(e);
    REQUIRE(!set.lessons.empty());
    int steps = 0, placeholders = 0;
    for (const classroom::Lesson& l : set.lessons) {
        for (std::size_t k = 0; k < l.steps.size(); ++k) {
            const classroom::LessonStep& s = l.steps[k];
            INFO("lesson " << l.id << ", step " << k + 1);
            core::Tensor x = io::load_tensor(s.state.source);
            // A pair experiment's main side may normalize only the first samples (as the app does).
            if (const classroom::Experiment* e =
                    s.view.experiment.empty() ? nullptr : classroom::find_experiment(s.view.experiment))
                if (e->kind == classroom::ExperimentKind::Pair && e->left_samples > 0)
                    x = classroom::first_samples(x, e->left_samples);
            const core::NormResult r = run_step(x, s.state);
            const auto values = engine_values(x, r);
            std::vector<std::string> lit[2], ph[2];
            int i = 0;
            for (const core::Language lang : {core::Language::En, core::Language::Zh}) {
                for (const core::LocalText* t : {&s.title, &s.text}) {
                    const std::string& text = t->in(lang);
                    for (auto& n : check_text(text, s.literals, x, r, values)) lit[i].push_back(n);
                    for (auto& p : placeholder_texts(text)) ph[i].push_back(p);
                }
                ++i;
            }
            CHECK(sorted(lit[0]) == sorted(lit[1]));
            CHECK(sorted(ph[0]) == sorted(ph[1]));
            placeholders += static_cast<int>(ph[0].size());
            ++steps;
        }
        // The title and summary against the first step's numbers.
        const classroom::LessonStep& first = l.steps.front();
        const core::Tensor x = io::load_tensor(first.state.source);
        const core::NormResult r = run_step(x, first.state);
        std::vector<std::string> lit[2];
        int i = 0;
        for (const core::Language lang : {core::Language::En, core::Language::Zh}) {
            INFO("lesson " << l.id << ", title and summary");
            for (const core::LocalText* t : {&l.title, &l.summary})
                for (auto& n : check_text(t->in(lang), l.literals, x, r, engine_values(x, r))) lit[i].push_back(n);
            ++i;
        }
        CHECK(sorted(lit[0]) == sorted(lit[1]));
    }
    CHECK(steps >= 20);
    CHECK(placeholders >= 30);  // the statistics the lessons state are bound, not typed
}

TEST_CASE("lesson 04: eval after training uses the trained running statistics", "[classroom][lesson]") {
    const classroom::Lesson l =
        classroom::load_lesson(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons/04-bn-running-stats.json");
    REQUIRE(l.steps.size() >= 4);
    classroom::LessonMemory memory;
    // Steps 1 → 2 → 3, then 30 train steps as the app's train step makes them.
    core::State s = classroom::lesson_step_state(l, -1, 0, core::State{}, memory);
    s = classroom::lesson_step_state(l, 0, 1, s, memory);
    s = classroom::lesson_step_state(l, 1, 2, s, memory);
    REQUIRE(s.spec.mode == core::Mode::Train);
    const core::Tensor population = io::load_tensor(s.source);
    for (int step = 0; step < 30; ++step) {
        const core::NormResult r = test::normalizer().run(
            classroom::sample_like(population, 500 + static_cast<std::uint64_t>(step)), s.spec, s.params);
        REQUIRE(r.running_updated);
        s.params.running_mean.assign(r.running_mean.begin(), r.running_mean.end());
        s.params.running_var.assign(r.running_var.begin(), r.running_var.end());
        s.params.num_batches_tracked = r.num_batches_tracked;
    }
    const core::NormParams trained = s.params;
    CHECK(classroom::format_lesson_number(trained.running_mean[0], 1) == "1.6");  // step 4: "about 1.6 in channel 0"
    // Step 4 (eval) keeps them: its placeholders show them and the output is normalized.
    const core::State at4 = classroom::lesson_step_state(l, 2, 3, s, memory);
    REQUIRE(at4.spec.mode == core::Mode::Eval);
    CHECK(at4.params.running_mean == trained.running_mean);
    const core::NormResult ev = test::normalizer().run(population, at4.spec, at4.params);
    CHECK(ev.stats_from_running);
    const core::NormResult tr = test::normalizer().run(population, core::default_spec(core::Method::Batch));
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(ev.running_mean[c] == Approx(trained.running_mean[c]));
        CHECK(ev.running_mean[c] == Approx(tr.mean[c]).margin(0.3));  // moved towards the data
    }
    const std::string text = classroom::render_lesson_text(l.steps[3].text.en, population, ev);
    CHECK(text.find("running_mean = " + classroom::format_lesson_number(trained.running_mean[0], 2)) !=
          std::string::npos);
    double far = 0;  // eval output close to train output, unlike step 2's y ≈ x
    for (std::size_t i = 0; i < ev.y.data.size(); ++i)
        far = std::max(far, static_cast<double>(std::abs(ev.y.data[i] - tr.y.data[i])));
    CHECK(far < 0.6);
    // Back to step 2 ("eval too early") resets them; forward to 3 and 4 again starts from 0 and 1.
    const core::State at2 = classroom::lesson_step_state(l, 3, 1, at4, memory);
    CHECK(at2.params.running_mean.empty());
    const core::NormResult cold = test::normalizer().run(population, at2.spec, at2.params);
    CHECK(classroom::render_lesson_text("{rmean[0]:.0f} {rvar[0]:.0f}", population, cold) == "0 1");
}

// The same for the experiments' and presets' texts (issue 22): every number an experiment's
// title and explanation state is one of the engine's numbers for its state (a pair: for either
// side, as the app runs it) rounded as written, and every number a preset's source and
// description state is one of the engine's numbers for its tensor with the method and γ/β it
// is shown with, unless the file lists it under "literals"; English and Chinese state the same.
TEST_CASE("every number the experiments and presets state is the engine's, in both languages",
          "[classroom][experiment-numbers]") {
    int texts = 0;
    for (const classroom::Experiment& e : classroom::experiments()) {
        INFO("experiment " << e.id);
        core::Tensor x = io::load_tensor(e.state.source);
        if (e.kind == classroom::ExperimentKind::Pair && e.left_samples > 0)
            x = classroom::first_samples(x, e.left_samples);
        const core::NormResult r = run_step(x, e.state);
        auto values = engine_values(x, r);
        if (e.kind == classroom::ExperimentKind::Pair) {
            core::Tensor xr = io::load_tensor(e.right.source);
            if (e.right_channels_last) xr = classroom::to_channels_last(xr);
            const auto right = engine_values(xr, run_step(xr, e.right));
            values.insert(values.end(), right.begin(), right.end());
        }
        std::vector<std::string> lit[2];
        int i = 0;
        for (const core::Language lang : {core::Language::En, core::Language::Zh}) {
            for (const core::LocalText* t : {&e.title, &e.explanation}) {
                for (auto& n : check_text(t->in(lang), e.literals, x, r, values)) lit[i].push_back(n);
                ++texts;
            }
            ++i;
        }
        CHECK(sorted(lit[0]) == sorted(lit[1]));
    }
    for (const io::Preset& p : io::presets()) {
        INFO("preset " << p.name);
        const core::NormResult r = test::normalizer().run(p.x, p.spec, p.params);
        const auto values = engine_values(p.x, r);
        std::vector<std::string> lit[2];
        for (const std::string* t : {&p.source, &p.description})
            for (auto& n : check_text(*t, p.literals, p.x, r, values)) lit[0].push_back(n);
        for (const std::string* t : {&p.source_zh, &p.description_zh})
            for (auto& n : check_text(*t, p.literals, p.x, r, values)) lit[1].push_back(n);
        CHECK(sorted(lit[0]) == sorted(lit[1]));
        texts += 4;
    }
    CHECK(texts >= 4 * 15 + 4 * 17);
}

TEST_CASE("every lesson text renders the same from the shaders as from the float64 reference", "[classroom][lesson]") {
    io::set_image_search_dir(std::string(NORMLAB_SOURCE_DIR) + "/assets");
    const classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    for (const auto& e : set.errors) FAIL(e);
    int texts = 0;
    for (const classroom::Lesson& l : set.lessons)
        for (std::size_t k = 0; k < l.steps.size(); ++k) {
            const classroom::LessonStep& s = l.steps[k];
            core::Tensor x = io::load_tensor(s.state.source);
            if (const classroom::Experiment* e =
                    s.view.experiment.empty() ? nullptr : classroom::find_experiment(s.view.experiment))
                if (e->kind == classroom::ExperimentKind::Pair && e->left_samples > 0)
                    x = classroom::first_samples(x, e->left_samples);
            const core::NormResult gpu = run_step(x, s.state), ref = reference_step(x, s.state);
            for (const core::Language lang : {core::Language::En, core::Language::Zh}) {
                const std::string& text = s.text.in(lang);
                // Timings are the device's own: no reference has them.
                if (text.find("{gpu_ms") != std::string::npos || text.find("{dispatch_ms") != std::string::npos)
                    continue;
                INFO("lesson " << l.id << ", step " << k + 1);
                CHECK(classroom::render_lesson_text(text, x, gpu) == classroom::render_lesson_text(text, x, ref));
                ++texts;
            }
        }
    CHECK(texts >= 200);
}
