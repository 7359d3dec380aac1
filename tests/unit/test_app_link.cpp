// The app's links (normlab/session/app_link.hpp): written and read back, the query's keys under the
// address's, a scene line alone (the links of earlier versions) and refusals naming the part; the scene's view
// carries the Train view's sweep.
#include <catch2/catch.hpp>

#include "normlab/classroom/view_settings.hpp"
#include "normlab/core/error.hpp"
#include "normlab/core/state.hpp"
#include "normlab/session/app_link.hpp"
#include "normlab/io/scene_file.hpp"

using namespace normlab;

namespace {
std::string error_of(const std::string& text) {
    try {
        session::parse_link(text, "link");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("a link is written in a fixed order and read back") {
    core::State st;
    st.spec.method = core::Method::Group;
    st.spec.groups = 2;
    session::AppLink link;
    link.lesson = "groupnorm-continuum";
    link.step = 3;
    link.language = core::Language::Zh;
    link.presenter = true;
    link.scene = io::scene_to_line(st);
    const std::string text = session::link_text(link);
    CHECK(text == "lesson=groupnorm-continuum&step=3&lang=zh&presenter=1&" + link.scene);
    CHECK(session::parse_link(text, "link") == link);
    CHECK(io::scene_from_line(session::parse_link(text, "link").scene).spec.groups == 2);
}

TEST_CASE("English, presenter mode off and no lesson are left out") {
    session::AppLink link;
    link.language = core::Language::En;
    link.presenter = false;
    CHECK(session::link_text(link).empty());
    link.scene = io::scene_to_line(core::State{});
    CHECK(session::link_text(link) == link.scene);
}

TEST_CASE("a scene line or a scene's JSON alone is a link with only a scene") {
    const std::string line = io::scene_to_line(core::State{});
    CHECK(session::parse_link(line, "link") == session::AppLink{.scene = line});
    const std::string json = R"({"normlab_scene": 1, "tensor": {"source": "preset", "preset": "a&b"}})";
    CHECK(session::parse_link("  " + json + "\n", "link").scene == json);
    CHECK(session::parse_link("", "link") == session::AppLink{});
}

TEST_CASE("the query's link keys lie under the address's, other query keys are skipped") {
    const session::AppLink query = session::parse_link("x=1&lesson=bn-vs-ln&step=2&lang=zh", "query", true);
    CHECK(query.lesson == "bn-vs-ln");
    CHECK(query.step == 2);
    const session::AppLink hash = session::parse_link("lesson=in-vs-ln&step=4&normlab-scene:abc", "hash");
    const session::AppLink m = query.merged(hash);
    CHECK(m.lesson == "in-vs-ln");
    CHECK(m.step == 4);
    CHECK(m.language == core::Language::Zh);
    CHECK(m.scene == "normlab-scene:abc");
    CHECK(query.merged(session::AppLink{}) == query);
}

TEST_CASE("a link carries the Train view's sweep in its scene") {
    // The Group Normalization paper's figure in miniature: BatchNorm and GroupNorm over batch sizes.
    const classroom::ViewSettings v = classroom::parse_view(
        R"({"train": {"base": {"width": 8, "steps": 30}, "runs": [{"norm": "batch"}, {"norm": "group", "groups": 4}],
            "sweep": {"norm": ["batch", "group"], "batch": [2, 4, 8, 16, 32], "start": true}}})",
        "s.json");
    REQUIRE(v.train->sweep);
    core::State st;
    st.view_json = classroom::view_to_json(v);
    session::AppLink link;
    link.lesson = "train-batch-size";
    link.scene = io::scene_to_line(st);
    const session::AppLink back = session::parse_link(session::link_text(link), "link");
    CHECK(back.lesson == link.lesson);
    CHECK(back.scene == link.scene);
    const classroom::ViewSettings opened = classroom::parse_view(io::scene_from_line(back.scene).view_json, "link");
    CHECK(opened == v);
    CHECK(opened.train->sweep->axes == train::sweep_axes({"batch", "group"}, "2,4,8,16,32", ""));
    CHECK(opened.train->sweep->start);
    // A link whose sweep the CLI would refuse: one line naming the key.
    st.view_json = R"({"train": {"runs": [{}], "sweep": {"batch": [0]}}})";
    try {
        classroom::parse_view(io::scene_from_line(io::scene_to_line(st)).view_json, "link");
        FAIL("a sweep of batch 0 opened");
    } catch (const core::InputError& e) {
        CHECK(std::string(e.what()) ==
              "link: view.train.sweep.batch: sweep run batch=0: --batch must be between 1 and 4096");
    }
}

TEST_CASE("a bad part is refused with one line naming it") {
    CHECK(error_of("lesson=a&colour=red") ==
          "link: 'colour' is not a part of a link (lesson, step, lang, presenter, normlab-scene:…)");
    CHECK(error_of("lesson=a&step=0") == "link: step = '0' is not a step number (1, 2, …)");
    CHECK(error_of("lesson=a&step=x") == "link: step = 'x' is not a step number (1, 2, …)");
    CHECK(error_of("lang=fr") == "link: lang = 'fr' is not en or zh");
    CHECK(error_of("presenter=yes") == "link: presenter = 'yes' is not 0 or 1");
    CHECK(error_of("lesson=a b") == "link: lesson = 'a b' is not a lesson id");
    CHECK(error_of("step=2") == "link: step = 2 without a lesson");
    CHECK(error_of("normlab-scene:abc&lang=zh") == "");  // a scene alone: its line is checked when opened
    CHECK(error_of("lang=zh&normlab-scene:abc&presenter=1") == "link: the scene must be the link's last part");
    CHECK(session::parse_link("lesson=a&colour=red", "query", true).lesson == "a");
    CHECK_THROWS_AS(session::parse_link("lang=fr", "query", true), core::InputError);
}
