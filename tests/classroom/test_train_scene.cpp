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

// The Group Normalization paper's figure in miniature: BatchNorm and GroupNorm over batch sizes.
const char* kSweep = R"({"train": {"base": {"width": 8, "steps": 30}, "runs": [{"norm": "batch"}, {"norm": "layer"}],
    "sweep": {"norm": ["group", "batch"], "batch": [2, 4, 8, 16, 32], "lr": [0.1, "0.05"], "run": 2, "start": true}}})";

TEST_CASE("train scene: a sweep is the Sweep tab's fields over a run, read and written back", "[scene][train]") {
    const classroom::ViewSettings v = classroom::parse_view(kSweep, "s.json");
    REQUIRE(v.train);
    REQUIRE(v.train->sweep);
    const classroom::SceneSweep& s = *v.train->sweep;
    // The view's order (norm, batch, lr; the norms as its checkboxes list them), as Start sweep makes them.
    CHECK(s.axes == train::sweep_axes({"batch", "group"}, "2,4,8,16,32", "0.1,0.05"));
    CHECK(s.run == 2);
    CHECK(s.start);
    // The grid is the one normlab-cli train --sweep runs over run 2 (GroupNorm's G from the width).
    const auto grid = train::sweep_grid(train::sweep_base(v.train->runs[1]), s.axes);
    CHECK(grid.size() == 20u);
    CHECK(grid[10].config.norm == train::TrainNorm::Group);
    CHECK(grid[10].config.groups == 4);
    // Saved and read again: the same scene; numbers stay numbers, a text that is not JSON's number stays text.
    const std::string saved = classroom::view_to_json(v);
    CHECK(classroom::parse_view(saved, "s.json") == v);
    CHECK(saved.find(R"("sweep":{"batch":[2,4,8,16,32],"lr":[0.1,0.05],"norm":["batch","group"],"run":2,)"
                     R"("start":true})") != std::string::npos);
    classroom::ViewSettings w = v;
    w.train->sweep = classroom::SceneSweep{train::sweep_axes({}, "4", "1e-1,0.10"), 1, false};
    const std::string text = classroom::view_to_json(w);
    CHECK(text.find(R"("lr":["1e-1","0.10"])") != std::string::npos);
    CHECK(classroom::parse_view(text, "s.json") == w);
    // A train object without a sweep writes none (the scenes saved before stay as they were).
    w.train->sweep.reset();
    CHECK(classroom::view_to_json(w).find("sweep") == std::string::npos);
}

TEST_CASE("train scene: a bad sweep is refused in one line naming its key", "[scene][train]") {
    const auto sweep = [](const std::string& keys) {
        return refusal(R"({"train": {"base": {"width": 8}, "runs": [{}, {"norm": "group", "groups": 2}], "sweep": )" +
                       keys + "}}");
    };
    const auto is = [](const std::string& got, const std::string& want) {
        if (got != want) WARN(got);
        return got == want;
    };
    CHECK(is(sweep(R"({"norm": ["bath"]})"),
             "s.json: view.train.sweep.norm: --sweep unknown norm 'bath' (expected "
             "one of none, batch, layer, instance, group, rms)"));
    CHECK(is(sweep(R"({"norm": ["batch", "batch"]})"),
             "s.json: view.train.sweep.norm: --sweep norm repeats the value 'batch'"));
    CHECK(is(sweep(R"({"batch": [4, "x"]})"), "s.json: view.train.sweep.batch: --sweep batch: 'x' is not an integer"));
    CHECK(is(sweep(R"({"batch": [4, ""]})"), "s.json: view.train.sweep.batch: --sweep batch has an empty value"));
    CHECK(is(sweep(R"({"batch": ["4,8"]})"),
             "s.json: view.train.sweep.batch[1] = '4,8' holds a ',' or a space; one value per element"));
    CHECK(is(sweep(R"({"lr": [0.1, true]})"), "s.json: view.train.sweep.lr[2] must be a string or a number"));
    CHECK(is(sweep(R"({"lr": [0]})"), "s.json: view.train.sweep.lr: sweep run lr=0: --lr must be positive"));
    CHECK(is(sweep(R"({"lr": []})"), "s.json: view.train.sweep.lr must be a non-empty list"));
    CHECK(is(sweep(R"({"lr": 0.1})"), "s.json: view.train.sweep.lr must be a non-empty list"));
    CHECK(is(sweep(R"({"width": [8, 16]})"),
             "s.json: unknown view.train.sweep key 'width' (norm, batch, lr, run or start)"));
    CHECK(is(sweep(R"({"start": true})"),
             "s.json: view.train.sweep: a sweep needs a norm checked, batch sizes or learning rates"));
    CHECK(is(sweep(R"({"batch": [8], "run": 3})"), "s.json: view.train.sweep.run = 3 is out of range [1, 2]"));
    CHECK(is(sweep(R"({"batch": [8], "start": "yes"})"), "s.json: view.train.sweep.start must be true or false"));
    CHECK(is(sweep("[1]"), "s.json: view.train.sweep must be an object"));
    // The grid as a whole, as the CLI refuses it: BatchNorm with one sample per batch, too many runs, a list
    // longer than the Sweep tab's field, instance on the mlp.
    CHECK(is(sweep(R"({"norm": ["none", "batch"], "batch": [1, 4]})"),
             "s.json: view.train.sweep: sweep run norm=batch, batch=1: Expected more than 1 value per channel "
             "when training (--batch 1 with --norm batch)"));
    CHECK(is(sweep(R"({"batch": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],)"
                   R"( "lr": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]})"),
             "s.json: view.train.sweep: the sweep has more than 256 runs"));
    CHECK(is(
        sweep(R"({"batch": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]})"),
        "s.json: view.train.sweep.batch: --sweep batch is longer than the Sweep tab's 63 characters"));
    CHECK(is(sweep(R"({"norm": ["instance"]})"),
             "s.json: view.train.sweep.norm: sweep run norm=instance: --norm instance needs --model cnn "
             "(InstanceNorm2d has no 2-D-point form)"));
    // Over run 2 (GroupNorm, G = 2 given): a width of 8 keeps G; run 1's base takes G = 4 from the width.
    CHECK(sweep(R"({"norm": ["group"], "run": 2})").empty());
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
