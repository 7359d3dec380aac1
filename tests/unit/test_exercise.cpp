// Exercises (a scene that hides or locks controls) and scenes as one line of text: the names,
// the scene file's "exercise" object, which changes a lock refuses, and the clipboard line.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/core/exercise.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

#include <functional>

using namespace normlab;

namespace {
std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

core::State group_state() {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = {2, 6, 3, 3};
    s.spec = core::default_spec(core::Method::Group);
    s.spec.groups = 3;
    return s;
}
}  // namespace

TEST_CASE("every control has a name that parses back to it", "[exercise]") {
    for (int i = 0; i < core::kControlCount; ++i) {
        const auto c = static_cast<core::Control>(i);
        REQUIRE(core::parse_control(core::control_name(c)) == c);
    }
    CHECK_FALSE(core::parse_control("Method").has_value());
    CHECK(core::is_panel(core::Control::Explain));
    CHECK_FALSE(core::is_panel(core::Control::Eps));
}

TEST_CASE("hidden controls are locked too; panels can only be hidden", "[exercise]") {
    core::Exercise e = core::make_exercise({"method", "statistics"}, {"eps"});
    CHECK(e.hides(core::Control::Method));
    CHECK(e.locks(core::Control::Method));
    CHECK(e.locks(core::Control::Eps));
    CHECK_FALSE(e.hides(core::Control::Eps));
    CHECK_FALSE(e.locks(core::Control::Groups));
    CHECK(e.hidden_names() == std::vector<std::string>{"method", "statistics"});
    CHECK(e.locked_names() == std::vector<std::string>{"eps"});
    CHECK(error_of([] { core::make_exercise({"colour"}, {}); }) ==
          "hide: 'colour' is not a control (tensor, method, groups, normalized_shape, eps, affine, params, mode, "
          "momentum, running_stats, sync, explain, statistics)");
    CHECK(error_of([] { core::make_exercise({}, {"explain"}, "h", "--lock"); }) ==
          "--lock: explain is a panel: it can be hidden, not locked");
}

TEST_CASE("a lock refuses exactly the changes to its part of the state", "[exercise]") {
    core::State from = group_state();
    from.exercise = core::make_exercise({}, {"groups", "eps"});
    core::State to = from;
    CHECK_FALSE(core::locked_change(from, to).has_value());
    to.spec.groups = 2;
    CHECK(core::locked_change(from, to) == core::Control::Groups);
    to = from;
    to.spec.eps = 0.1;
    CHECK(core::locked_change(from, to) == core::Control::Eps);
    to = from;
    to.params.weight.assign(6, 2.0f);  // γ is not locked
    CHECK_FALSE(core::locked_change(from, to).has_value());
    to = from;
    to.source.seed = 5;
    CHECK_FALSE(core::locked_change(from, to).has_value());
    from.exercise.lock(core::Control::Tensor);
    CHECK(core::locked_change(from, to) == core::Control::Tensor);
    to = from;
    to.spec.sync_devices = 2;  // SyncBN's devices are not locked
    CHECK_FALSE(core::locked_change(from, to).has_value());
    from.exercise.lock(core::Control::Sync);
    CHECK(core::locked_change(from, to) == core::Control::Sync);
    from.exercise.lock(core::Control::Sync, false);
    // An image source is the same tensor while its path is; AdaIN's style image is under params.
    core::State img = from;
    img.exercise = core::make_exercise({"tensor"}, {"params"});
    img.source.kind = core::TensorSource::Kind::Image;
    img.source.path = "images/content-stripes.png";
    to = img;
    to.spec.eps = 0.5;
    CHECK_FALSE(core::locked_change(img, to).has_value());
    to.source.path = "images/content-checker.png";
    CHECK(core::locked_change(img, to) == core::Control::Tensor);
    to = img;
    to.style_image = "images/style-sunset.png";
    CHECK(core::locked_change(img, to) == core::Control::Params);
    // Another method: its own settings are not compared (lock the method to hold them).
    to = from;
    to.spec = core::default_spec(core::Method::Layer);
    CHECK_FALSE(core::locked_change(from, to).has_value());
    from.exercise.hide(core::Control::Method);
    CHECK(core::locked_change(from, to) == core::Control::Method);
    // No exercise: nothing is locked.
    from.exercise = {};
    CHECK_FALSE(core::locked_change(from, to).has_value());
}

TEST_CASE("a scene keeps its exercise; a bad one is refused with its key", "[exercise][scene]") {
    core::State s = group_state();
    s.exercise = core::make_exercise({"tensor", "explain"}, {"groups"});
    const std::string text = io::scene_to_json(s);
    CHECK(text.find("\"exercise\"") != std::string::npos);
    CHECK(io::scene_from_json(text, "s").exercise == s.exercise);
    // No exercise, no key: scenes without one stay as they were.
    CHECK(io::scene_to_json(group_state()).find("exercise") == std::string::npos);
    CHECK(error_of([] { io::scene_from_json(R"({"normlab_scene": 1, "exercise": {"hide": ["nope"]}})", "s.json"); }) ==
          "s.json: exercise.hide: 'nope' is not a control (tensor, method, groups, normalized_shape, eps, affine, "
          "params, mode, momentum, running_stats, sync, explain, statistics)");
    CHECK(error_of([] { io::scene_from_json(R"({"normlab_scene": 1, "exercise": {"lock": "eps"}})", "s.json"); }) ==
          "s.json: exercise.lock must be a list of strings");
    CHECK(error_of([] { io::scene_from_json(R"({"normlab_scene": 1, "exercise": [1]})", "s.json"); }) ==
          "s.json: exercise must be an object");
}

TEST_CASE("a scene as one line survives the clipboard; a damaged line is refused", "[exercise][scene]") {
    core::State s = group_state();
    s.spec.eps = 1e-3;
    s.params.weight = {1, 2, 3, 4, 5, 6};
    s.selection = core::Index4{1, 2, 0, 1};
    s.view_json = R"({"heatmap":"stats"})";
    s.exercise = core::make_exercise({"statistics"}, {"groups"});
    const std::string line = io::scene_to_line(s);
    CHECK(line.rfind("normlab-scene:", 0) == 0);
    CHECK(line.find_first_of(" \n\t\"'{}") == std::string::npos);
    const core::State t = io::scene_from_line("  " + line + "\r\n");
    CHECK(io::scene_to_json(t) == io::scene_to_json(s));
    // The scene's JSON text is accepted as well.
    CHECK(io::scene_to_json(io::scene_from_line(io::scene_to_json(s))) == io::scene_to_json(s));
    CHECK(error_of([] { io::scene_from_line("   "); }) == "pasted scene: empty (copy a scene first)");
    CHECK(error_of([] { io::scene_from_line("hello"); }) ==
          "pasted scene: not a normlab scene (it starts with neither \"normlab-scene:\" nor \"{\")");
    CHECK(error_of([&] { io::scene_from_line(line.substr(0, line.size() - 7)); }).rfind("pasted scene: ", 0) == 0);
    CHECK(error_of([&] { io::scene_from_line(line.substr(0, 30) + "*" + line.substr(31)); }) ==
          "pasted scene: the text after \"normlab-scene:\" is cut or changed");
}
