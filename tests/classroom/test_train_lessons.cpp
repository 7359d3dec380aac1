// Every number a training lesson states (a step whose view.train gives the Train view's runs and whose
// text reads them: {run[1].val_acc:.1%}, lesson_text.hpp), label train. Each such step's runs are made
// headless through the product's path — TrainRunSet::show on the Vulkan TrainRunner, played in slices
// between "frames" as the app's Train view plays them — and rendered in English and Chinese with no "…"
// left; every run is run again by `normlab-cli train` with the same options, and the text rendered from
// the CLI's --log must be the same, character for character (each step's batch loss within 1e-5
// relative, the accuracies exactly). Each claim a lesson's text makes is asserted below from the runs'
// numbers, so a change to the engine, the data or the lesson that breaks a claim fails; a training
// lesson without its claims here fails too.
#include "cli/cli_support.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_options.hpp"
#include "../support.hpp"
#include "normlab/views/train_runs.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

using namespace normlab;
using namespace normlab::views;
using namespace normlab::test;

namespace {

TrainDeviceFactory vulkan_factory() {
    return [](train::TrainProgram p, int per_submit) -> std::unique_ptr<train::TrainDevice> {
        return std::make_unique<ops::TrainRunner>(normlab::test::context(), std::move(p), per_submit);
    };
}

// The runs of `t` played to their end in slices between 2-ms "frames", as the app plays them.
std::vector<classroom::LessonRun> view_runs(const classroom::TrainScene& t) {
    TrainRunSet set(vulkan_factory());
    const auto err = set.show(t);
    INFO((err ? *err : std::string()));
    REQUIRE(!err);
    REQUIRE(set.playing());
    REQUIRE(set.holds(t));
    while (!set.done()) {
        set.tick();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    set.finish();
    return set.lesson_runs();
}

// `normlab-cli train` of c, its --log read back as a LessonRun.
classroom::LessonRun cli_run(const train::TrainConfig& c) {
    std::string args = "train -q --eval-every 10";
    for (const auto& [k, v] : train::train_options(c)) args += " --" + k + " " + v;
    const fs::path log = tmpdir() / "lesson-run.csv";
    const Run r = cli(args + " --log '" + log.string() + "'");
    INFO(args << "\n" << r.err);
    REQUIRE(r.status == 0);
    classroom::LessonRun run;
    run.steps = c.steps;
    std::istringstream in(slurp(log));
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream l(line);
        for (std::string cell; std::getline(l, cell, ',');) cells.push_back(cell);
        REQUIRE(cells.size() >= 3);
        run.loss.push_back(std::stof(cells[1]));
        run.acc.push_back(std::stof(cells[2]));
        if (cells.size() == 5 && !cells[3].empty()) {
            run.val_loss.push_back(std::stof(cells[3]));
            run.val_acc.push_back(std::stof(cells[4]));
        }
    }
    run.steps_done = static_cast<int>(run.loss.size());
    return run;
}

double value(const std::vector<classroom::LessonRun>& runs, int i, const std::string& field) {
    classroom::LessonPlaceholder p;
    p.name = "run";
    p.index = {i};
    p.field = field;
    double v = 0;
    REQUIRE(classroom::run_placeholder_value(p, runs, v));
    return v;
}

// What each training lesson's text claims, step by step (0-based), from its runs.
using Claims = std::function<void(int step, const std::vector<classroom::LessonRun>&)>;
const std::map<std::string, Claims>& claims() {
    static const std::map<std::string, Claims> all{
        {"train-bn-learning-rate",
         [](int step, const std::vector<classroom::LessonRun>& r) {
             const auto acc = [&](int i) { return value(r, i, "val_acc"); };
             if (step == 0) {
                 CHECK(acc(0) >= 0.9);  // "at lr 0.01 both learn"
                 CHECK(acc(1) >= 0.9);
                 CHECK(acc(2) <= 0.55);  // "at lr 1 … chance for two classes"
                 CHECK(acc(3) >= 0.85);  // "with BatchNorm the same lr reaches …"
                 CHECK(acc(3) - acc(2) >= 0.3);
             } else {
                 CHECK(acc(0) >= 0.9);  // "0.1 does not need BatchNorm … both reach over 90% by step 300"
                 CHECK(acc(1) >= 0.9);
             }
         }},
        {"train-small-batch-bn-gn",
         [](int step, const std::vector<classroom::LessonRun>& r) {
             static double bn2 = -1, gn2 = -1;
             const double bn = value(r, 0, "val_acc"), gn = value(r, 1, "val_acc");
             if (step == 0) {
                 CHECK(bn <= 0.55);  // "no better than chance for two classes"
                 CHECK(gn >= 0.85);
                 bn2 = bn, gn2 = gn;
             } else {
                 REQUIRE(bn2 >= 0);  // step 1 ran first
                 CHECK(bn >= 0.9);
                 CHECK(gn >= 0.9);
                 CHECK(std::abs(gn - gn2) < 0.10);  // "GroupNorm's accuracy moved by less than 10 points"
                 CHECK(bn - bn2 > 0.30);            // "and BatchNorm's by more than 30"
             }
         }},
        {"train-bn-train-eval-gap",
         [](int, const std::vector<classroom::LessonRun>& r) {
             CHECK(value(r, 0, "recent_acc") - value(r, 0, "val_acc") >= 0.2);  // the gap
             CHECK(value(r, 0, "val_acc") <= 0.55);                             // "chance for two classes"
             CHECK(value(r, 1, "recent_acc") >= 0.95);                          // GroupNorm: both modes alike
             CHECK(value(r, 1, "val_acc") >= 0.95);
         }},
        {"train-sigmoid-bn",
         [](int, const std::vector<classroom::LessonRun>& r) {
             CHECK(std::abs(value(r, 0, "val_loss") - std::log(2.0)) < 0.01);  // "next to ln 2"
             CHECK(value(r, 0, "val_acc") <= 0.55);                            // "it did not learn"
             CHECK(value(r, 1, "val_acc") >= 0.95);
             CHECK(value(r, 1, "val_loss") < 0.2);
         }},
    };
    return all;
}

bool names_runs(const classroom::LessonStep& s) {
    for (const std::string* t : {&s.text.en, &s.text.zh, &s.title.en, &s.title.zh})
        for (const auto& p : classroom::parse_placeholders(*t))
            if (p.name == "run") return true;
    return false;
}

}  // namespace

TEST_CASE("train lessons: every number from the Train view's runs, equal to the CLI's, and every claim", "[train]") {
    const classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    REQUIRE(set.errors.empty());
    const core::Tensor x(core::Shape4{1, 1, 1, 1});
    const core::NormResult none;
    int checked = 0;
    for (const classroom::Lesson& l : set.lessons) {
        for (std::size_t k = 0; k < l.steps.size(); ++k) {
            const classroom::LessonStep& s = l.steps[k];
            if (!names_runs(s)) continue;
            INFO("lesson " << l.id << ", step " << k + 1);
            REQUIRE(s.view.train);
            const auto view = view_runs(*s.view.train);
            std::vector<classroom::LessonRun> from_cli;
            for (const train::TrainConfig& c : s.view.train->runs) from_cli.push_back(cli_run(c));
            REQUIRE(view.size() == from_cli.size());
            for (std::size_t i = 0; i < view.size(); ++i) {
                INFO("run " << i);
                REQUIRE(view[i].loss.size() == from_cli[i].loss.size());
                for (std::size_t t = 0; t < view[i].loss.size(); ++t) {
                    CHECK(std::abs(view[i].loss[t] - from_cli[i].loss[t]) <=
                          1e-5 * std::abs(from_cli[i].loss[t]) + 1e-7);
                    CHECK(view[i].acc[t] == from_cli[i].acc[t]);
                }
                CHECK(view[i].val_acc == from_cli[i].val_acc);
            }
            for (const std::string* t : {&s.text.en, &s.text.zh, &s.title.en, &s.title.zh}) {
                const std::string shown = classroom::render_lesson_text(*t, x, none, view);
                INFO(shown);
                CHECK(shown.find("\u2026") == std::string::npos);
                CHECK(!classroom::runs_pending(*t, view));
                CHECK(shown == classroom::render_lesson_text(*t, x, none, from_cli));
                if (std::getenv("NORMLAB_PRINT_LESSONS")) std::printf("%s\n", shown.c_str());
            }
            const auto claim = claims().find(l.id);
            INFO("a training lesson's claims must be asserted in this test's claims()");
            REQUIRE(claim != claims().end());
            claim->second(static_cast<int>(k), view);
            ++checked;
        }
    }
    CHECK(checked >= 5);
}

TEST_CASE("train lessons: a run's numbers show … until it has run all its steps", "[train]") {
    const core::Tensor x(core::Shape4{1, 1, 1, 1});
    const core::NormResult none;
    classroom::LessonRun r{300, 120, std::vector<float>(120, 0.5f), std::vector<float>(120, 0.75f), {0.4f}, {0.8125f}};
    const std::string text = "{run[0].val_acc:.1%} after {run[0].steps} steps";
    CHECK(classroom::render_lesson_text(text, x, none, {r}) == "\u2026 after \u2026 steps");
    CHECK(classroom::runs_pending(text, {r}));
    r.steps_done = 300;
    r.loss.assign(300, 0.5f);
    r.acc.assign(300, 0.75f);
    CHECK(classroom::render_lesson_text(text, x, none, {r}) == "81.2% after 300 steps");
    CHECK(!classroom::runs_pending(text, {r}));
    CHECK(classroom::render_lesson_text("{run[0].recent_acc:.2f} {run[0].final_loss:.3f}", x, none, {r}) ==
          "0.75 0.500");
    CHECK(classroom::render_lesson_text("{run[1].val_loss:.2f}", x, none, {r}) == "\u2026");  // no such run
}
