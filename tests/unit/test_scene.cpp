// Scene files: round trip, and malformed scenes refused with a message naming the problem;
// the JSON reader every loader shares.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/io/json_reader.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

#include <functional>

using namespace normlab;

namespace {
std::string error_of(const std::string& text) {
    try {
        io::scene_from_json(text, "s.json");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("scene round trip keeps the whole state", "[scene]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = {2, 6, 3, 3};
    s.source.init = core::Init::Uniform;
    s.source.seed = 42;
    s.spec = core::default_spec(core::Method::Group);
    s.spec.groups = 3;
    s.spec.eps = 1e-3;
    s.params.weight = {1, 2, 3, 4, 5, 6};
    s.selection = core::Index4{1, 2, 0, 1};
    s.view_json = R"({"heatmap":"stats"})";
    core::State t = io::scene_from_json(io::scene_to_json(s), "rt");
    CHECK(t.source.kind == core::TensorSource::Kind::Generated);
    CHECK(t.source.shape == s.source.shape);
    CHECK(t.source.init == core::Init::Uniform);
    CHECK(t.source.seed == 42);
    CHECK(t.spec.method == core::Method::Group);
    CHECK(t.spec.groups == 3);
    CHECK(*t.spec.eps == 1e-3);
    CHECK(t.params.weight == s.params.weight);
    CHECK(*t.selection == *s.selection);
    CHECK(t.view_json == s.view_json);
}

TEST_CASE("malformed scenes are refused with the offending key", "[scene]") {
    CHECK(error_of("{").find("not valid JSON") != std::string::npos);
    CHECK(error_of("[]").find("JSON object") != std::string::npos);
    CHECK(error_of("{}").find("normlab_scene") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"banana"}})").find("unknown method 'banana'") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"group","groups":"two"}})")
              .find("norm.groups must be an integer") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"group","groups":-3}})").find("out of range") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"generated","shape":[2,6,4,4]},)"
                   R"("norm":{"method":"group","groups":4}})")
              .find("divisible by num_groups") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"generated","shape":[2,0,4,4]}})").find("dimension < 1") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"momentum":7}})").find("momentum") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"preset","preset":"nope"}})").find("unknown preset") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"generated","shape":[2,3,4,4]},"selection":[5,0,0,0]})")
              .find("outside the tensor") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"generated","shape":[2,3,4,4]},)"
                   R"("norm":{"method":"batch"},"params":{"weight":[1,2]}})")
              .find("weight has 2 elements") != std::string::npos);
}

TEST_CASE("the JSON reader shared by scenes, lessons, experiments and presets names file and key", "[scene][reader]") {
    auto error_in = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error_in([] { io::parse_json_text("{\"a\": ", "f.json"); }).find("f.json: not valid JSON (") == 0);
    const nlohmann::json j = io::parse_json_text(
        R"({"v": 2, "o": {"n": "x", "t": {"en": "", "zh": "z"}, "s": ""}, "l": [], "z": null})", "f.json");
    const io::JsonReader r(j, "", "f.json", "a thing");
    CHECK(error_in([&] { io::JsonReader(j.at("l"), "", "f.json", "a thing"); }) ==
          "f.json: a thing must be a JSON object");
    CHECK(error_in([&] { r.child("v"); }) == "f.json: v must be an object");
    CHECK(error_in([&] { r.format_version("v", "thing"); }) == "f.json: v = 2 is out of range [1, 1]");
    CHECK(error_in([&] { r.format_version("normlab_thing", "thing"); }) ==
          "f.json: not a normlab thing (needs \"normlab_thing\": 1)");
    CHECK(error_in([&] { r.only_keys({"v", "o", "l"}); }) == "f.json: unknown key 'z' (v, o or l)");
    CHECK(!r.has("z"));  // null is "left out"
    CHECK(error_in([&] { r.list("l", 1, 3); }) == "f.json: l must be a non-empty list");
    const io::JsonReader o = r.child("o");
    CHECK(error_in([&] { o.integer("n", 0, 1); }) == "f.json: o.n must be an integer");
    CHECK(error_in([&] { o.string("m"); }) == "f.json: o.m is missing");
    CHECK(error_in([&] { o.text("t", true); }) == "f.json: o.t.en is missing or empty");
    // A text given as one string is English; an empty one is refused too (the fuzzer's experiment "title": "").
    CHECK(error_in([&] { o.text("s", false); }) == "f.json: o.s is empty (an object {\"en\": ..., \"zh\": ...})");
    CHECK(error_in([&] { o.nonempty_string("q"); }) == "f.json: o.q is missing (a non-empty string)");
    CHECK(o.text("absent", false).en.empty());
}

TEST_CASE("scenes keep SyncBN's devices and mode, and check them against the tensor", "[scene][sync]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Generated;
    s.source.shape = {4, 3, 2, 2};
    s.spec = core::default_spec(core::Method::Batch);
    s.spec.sync_devices = 2;
    s.spec.sync_mode = core::SyncMode::Naive;
    const std::string text = io::scene_to_json(s);
    CHECK(text.find("\"sync_devices\": 2") != std::string::npos);
    CHECK(text.find("\"sync_mode\": \"naive\"") != std::string::npos);
    const core::State t = io::scene_from_json(text, "rt");
    CHECK(t.spec.sync_devices == 2);
    CHECK(t.spec.sync_mode == core::SyncMode::Naive);
    s.spec.sync_devices = 0;  // none: the keys are left out
    CHECK(io::scene_to_json(s).find("sync_") == std::string::npos);
    const std::string head = R"({"normlab_scene": 1, "tensor": {"source": "generated", "shape": [4, 3, 2, 2]}, )";
    CHECK_THAT(error_of(head + R"("norm": {"method": "batch", "sync_devices": 3}})"),
               Catch::Contains("divisible by 3"));
    CHECK_THAT(error_of(head + R"("norm": {"method": "layer", "sync_devices": 2}})"),
               Catch::Contains("norm.sync_devices is read only by the method batch (SyncBN)"));
    CHECK_THAT(error_of(head + R"("norm": {"method": "batch", "sync_devices": 2, "sync_mode": "exact"}})"),
               Catch::Contains("sync, local or naive"));
}

TEST_CASE("an image source and AdaIN's style image round-trip through a scene", "[scene][image]") {
    core::State s;
    s.source.kind = core::TensorSource::Kind::Image;
    s.source.path = "images/content-stripes.png";
    s.spec = core::default_spec(core::Method::Instance);
    s.style_image = "images/style-sunset.png";
    const core::State back = io::scene_from_json(io::scene_to_json(s), "s.json");
    CHECK(back.source.kind == core::TensorSource::Kind::Image);
    CHECK(back.source.path == s.source.path);
    CHECK(back.style_image == s.style_image);
    CHECK(io::scene_to_json(back) == io::scene_to_json(s));
    core::State plain;  // no style: no key written
    CHECK(io::scene_to_json(plain).find("style_image") == std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"batch","style_image":"s.png"}})")
              .find("norm.style_image is read only by the method instance (AdaIN) (here: the method batch)") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"image"}})").find("path") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"jpeg","path":"a.jpg"}})")
              .find("generated, preset, file or image") != std::string::npos);
}

TEST_CASE("a known key that the chosen source or method does not read is refused, naming the key", "[scene]") {
    // The user forgot "source": "file": refused, not run on the default tensor.
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"path":"/etc/passwd"}})") ==
          "s.json: tensor.path is read only with \"source\": \"file\" or \"image\" (here: \"source\": \"generated\")");
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"file","path":"a.npy","seed":3}})") ==
          "s.json: tensor.seed is read only with \"source\": \"generated\" (here: \"source\": \"file\")");
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"source":"preset","preset":"classroom","shape":[2,3,4,4]}})")
              .find("tensor.shape is read only with \"source\": \"generated\"") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"preset":"classroom"}})").find("tensor.preset") !=
          std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"tensor":{"init":"randn","value":2}})") ==
          "s.json: tensor.value is read only with \"source\": \"generated\" and \"init\": \"constant\" (here: "
          "\"init\": \"randn\")");
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"layer","groups":2}})") ==
          "s.json: norm.groups is read only by the method group (here: the method layer)");
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"batch","normalized_shape":[4]}})")
              .find("norm.normalized_shape is read only by the methods layer and rms") != std::string::npos);
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"instance","sync_devices":2}})")
              .find("norm.sync_devices is read only by the method batch") != std::string::npos);
    // What a saved scene holds for every method (mode, momentum, bias, affine) stays accepted,
    // and unknown keys stay ignored.
    CHECK(error_of(R"({"normlab_scene":1,"norm":{"method":"layer","mode":"eval","momentum":0.1,"future":1}})").empty());
    for (core::Method m :
         {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        core::State st;
        st.spec = core::default_spec(m);
        CHECK(error_of(io::scene_to_json(st)).empty());
    }
}
