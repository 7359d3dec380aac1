// Lesson files and view settings: the shipped lessons load, steps inherit state, and
// malformed lessons are refused as a whole with a message naming file, step and key.
#include <catch2/catch.hpp>

#include "normlab/error.hpp"
#include "normlab/atomic_file.hpp"
#include "normlab/lesson.hpp"

#include <algorithm>
#include <filesystem>

using namespace normlab;

namespace {
std::string error_of(const std::string& text) {
    try {
        lesson_from_json(text, "l.json");
    } catch (const InputError& e) {
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
    LessonSet set = load_lessons(std::string(NORMLAB_SOURCE_DIR) + "/assets/lessons");
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
    Lesson l = lesson_from_json(kGood, "l.json");
    REQUIRE(l.steps.size() == 3);
    CHECK(l.title.in(Language::Zh) == "测");
    CHECK(l.steps[1].text.in(Language::Zh) == "b");  // falls back to English
    CHECK(l.steps[0].state.spec.method == Method::Group);
    CHECK(l.steps[0].view.compare);
    CHECK(l.steps[1].state.spec.groups == 3);  // inherited
    CHECK(l.steps[1].state.selection == Index4{0, 0, 0, 0});
    CHECK(l.steps[1].view.compare);  // view inherited too
    CHECK(l.steps[2].state.spec.method == Method::Layer);
    CHECK(!l.steps[2].state.selection);  // a new method drops the old selection
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
    write_file_atomic((dir / "a.json").string(), kGood);
    write_file_atomic((dir / "b.json").string(), "{ not json");
    LessonSet set = load_lessons(dir.string());
    CHECK(set.lessons.size() == 1);
    REQUIRE(set.errors.size() == 1);
    CHECK(set.errors[0].find("b.json") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("view settings round trip and reject unknown keys", "[lesson][view]") {
    ViewSettings v;
    v.heatmap = "diff";
    v.colormap = "cividis";
    v.groups = "hues";
    v.compare = true;
    v.cube = true;
    v.experiment = "gn-continuum";
    CHECK(parse_view(view_to_json(v), "v") == v);
    CHECK(parse_view("", "v") == ViewSettings{});
    CHECK_THROWS_WITH(parse_view(R"({"zoom": 2})", "v"), Catch::Contains("unknown view key 'zoom'"));
    CHECK_THROWS_WITH(parse_view(R"({"compare": "yes"})", "v"), Catch::Contains("view.compare must be true or false"));
}

TEST_CASE("scenes keep the view and refuse malformed files", "[scene][view]") {
    State s;
    s.view_json = view_to_json(ViewSettings{"output", "viridis", "okabe-ito", true, false, ""});
    State t = scene_from_json(scene_to_json(s), "s.json");
    CHECK(parse_view(t.view_json, "s.json").compare);
    CHECK_THROWS_WITH(scene_from_json("{\"normlab_scene\": 1, \"norm\": {\"method\": 3}}", "s.json"),
                      Catch::Contains("s.json: norm.method must be a string"));
    CHECK_THROWS_WITH(load_scene("/nonexistent/scene.json"), Catch::Contains("cannot read /nonexistent/scene.json"));
}
