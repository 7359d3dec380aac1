// Every number a training lesson or experiment states from its sweep (a view.train.sweep whose text reads
// it: {sweep[0].val_err:.1%}, lesson_text.hpp), label train. Each such sweep is opened as a lesson step opens
// it (TrainView::open_sweep on a TrainRunSet of the step's runs: the Sweep tab shown, the sweep started) and
// played to its end as the app's view plays it (TrainSweep::tick between frames, on the Vulkan TrainRunner);
// `normlab-cli train --sweep` runs the same grid, and the text rendered in English and Chinese from its CSV
// must be the same, character for character, with no "…" (each run's accuracies equal, its losses within
// 1e-5 relative). Each claim the text makes is asserted from the results below, so a change that breaks
// one fails; a text with a sweep and no claims here fails too. The placeholders' syntax, their "…" and
// their load-time errors are checked at the end.
#include "cli/cli_support.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/train/train_options.hpp"
#include "../support.hpp"
#include "normlab/views/train_sweep.hpp"
#include "normlab/views/train_view.hpp"
#include "train/view_factory.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <future>
#include <map>
#include <sstream>
#include <thread>

using namespace normlab;
using namespace normlab::views;
using namespace normlab::test;

namespace {

double sweep_value(const classroom::LessonSweep& s, int i, const std::string& field) {
    classroom::LessonPlaceholder p;
    p.name = "sweep";
    p.index = {i};
    p.field = field;
    double v = 0;
    REQUIRE(classroom::sweep_placeholder_value(p, s, v));
    return v;
}

// What each text that reads a sweep claims (by lesson or experiment id; step 0-based), from its results.
using SweepClaims = std::function<void(int step, const classroom::LessonSweep&)>;
const std::map<std::string, SweepClaims>& sweep_claims() {
    static const std::map<std::string, SweepClaims> all{
        {"train-small-batch-bn-gn",
         [](int, const classroom::LessonSweep& s) {
             REQUIRE(s.results.size() == 10);  // "ten runs": BatchNorm at batch 2 … 32 (0-4), then GroupNorm (5-9)
             const auto err = [&](int i) { return sweep_value(s, i, "val_err"); };
             for (const auto& r : s.results)  // "the 128 validation points": each accuracy a count of 128
                 CHECK(std::abs(r.val_acc * 128 - std::round(r.val_acc * 128)) < 1e-3);
             for (int i = 0; i < 3; ++i) CHECK(err(i + 1) < err(i));  // "BatchNorm's error falls from 2 … to 16"
             for (int i = 5; i < 10; ++i) {                           // "GroupNorm's stays between 16's and 2's"
                 CHECK(err(i) >= err(8));
                 CHECK(err(i) <= err(5));
             }
             for (int b = 0; b < 3; ++b) CHECK(err(5 + b) < err(b));  // "GroupNorm is ahead at batch 2, 4 and 8"
             for (int b = 3; b < 5; ++b) {  // "at 16 and 32 BatchNorm is ahead … by fewer than 4 of the 128"
                 CHECK(err(b) < err(5 + b));
                 CHECK((err(5 + b) - err(b)) * 128 < 4 - 1e-3);
             }
         }},
        // The experiment states the lesson's sweep's numbers.
        {"train-sweep-batch-bn-gn",
         [](int, const classroom::LessonSweep& s) { sweep_claims().at("train-small-batch-bn-gn")(2, s); }},
    };
    return all;
}

// The sweep of `t` opened as a lesson step opens it (TrainView::open_sweep: the Sweep tab shown, the sweep
// started) and played to its end between 2-ms "frames" (TrainSweep::tick), read as the step's text reads it.
classroom::LessonSweep view_sweep(const classroom::TrainScene& t) {
    TrainRunSet runs(vulkan_factory());
    REQUIRE(!runs.show(t));
    TrainView view;
    TrainSweep sweep;
    const auto err = view.open_sweep(*t.sweep, runs, sweep);
    INFO((err ? *err : std::string()));
    REQUIRE(!err);
    REQUIRE(sweep.running());
    CHECK(sweep.lesson_sweep(t).results.empty());  // "…" until it finishes
    while (sweep.tick()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(sweep.state() == TrainSweep::State::Done);
    CHECK(view.scene_sweep(runs, sweep) == t.sweep);  // the Sweep tab shown, its sweep the scene's
    classroom::TrainScene other = t;                  // another sweep's text reads none of it
    other.sweep->axes.back().values.pop_back();
    CHECK(sweep.lesson_sweep(other).results.empty());
    return sweep.lesson_sweep(t);
}

// `normlab-cli train --sweep`'s arguments for the same grid, its summary CSV written to `csv`.
std::string cli_sweep_args(const classroom::TrainScene& t, const fs::path& csv) {
    const train::TrainConfig base = train::sweep_base(t.runs.at(static_cast<std::size_t>(t.sweep->run - 1)));
    std::string args = "train -q --eval-every 10";
    for (const auto& [k, v] : train::train_options(base)) args += " --" + k + " " + v;
    for (const auto& axis : t.sweep->axes) {
        args += " --sweep " + axis.key + "=";
        for (const auto& v : axis.values) args += v + (&v == &axis.values.back() ? "" : ",");
    }
    return args + " --sweep-csv '" + csv.string() + "'";
}

// That run's summary CSV read back.
classroom::LessonSweep read_cli_sweep(const classroom::TrainScene& t, const Run& r, const fs::path& csv,
                                      const std::string& args) {
    INFO(args << "\n" << r.err);
    REQUIRE(r.status == 0);
    classroom::LessonSweep out;
    std::istringstream in(slurp(csv));
    std::string line;
    std::getline(in, line);  // the header: the keys, then train_loss,train_acc,val_loss,val_acc,steps_per_s
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream l(line);
        for (std::string cell; std::getline(l, cell, ',');) cells.push_back(cell);
        REQUIRE(cells.size() == t.sweep->axes.size() + 5);
        const std::size_t k = t.sweep->axes.size();
        out.results.push_back(
            {std::stof(cells[k]), std::stof(cells[k + 1]), std::stof(cells[k + 2]), std::stof(cells[k + 3]), 0.0});
    }
    out.runs = out.results.size();
    return out;
}

// The sweep of each Train view played so far, by the view and by the CLI (a step and an experiment with the
// same sweep run it once); the final numbers compared.
struct PlayedSweeps {
    std::vector<std::pair<classroom::TrainScene, std::pair<classroom::LessonSweep, classroom::LessonSweep>>> all;

    const std::pair<classroom::LessonSweep, classroom::LessonSweep>& get(const classroom::TrainScene& t) {
        for (const auto& [scene, sweeps] : all)
            if (scene == t) return sweeps;
        REQUIRE(t.sweep);
        const fs::path csv = tmpdir() / "lesson-sweep.csv";
        const std::string args = cli_sweep_args(t, csv);
        // The CLI's sweep runs while the view's plays (each mostly waits for its own device).
        auto cli_sweep = std::async(std::launch::async, [&args] { return cli(args); });
        const classroom::LessonSweep view = view_sweep(t);
        const classroom::LessonSweep from_cli = read_cli_sweep(t, cli_sweep.get(), csv, args);
        REQUIRE(view.runs == classroom::sweep_run_count(t));
        REQUIRE(from_cli.results.size() == view.results.size());
        for (std::size_t i = 0; i < view.results.size(); ++i) {
            INFO("sweep run " << i);
            const train::SweepResult &v = view.results[i], &c = from_cli.results[i];
            CHECK(v.val_acc == c.val_acc);
            CHECK(v.train_acc == c.train_acc);
            CHECK(std::abs(v.val_loss - c.val_loss) <= 1e-5 * std::abs(c.val_loss) + 1e-7);
            CHECK(std::abs(v.train_loss - c.train_loss) <= 1e-5 * std::abs(c.train_loss) + 1e-7);
        }
        all.emplace_back(t, std::pair{view, from_cli});
        return all.back().second;
    }
};

// Every text rendered from the view's sweep: no "…" left, and the same as from the CLI's; the claims of
// `id`'s step `step` asserted.
void check_sweep(const std::vector<const std::string*>& texts, PlayedSweeps& sweeps, const classroom::TrainScene& t,
                 const std::string& id, int step) {
    const auto& [view, from_cli] = sweeps.get(t);
    const core::Tensor x(core::Shape4{1, 1, 1, 1});
    const core::NormResult none;
    for (const std::string* text : texts) {
        const std::string shown = classroom::render_lesson_text(*text, x, none, {}, view);
        INFO(shown);
        CHECK(shown.find("\u2026") == std::string::npos);
        CHECK(!classroom::sweep_pending(*text, view));
        CHECK(shown == classroom::render_lesson_text(*text, x, none, {}, from_cli));
        if (std::getenv("NORMLAB_PRINT_LESSONS")) std::printf("%s\n", shown.c_str());
    }
    const auto claim = sweep_claims().find(id);
    INFO("a text's sweep claims must be asserted in this test's sweep_claims()");
    REQUIRE(claim != sweep_claims().end());
    claim->second(step, view);
}

// Whether one of `texts` names a sweep's run.
bool names_sweep(const std::vector<const std::string*>& texts) {
    for (const std::string* t : texts)
        for (const auto& p : classroom::parse_placeholders(*t))
            if (p.name == "sweep") return true;
    return false;
}

}  // namespace

TEST_CASE(
    "train lessons and experiments: every number from the Sweep tab's sweep, equal to the CLI's, and every "
    "claim",
    "[train]") {
    const classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    REQUIRE(set.errors.empty());
    PlayedSweeps sweeps;
    int checked = 0;
    for (const classroom::Lesson& l : set.lessons)
        for (std::size_t k = 0; k < l.steps.size(); ++k) {
            const classroom::LessonStep& s = l.steps[k];
            const std::vector<const std::string*> texts{&s.text.en, &s.text.zh, &s.title.en, &s.title.zh};
            if (!names_sweep(texts)) continue;
            INFO("lesson " << l.id << ", step " << k + 1);
            REQUIRE(s.view.train);
            check_sweep(texts, sweeps, *s.view.train, l.id, static_cast<int>(k));
            ++checked;
        }
    for (const classroom::Experiment& e : classroom::experiments()) {
        const std::vector<const std::string*> texts{&e.title.en, &e.title.zh, &e.explanation.en, &e.explanation.zh};
        if (!names_sweep(texts)) continue;
        INFO("experiment " << e.id);
        REQUIRE(e.view.train);
        check_sweep(texts, sweeps, *e.view.train, e.id, 0);
        ++checked;
    }
    CHECK(checked >= 2);
    CHECK(sweeps.all.size() == 1);  // the lesson step's and the experiment's sweep are one: run once
}

TEST_CASE("train lessons: a sweep's numbers show … until every run finished, and bad ones are refused", "[train]") {
    const core::Tensor x(core::Shape4{1, 1, 1, 1});
    const core::NormResult none;
    classroom::LessonSweep s{3, {{0.5f, 0.75f, 0.25f, 0.875f, 10.0}, {0.125f, 1.0f, 0.0625f, 0.5f, 10.0}}};
    const std::string text = "{sweep[1].val_err:.1%} and {sweep[0].val_acc:.2f}";
    CHECK(classroom::render_lesson_text(text, x, none, {}, s) == "\u2026 and \u2026");  // 2 of 3 runs
    CHECK(classroom::sweep_pending(text, s));
    CHECK(!classroom::sweep_pending("{run[0].val_acc}", s));
    s.results.push_back({0.25f, 0.5f, 0.5f, 0.25f, 10.0});
    CHECK(classroom::render_lesson_text(text, x, none, {}, s) == "50.0% and 0.88");
    CHECK(!classroom::sweep_pending(text, s));
    CHECK(classroom::render_lesson_text("{sweep[2].train_loss:.3f} {sweep[2].train_acc:.1f} {sweep[1].val_loss:.4f}", x,
                                        none, {}, s) == "0.250 0.5 0.0625");
    CHECK(classroom::render_lesson_text(text, x, none, {}, {}) == "\u2026 and \u2026");  // no sweep held
    const auto error = [](const std::string& t, std::size_t runs, std::size_t sweep_runs) -> std::string {
        try {
            classroom::check_run_placeholders(t, runs, sweep_runs, "l.json: step 3");
        } catch (const core::InputError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(error("{sweep[9].val_err:.1%}", 2, 10).empty());
    CHECK(error("{sweep[10].val_err:.1%}", 2, 10) ==
          "l.json: step 3: sweep[10] names a run its view.train.sweep does not have (its grid has 10)");
    CHECK(error("{sweep[0].val_acc}", 2, 0) ==
          "l.json: step 3: sweep[0] names a run of a sweep, and its view.train has no sweep");
    CHECK(error("{sweep[0].steps}", 2, 10) ==
          "placeholder {sweep[0].steps}: unknown sweep[i] field 'steps' (train_loss, train_acc, val_loss, val_acc, "
          "val_err)");
    CHECK(error("{sweep[0]}", 2, 10).starts_with("placeholder {sweep[0]}: sweep[i] takes a field"));
    CHECK(error("{sweep.val_acc}", 2, 10) == "placeholder {sweep.val_acc}: 'sweep' takes 1 index(es), not 0");
    CHECK(error("{sweep[0].val_acc:.1g}", 2, 10) ==
          "placeholder {sweep[0].val_acc:.1g}: the format must be :.Df or :.D% with D from 0 to 6");
}
