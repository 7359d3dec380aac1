// The app's links (normlab/session/app_link.hpp): written and read back, the query's keys under the
// address's, a scene line alone (the links of earlier versions) and refusals naming the part.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/core/state.hpp"
#include "normlab/session/app_link.hpp"

using namespace normlab;

namespace {
std::string error_of(const std::string& text) {
    try {
        parse_link(text, "link");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("a link is written in a fixed order and read back") {
    State st;
    st.spec.method = Method::Group;
    st.spec.groups = 2;
    AppLink link;
    link.lesson = "groupnorm-continuum";
    link.step = 3;
    link.language = Language::Zh;
    link.presenter = true;
    link.scene = scene_to_line(st);
    const std::string text = link_text(link);
    CHECK(text == "lesson=groupnorm-continuum&step=3&lang=zh&presenter=1&" + link.scene);
    CHECK(parse_link(text, "link") == link);
    CHECK(scene_from_line(parse_link(text, "link").scene).spec.groups == 2);
}

TEST_CASE("English, presenter mode off and no lesson are left out") {
    AppLink link;
    link.language = Language::En;
    link.presenter = false;
    CHECK(link_text(link).empty());
    link.scene = scene_to_line(State{});
    CHECK(link_text(link) == link.scene);
}

TEST_CASE("a scene line or a scene's JSON alone is a link with only a scene") {
    const std::string line = scene_to_line(State{});
    CHECK(parse_link(line, "link") == AppLink{.scene = line});
    const std::string json = R"({"normlab_scene": 1, "tensor": {"source": "preset", "preset": "a&b"}})";
    CHECK(parse_link("  " + json + "\n", "link").scene == json);
    CHECK(parse_link("", "link") == AppLink{});
}

TEST_CASE("the query's link keys lie under the address's, other query keys are skipped") {
    const AppLink query = parse_link("x=1&lesson=bn-vs-ln&step=2&lang=zh", "query", true);
    CHECK(query.lesson == "bn-vs-ln");
    CHECK(query.step == 2);
    const AppLink hash = parse_link("lesson=in-vs-ln&step=4&normlab-scene:abc", "hash");
    const AppLink m = query.merged(hash);
    CHECK(m.lesson == "in-vs-ln");
    CHECK(m.step == 4);
    CHECK(m.language == Language::Zh);
    CHECK(m.scene == "normlab-scene:abc");
    CHECK(query.merged(AppLink{}) == query);
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
    CHECK(parse_link("lesson=a&colour=red", "query", true).lesson == "a");
    CHECK_THROWS_AS(parse_link("lang=fr", "query", true), InputError);
}
