// A view's "train" object (docs/scene-format.md#train): runs as normlab-cli train's option names over a
// base, parsed by engine/train's one parser and validated whole; refusals are one line naming the run and
// the key; a saved view reads back to the same runs; a lesson step's run[i] must name one of its runs.
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/classroom/view_settings.hpp"
#include "normlab/core/error.hpp"
#include "normlab/train/train_options.hpp"
#include "normlab/train/train_sweep.hpp"

#include <catch2/catch.hpp>

using namespace normlab;

namespace {

std::string refusal(const std::string& view) {
    try {
        classroom::parse_view(view, "s.json");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

const char* kTwoRuns = R"({"train": {"base": {"model": "mlp", "data": "circles", "depth": 2, "width": 32,
    "steps": 300, "lr": 0.1, "activation": "sigmoid"}, "runs": [{"norm": "none"}, {"norm": "batch", "lr": "0.5"}],
    "play": true}})";

}  // namespace

TEST_CASE("train scene: runs over a base, the CLI's names and defaults", "[scene][train]") {
    const classroom::ViewSettings v = classroom::parse_view(kTwoRuns, "s.json");
    REQUIRE(v.train);
    REQUIRE(v.train->runs.size() == 2);
    CHECK(v.train->play);
    train::TrainConfig want;
    want.data = "circles";
    want.width = 32;
    want.steps = 300;
    want.lr = 0.1;
    want.activation = train::TrainActivation::Sigmoid;
    CHECK(v.train->runs[0] == want);
    want.norm = train::TrainNorm::Batch;
    want.lr = 0.5;
    CHECK(v.train->runs[1] == want);
    // Written back and read again: the same runs; only run 2's differences are in its object.
    const std::string saved = classroom::view_to_json(v);
    CHECK(classroom::parse_view(saved, "s.json") == v);
    CHECK(saved.find(R"("runs":[{},{"lr":"0.5","norm":"batch"}])") != std::string::npos);
    // Every field written: a config with no default left reads back equal.
    train::TrainConfig all;
    all.model = train::TrainModel::Cnn;
    all.data = "textures";
    all.channels = 8, all.depth = 3, all.groups = 2, all.norm = train::TrainNorm::Group, all.norm_after = true;
    all.classes = 5, all.samples = 200, all.noise = 0.3, all.data_seed = 7, all.batch = 4, all.steps = 9;
    all.lr = 1.0 / 3.0, all.optimizer = train::TrainOptimizer::Adam, all.momentum = 0.5, all.seed = 11;
    all.activation = train::TrainActivation::Tanh;
    classroom::ViewSettings w;
    w.train = classroom::TrainScene{{all}, false};
    CHECK(classroom::parse_view(classroom::view_to_json(w), "s.json") == w);
}

TEST_CASE("train scene: refusals name the run and the key, one line", "[scene][train]") {
    const auto has = [](const std::string& s, const std::string& part) {
        INFO(s);
        return s.find(part) != std::string::npos && s.find('\n') == std::string::npos;
    };
    CHECK(has(refusal(R"({"train": {"runs": [{"norm": "bath"}]}})"),
              "s.json: view.train.runs[1].norm: unknown norm 'bath' (expected one of none, batch"));
    CHECK(has(refusal(R"({"train": {"runs": [{}, {"norm": "instance"}]}})"),
              "s.json: view.train.runs[2]: --norm instance needs --model cnn"));
    CHECK(has(refusal(R"({"train": {"base": {"steps": 2.5}, "runs": [{}]}})"),
              "view.train.base.steps: '2.5' is not an integer"));
    CHECK(has(refusal(R"({"train": {"runs": [{"batch": 2}, {"batch": 32}]}})"),
              "s.json: view.train.runs[2]: the runs shown together share the model, data"));
    CHECK(has(refusal(R"({"train": {"runs": [{"colour": "red"}]}})"),
              "view.train.runs[1].colour: unknown training option 'colour'"));
    CHECK(has(refusal(R"({"train": {"runs": [{"channels": 8}]}})"),
              "view.train.runs[1].channels: channels is the cnn's"));
    CHECK(has(refusal(R"({"train": {"runs": []}})"), "view.train.runs"));
    CHECK(has(refusal(R"({"train": {"runs": [{}, {}, {}, {}, {}]}})"), "view.train.runs"));
    CHECK(has(refusal(R"({"train": {"runs": [{}], "speed": 2}})"), "speed"));
    CHECK(has(refusal(R"({"train": {"runs": [{"lr": true}]}})"), "view.train.runs[1].lr must be a string or a number"));
    CHECK(has(refusal(R"({"train": {"runs": [{"lr": 0}]}})"), "--lr must be positive"));
}

TEST_CASE("train scene: the sweep's keys go through the same parser", "[train]") {
    train::TrainConfig a, b;
    train::apply_sweep_value(a, "placement", "after");
    train::apply_train_option(b, "norm-placement", "after");
    CHECK(a == b);
    CHECK(a.norm_after);
    for (const auto& [k, v] : train::train_options(train::TrainConfig{})) {
        train::TrainConfig c;
        train::apply_train_option(c, k, v);
        CHECK(c == train::TrainConfig{});
    }
}

TEST_CASE("train scene: a lesson step's run placeholders must name its runs", "[lesson][train]") {
    const std::string lesson = R"({"normlab_lesson": 1, "id": "t", "title": "T", "steps": [
        {"text": "{run[0].val_acc:.1%} {run[1].steps}",
         "state": {"view": {"heatmap": "stats", "train": {"runs": [{}]}}}}]})";
    try {
        classroom::lesson_from_json(lesson, "l.json");
        FAIL("accepted");
    } catch (const core::InputError& e) {
        CHECK(std::string(e.what()) == "l.json: step 1: run[1] names a run its view.train does not have (it has 1)");
    }
    CHECK_THROWS_AS(classroom::lesson_from_json(R"({"normlab_lesson": 1, "id": "t", "title": "T", "steps": [
        {"text": "{run[0].loss}", "state": {"view": {"train": {"runs": [{}]}}}}]})",
                                                "l.json"),
                    core::InputError);
    CHECK_THROWS_AS(classroom::lesson_from_json(R"({"normlab_lesson": 1, "id": "t", "title": "T", "steps": [
        {"text": "{run[0].steps:.1f}", "state": {"view": {"train": {"runs": [{}]}}}}]})",
                                                "l.json"),
                    core::InputError);
    // run[i,l]: a layer's fields only, l from 1, at most two indices.
    for (const char* bad : {"{run[0,1].val_acc}", "{run[0].std_first}", "{run[0,0].std_last}", "{run[0,1,2].std_last}"})
        CHECK_THROWS_AS(classroom::parse_placeholders(bad), core::InputError);
    CHECK(classroom::parse_placeholders("{run[0,5].std_last:.3f}").at(0).index == std::vector<std::int64_t>{0, 5});
    const classroom::Lesson ok =
        classroom::lesson_from_json(R"({"normlab_lesson": 1, "id": "t", "title": "T", "steps": [
        {"text": "{run[0].val_acc:.1%}", "state": {"view": {"train": {"runs": [{}]}}}}]})",
                                    "l.json");
    REQUIRE(ok.steps[0].view.train);
}
