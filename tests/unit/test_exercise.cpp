// Exercises (a scene that hides or locks controls) and scenes as one line of text: the names,
// the scene file's "exercise" object, which changes a lock refuses, and the clipboard line.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/core/exercise.hpp"
#include "normlab/core/state.hpp"

#include <functional>

using namespace normlab;

namespace {
std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

State group_state() {
    State s;
    s.source.kind = TensorSource::Kind::Generated;
    s.source.shape = {2, 6, 3, 3};
    s.spec = default_spec(Method::Group);
    s.spec.groups = 3;
    return s;
}
}  // namespace

TEST_CASE("every control has a name that parses back to it", "[exercise]") {
    for (int i = 0; i < kControlCount; ++i) {
        const auto c = static_cast<Control>(i);
        REQUIRE(parse_control(control_name(c)) == c);
    }
    CHECK_FALSE(parse_control("Method").has_value());
    CHECK(is_panel(Control::Explain));
    CHECK_FALSE(is_panel(Control::Eps));
}

TEST_CASE("hidden controls are locked too; panels can only be hidden", "[exercise]") {
    Exercise e = make_exercise({"method", "statistics"}, {"eps"});
    CHECK(e.hides(Control::Method));
    CHECK(e.locks(Control::Method));
    CHECK(e.locks(Control::Eps));
    CHECK_FALSE(e.hides(Control::Eps));
    CHECK_FALSE(e.locks(Control::Groups));
    CHECK(e.hidden_names() == std::vector<std::string>{"method", "statistics"});
    CHECK(e.locked_names() == std::vector<std::string>{"eps"});
    CHECK(error_of([] { make_exercise({"colour"}, {}); }) ==
          "hide: 'colour' is not a control (tensor, method, groups, normalized_shape, eps, affine, params, mode, "
          "momentum, running_stats, sync, explain, statistics)");
    CHECK(error_of([] { make_exercise({}, {"explain"}, "h", "--lock"); }) ==
          "--lock: explain is a panel: it can be hidden, not locked");
}

TEST_CASE("a lock refuses exactly the changes to its part of the state", "[exercise]") {
    State from = group_state();
    from.exercise = make_exercise({}, {"groups", "eps"});
    State to = from;
    CHECK_FALSE(locked_change(from, to).has_value());
    to.spec.groups = 2;
    CHECK(locked_change(from, to) == Control::Groups);
    to = from;
    to.spec.eps = 0.1;
    CHECK(locked_change(from, to) == Control::Eps);
    to = from;
    to.params.weight.assign(6, 2.0f);  // γ is not locked
    CHECK_FALSE(locked_change(from, to).has_value());
    to = from;
    to.source.seed = 5;
    CHECK_FALSE(locked_change(from, to).has_value());
    from.exercise.lock(Control::Tensor);
    CHECK(locked_change(from, to) == Control::Tensor);
    to = from;
    to.spec.sync_devices = 2;  // SyncBN's devices are not locked
    CHECK_FALSE(locked_change(from, to).has_value());
    from.exercise.lock(Control::Sync);
    CHECK(locked_change(from, to) == Control::Sync);
    from.exercise.lock(Control::Sync, false);
    // An image source is the same tensor while its path is; AdaIN's style image is under params.
    State img = from;
    img.exercise = make_exercise({"tensor"}, {"params"});
    img.source.kind = TensorSource::Kind::Image;
    img.source.path = "images/content-stripes.png";
    to = img;
    to.spec.eps = 0.5;
    CHECK_FALSE(locked_change(img, to).has_value());
    to.source.path = "images/content-checker.png";
    CHECK(locked_change(img, to) == Control::Tensor);
    to = img;
    to.style_image = "images/style-sunset.png";
    CHECK(locked_change(img, to) == Control::Params);
    // Another method: its own settings are not compared (lock the method to hold them).
    to = from;
    to.spec = default_spec(Method::Layer);
    CHECK_FALSE(locked_change(from, to).has_value());
    from.exercise.hide(Control::Method);
    CHECK(locked_change(from, to) == Control::Method);
    // No exercise: nothing is locked.
    from.exercise = {};
    CHECK_FALSE(locked_change(from, to).has_value());
}

TEST_CASE("a scene keeps its exercise; a bad one is refused with its key", "[exercise][scene]") {
    State s = group_state();
    s.exercise = make_exercise({"tensor", "explain"}, {"groups"});
    const std::string text = scene_to_json(s);
    CHECK(text.find("\"exercise\"") != std::string::npos);
    CHECK(scene_from_json(text, "s").exercise == s.exercise);
    // No exercise, no key: scenes without one stay as they were.
    CHECK(scene_to_json(group_state()).find("exercise") == std::string::npos);
    CHECK(error_of([] { scene_from_json(R"({"normlab_scene": 1, "exercise": {"hide": ["nope"]}})", "s.json"); }) ==
          "s.json: exercise.hide: 'nope' is not a control (tensor, method, groups, normalized_shape, eps, affine, "
          "params, mode, momentum, running_stats, sync, explain, statistics)");
    CHECK(error_of([] { scene_from_json(R"({"normlab_scene": 1, "exercise": {"lock": "eps"}})", "s.json"); }) ==
          "s.json: exercise.lock must be a list of strings");
    CHECK(error_of([] { scene_from_json(R"({"normlab_scene": 1, "exercise": [1]})", "s.json"); }) ==
          "s.json: exercise must be an object");
}

TEST_CASE("a scene as one line survives the clipboard; a damaged line is refused", "[exercise][scene]") {
    State s = group_state();
    s.spec.eps = 1e-3;
    s.params.weight = {1, 2, 3, 4, 5, 6};
    s.selection = Index4{1, 2, 0, 1};
    s.view_json = R"({"heatmap":"stats"})";
    s.exercise = make_exercise({"statistics"}, {"groups"});
    const std::string line = scene_to_line(s);
    CHECK(line.rfind("normlab-scene:", 0) == 0);
    CHECK(line.find_first_of(" \n\t\"'{}") == std::string::npos);
    const State t = scene_from_line("  " + line + "\r\n");
    CHECK(scene_to_json(t) == scene_to_json(s));
    // The scene's JSON text is accepted as well.
    CHECK(scene_to_json(scene_from_line(scene_to_json(s))) == scene_to_json(s));
    CHECK(error_of([] { scene_from_line("   "); }) == "pasted scene: empty (copy a scene first)");
    CHECK(error_of([] { scene_from_line("hello"); }) ==
          "pasted scene: not a normlab scene (it starts with neither \"normlab-scene:\" nor \"{\")");
    CHECK(error_of([&] { scene_from_line(line.substr(0, line.size() - 7)); }).rfind("pasted scene: ", 0) == 0);
    CHECK(error_of([&] { scene_from_line(line.substr(0, 30) + "*" + line.substr(31)); }) ==
          "pasted scene: the text after \"normlab-scene:\" is cut or changed");
}
