// Lesson files and view settings: the shipped lessons load, steps inherit state, and
// malformed lessons are refused as a whole with a message naming file, step and key; moving
// between steps keeps what the class did (γ/β, running statistics, selection) unless the step
// names it; lesson text placeholders parse, round and refuse typos.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/io/atomic_file.hpp"
#include "normlab/classroom/lesson.hpp"
#include "normlab/classroom/lesson_text.hpp"
#include "normlab/io/scene_file.hpp"

#include <algorithm>
#include <filesystem>

using namespace normlab;

namespace {
std::string error_of(const std::string& text) {
    try {
        classroom::lesson_from_json(text, "l.json");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}
const char* kGood = R"({"normlab_lesson": 1, "id": "t", "title": {"en": "T", "zh": "测"},
  "steps": [
    {"text": {"en": "a", "zh": "甲"}, "state": {"tensor": {"source": "preset", "preset": "classroom"},
       "norm": {"method": "group", "groups": 3}, "selection": [1, 2, 0, 0],
       "view": {"heatmap": "stats", "compare": true}}},
    {"text": {"en": "b"}, "state": {"selection": [0, 0, 0, 0]}},
    {"text": {"en": "c"}, "state": {"norm": {"method": "layer"}}}
  ]})";
}  // namespace

TEST_CASE("the shipped lessons all load, at least five, each in both languages", "[lesson]") {
    classroom::LessonSet set = classroom::load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
    for (const auto& e : set.errors) FAIL(e);
    REQUIRE(set.lessons.size() >= 5);
    std::vector<std::string> ids;
    for (const auto& l : set.lessons) {
        ids.push_back(l.id);
        CHECK(!l.title.zh.empty());
        for (const auto& s : l.steps) {
            CHECK(!s.text.en.empty());
            CHECK(!s.text.zh.empty());
        }
    }
    for (const char* want : {"bn-vs-ln", "in-vs-ln", "groupnorm-continuum", "bn-running-stats", "rms-vs-ln"})
        CHECK(std::find(ids.begin(), ids.end(), want) != ids.end());
}

TEST_CASE("lesson steps inherit the previous step's state", "[lesson]") {
    classroom::Lesson l = classroom::lesson_from_json(kGood, "l.json");
    REQUIRE(l.steps.size() == 3);
    CHECK(l.title.in(core::Language::Zh) == "测");
    CHECK(l.steps[1].text.in(core::Language::Zh) == "b");  // falls back to English
    CHECK(l.steps[0].state.spec.method == core::Method::Group);
    CHECK(l.steps[0].view.compare);
    CHECK(l.steps[1].state.spec.groups == 3);  // inherited
    CHECK(l.steps[1].state.selection == core::Index4{0, 0, 0, 0});
    CHECK(l.steps[1].view.compare);  // view inherited too
    CHECK(l.steps[2].state.spec.method == core::Method::Layer);
    CHECK(l.steps[2].state.selection == core::Index4{0, 0, 0, 0});  // a new method keeps the selection (an element)
    CHECK(l.steps[2].names_params);                                 // but not γ/β (other shapes)
    CHECK(!l.steps[2].names_selection);
    CHECK(l.steps[2].state.source.preset == "classroom");
}

TEST_CASE("malformed lessons are refused with a message naming the problem", "[lesson]") {
    CHECK(error_of("{").find("l.json: not valid JSON") == 0);
    CHECK(error_of("[]") == "l.json: a lesson must be a JSON object");
    CHECK(error_of(R"({"id": "x"})").find("not a normlab lesson") != std::string::npos);
    CHECK(error_of(R"({"normlab_lesson": 1, "title": "t", "steps": []})").find("id is missing") != std::string::npos);
    CHECK(error_of(R"({"normlab_lesson": 1, "id": "x", "title": "t", "steps": []})").find("non-empty list") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_lesson": 1, "id": "x", "title": "t", "steps": [{"text": "a"}]})")
              .find("step 1: the first step needs") != std::string::npos);
    const std::string base = R"({"normlab_lesson": 1, "id": "x", "title": "t", "steps": [{"text": "a", "state": )";
    CHECK(error_of(base + R"({"norm": {"method": "bogus"}}}]})").find("step 1") != std::string::npos);
    // Found by fuzz_lesson: a method that is not a string, or a norm that is not an object, in a
    // later step (the step compares it with the previous method) is an InputError, not a crash.
    const std::string two = base + R"({"norm": {"method": "batch"}}}, {"text": "b", "state": )";
    CHECK(error_of(two + R"({"norm": {"method": 5}}}]})").find("step 2") != std::string::npos);
    CHECK(error_of(two + R"({"norm": "layer"}}]})").find("step 2") != std::string::npos);
    CHECK(
        error_of(base + R"({"norm": [1]}}, {"text": "b", "state": {"norm": {"method": "layer"}}}]})").find("step 1") !=
        std::string::npos);
    CHECK(error_of(base + R"({"norm": {"method": "bogus"}}}]})").find("unknown method 'bogus'") != std::string::npos);
    CHECK(error_of(
              base +
              R"({"tensor": {"source": "preset", "preset": "classroom"}, "norm": {"method": "group", "groups": 4}}}]})")
              .find("divisible by num_groups") != std::string::npos);
    CHECK(error_of(base + R"({"tensor": {"source": "preset", "preset": "classroom"}, "selection": [9, 0, 0, 0]}}]})")
              .find("outside the tensor") != std::string::npos);
    CHECK(error_of(base + R"({"view": {"heatmap": "rainbow"}}}]})").find("view.heatmap = 'rainbow'") !=
          std::string::npos);
    CHECK(error_of(base + R"({"view": {"experiment": "nope"}}}]})").find("not a known experiment") !=
          std::string::npos);
    CHECK(error_of(base + R"({"colour": 1}}]})").find("unknown state key 'colour'") != std::string::npos);
    CHECK(error_of(R"({"normlab_lesson": 1, "id": "x", "title": {"fr": "t"}, "steps": []})")
              .find("unknown language 'fr'") != std::string::npos);
}

TEST_CASE("a folder with a malformed lesson still yields the good ones", "[lesson]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / "normlab-lessons-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    io::write_file_atomic((dir / "a.json").string(), kGood);
    io::write_file_atomic((dir / "b.json").string(), "{ not json");
    classroom::LessonSet set = classroom::load_lessons(dir.string());
    CHECK(set.lessons.size() == 1);
    REQUIRE(set.errors.size() == 1);
    CHECK(set.errors[0].find("b.json") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("view settings round trip and reject unknown keys", "[lesson][view]") {
    classroom::ViewSettings v;
    v.heatmap = "diff";
    v.colormap = "cividis";
    v.palette = "hues";
    v.compare = true;
    v.cube = true;
    v.experiment = "gn-continuum";
    CHECK(classroom::parse_view(classroom::view_to_json(v), "v") == v);
    CHECK(classroom::parse_view("", "v") == classroom::ViewSettings{});
    CHECK_THROWS_WITH(classroom::parse_view(R"({"zoom": 2})", "v"), Catch::Contains("unknown view key 'zoom'"));
    CHECK_THROWS_WITH(classroom::parse_view(R"({"compare": "yes"})", "v"),
                      Catch::Contains("view.compare must be true or false"));
}

TEST_CASE("scenes keep the view and refuse malformed files", "[scene][view]") {
    core::State s;
    s.view_json = classroom::view_to_json(classroom::ViewSettings{"output", "viridis", "okabe-ito", true, false, ""});
    core::State t = io::scene_from_json(io::scene_to_json(s), "s.json");
    CHECK(classroom::parse_view(t.view_json, "s.json").compare);
    CHECK_THROWS_WITH(io::scene_from_json("{\"normlab_scene\": 1, \"norm\": {\"method\": 3}}", "s.json"),
                      Catch::Contains("s.json: norm.method must be a string"));
    CHECK_THROWS_WITH(io::load_scene("/nonexistent/scene.json"),
                      Catch::Contains("cannot read /nonexistent/scene.json"));
}

namespace {
// A BatchNorm lesson like 04: train, eval with a reset, train, eval, then LayerNorm.
const char* kRunning = R"({"normlab_lesson": 1, "id": "r", "title": "R", "steps": [
  {"text": "train", "state": {"tensor": {"source": "preset", "preset": "bn-train-eval"},
     "norm": {"method": "batch"}, "selection": [0, 0, 1, 1]}},
  {"text": "eval early", "state": {"norm": {"method": "batch", "mode": "eval"}, "params": {}}},
  {"text": "train more", "state": {"norm": {"method": "batch", "mode": "train"}}},
  {"text": "eval after", "state": {"norm": {"method": "batch", "mode": "eval"}}},
  {"text": "layer", "state": {"norm": {"method": "layer"}, "selection": [1, 1, 1, 1]}},
  {"text": "other tensor", "state": {"tensor": {"source": "preset", "preset": "classroom"}}}
]})";

core::State trained(core::State s, float v) {
    s.params.running_mean.assign(3, v);
    s.params.running_var.assign(3, 2 * v);
    s.params.num_batches_tracked = 7;
    return s;
}
}  // namespace

TEST_CASE("lesson steps keep what the class did unless they name it", "[lesson]") {
    const classroom::Lesson l = classroom::lesson_from_json(kRunning, "r.json");
    classroom::LessonMemory mem;
    core::State s = classroom::lesson_step_state(l, -1, 2, core::State{}, mem);  // entering: the lesson's state
    CHECK(s.spec.mode == core::Mode::Train);
    CHECK(s.params.running_mean.empty());
    s = trained(s, 1.5f);                    // the class trains at step 3
    s.selection = core::Index4{3, 2, 0, 0};  // and clicks an element
    const core::State at3 = s;
    // Step 4 (eval) names neither params nor selection: the trained statistics stay.
    core::State at4 = classroom::lesson_step_state(l, 2, 3, at3, mem);
    CHECK(at4.spec.mode == core::Mode::Eval);
    CHECK(at4.params.running_mean == std::vector<float>(3, 1.5f));
    CHECK(at4.params.num_batches_tracked == 7);
    CHECK(at4.selection == core::Index4{3, 2, 0, 0});
    // Back and forth returns the same picture.
    core::State back = classroom::lesson_step_state(l, 3, 2, at4, mem);
    CHECK(back.spec.mode == core::Mode::Train);
    CHECK(back.params.running_mean == at3.params.running_mean);
    CHECK(back.selection == at3.selection);
    // Step 5 changes the method and names the selection: γ/β and running stats are LayerNorm's.
    const core::State at5 = classroom::lesson_step_state(l, 3, 4, at4, mem);
    CHECK(at5.spec.method == core::Method::Layer);
    CHECK(at5.params.running_mean.empty());
    CHECK(at5.selection == core::Index4{1, 1, 1, 1});
    // Back to step 4: what the class had there comes back.
    const core::State again4 = classroom::lesson_step_state(l, 4, 3, at5, mem);
    CHECK(again4.params.running_mean == std::vector<float>(3, 1.5f));
    CHECK(again4.selection == core::Index4{3, 2, 0, 0});
    // Step 2 names params (it resets them): arriving there, from either side, gives 0 and 1.
    const core::State at2 = classroom::lesson_step_state(l, 3, 1, again4, mem);
    CHECK(at2.params.running_mean.empty());
    CHECK(at2.spec.mode == core::Mode::Eval);
    // A new tensor drops the selection and the parameters.
    const core::State at6 = classroom::lesson_step_state(l, 4, 5, at5, mem);
    CHECK(at6.source.preset == "classroom");
    CHECK(!at6.selection);
    // Entering afresh forgets the class's work.
    const core::State fresh = classroom::lesson_step_state(l, -1, 3, again4, mem);
    CHECK(fresh.params.running_mean.empty());
    CHECK(fresh.selection == core::Index4{0, 0, 1, 1});
    // A state the class moved to another tensor by hand keeps nothing of it.
    core::State moved = at3;
    moved.source.preset = "classroom";
    CHECK(classroom::lesson_step_state(l, 2, 3, moved, mem).params.running_mean.empty());
    CHECK_THROWS_AS(classroom::lesson_step_state(l, 0, 6, at3, mem), core::InputError);
}

TEST_CASE("lesson text placeholders parse, round and refuse typos", "[lesson][placeholder]") {
    const auto ps = classroom::parse_placeholders("a {mean[1]:.3f} b {y[0, 1,2,3]} {count} {1.5, 2} c");
    REQUIRE(ps.size() == 3);
    CHECK(ps[0].name == "mean");
    CHECK(ps[0].index == std::vector<std::int64_t>{1});
    CHECK(ps[0].decimals == 3);
    CHECK(ps[1].index == std::vector<std::int64_t>{0, 1, 2, 3});
    CHECK(ps[1].decimals == 2);
    CHECK(ps[2].decimals == 0);
    for (const char* bad : {"{maen[1]}", "{mean}", "{mean[1]", "{y[0,1]}", "{mean[1]:.2g}", "{mean[1]:.9f}",
                            "{count:.2f}", "{mean[-1]}", "{mean[a]}"}) {
        INFO(bad);
        CHECK_THROWS_AS(classroom::parse_placeholders(bad), core::InputError);
    }
    CHECK(error_of(R"({"normlab_lesson": 1, "id": "x", "title": "t", "steps": [{"text": "{var[0]:.2e}",
        "state": {"tensor": {"source": "preset", "preset": "classroom"}}}]})")
              .find("step 1: placeholder {var[0]:.2e}") != std::string::npos);
    // Rounding, not truncation; a true minus sign; no negative zero.
    CHECK(classroom::format_lesson_number(0.3651, 2) == "0.37");
    CHECK(classroom::format_lesson_number(-1.0954, 2) == "\u22121.10");
    CHECK(classroom::format_lesson_number(1.17669, 3) == "1.177");
    CHECK(classroom::format_lesson_number(-0.001, 2) == "0.00");
    CHECK(classroom::format_lesson_number(2.0, 0) == "2");

    core::NormResult r;
    r.layout.stat_count = 2;
    r.mean = {0.5, -1.0954};
    r.var = {1.625, 2.0};
    core::Tensor x;
    x.shape = core::Shape4{1, 1, 1, 2};
    x.data = {1.0f, 2.0f};
    r.y = x;
    CHECK(classroom::render_lesson_text("μ = {mean[1]:.2f}, σ² = {var[0]:.3f}, x = {x[0,0,0,1]:.1f}, {mean[5]}", x,
                                        r) == "μ = \u22121.10, σ² = 1.625, x = 2.0, ?");
    CHECK(classroom::literal_numbers("G = 2: 4·3·3 = {count} values, −0.73 and -1, BatchNorm2d, {1.5, 2}") ==
          std::vector<std::string>{"2", "4", "3", "3", "-0.73", "-1", "1.5", "2"});
    CHECK(classroom::literal_numbers("§7.4.5 has 4 and −1 and 2×2", {"§7.4.5", "4", "−1", "2×2"}).empty());
    // The fuzz corpus's lesson with placeholders and literals loads.
    const classroom::Lesson p =
        classroom::load_lesson(std::string(NORMLAB_SOURCE_DIR) + "/tests/fuzz/corpus/lesson/placeholders.json");
    CHECK(p.literals == std::vector<std::string>{"2"});
    CHECK(p.steps[0].literals.size() == 2);
    CHECK(p.steps[1].params_origin == 0);  // the same method: the step keeps the class's parameters
}

TEST_CASE("Switchable Normalization's and the timing placeholders", "[lesson][placeholder]") {
    // InstanceNorm statistics of N = 2 samples × C = 2 channels, each over the same number of values.
    core::NormResult r;
    r.layout.method = core::Method::Instance;
    r.layout.stat_shape = {2, 2};
    r.layout.stat_count = 4;
    r.mean = {1.0, 3.0, -1.0, 5.0};  // (n, c) at n·C + c
    r.var = {2.0, 4.0, 1.0, 3.0};
    r.gpu_ms = 1.25;
    r.dispatch_ms = 3.5;
    core::Tensor x;
    x.shape = core::Shape4{2, 2, 1, 2};
    // LN of sample 0 pools its two maps: μ = 2, E[x²] = ((2 + 1) + (4 + 9)) / 2 = 8, σ² = 8 − 4 = 4.
    // BN of channel 1 pools both samples: μ = 4, E[x²] = ((4 + 9) + (3 + 25)) / 2 = 20.5, σ² = 4.5.
    // SN of (0, 1), equal weights: μ = (3 + 2 + 4) / 3 = 3, σ² = (4 + 4 + 4.5) / 3.
    CHECK(classroom::render_lesson_text("{ln_mean[0]:.3f} {ln_var[0]:.3f} {bn_mean[1]:.3f} {bn_var[1]:.3f}", x, r) ==
          "2.000 4.000 4.000 4.500");
    CHECK(classroom::render_lesson_text("{sn_mean[0,1]:.3f} {sn_var[0,1]:.4f}", x, r) == "3.000 4.1667");
    CHECK(classroom::render_lesson_text("{gpu_ms:.3f} {dispatch_ms:.1f}", x, r) == "1.250 3.5");
    CHECK(classroom::render_lesson_text("{ms[3]:.1f}", x, r) == "28.0");  // mean(x²) of (1, 1): σ² + μ² = 3 + 25
    r.stats_from_running = true;                                          // BatchNorm eval: not this tensor's
    CHECK(classroom::render_lesson_text("{ms[3]:.1f}", x, r) == "?");
    r.stats_from_running = false;
    CHECK(classroom::render_lesson_text("{ln_mean[2]} {bn_var[2]} {sn_mean[0,2]}", x, r) == "? ? ?");  // outside N / C
    r.layout.method = core::Method::Layer;  // derived only from InstanceNorm's statistics
    CHECK(classroom::render_lesson_text("{ln_mean[0]}", x, r) == "?");
    CHECK_THROWS_AS(classroom::parse_placeholders("{sn_mean[1]}"), core::InputError);
    CHECK_THROWS_AS(classroom::parse_placeholders("{gpu_ms[0]}"), core::InputError);
}
