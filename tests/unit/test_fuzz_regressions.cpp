// Inputs found by the fuzzers (scripts/fuzz.sh) that once crashed or misbehaved: each must now
// be refused with an InputError (or load and round-trip), never escape as another exception.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/core/state.hpp"
#include "normlab/io/scene_file.hpp"

using namespace normlab;

namespace {

std::string scene_error(const std::string& text) {
    try {
        io::scene_from_json(text, "s.json");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("fuzz: a scene without a required key is an InputError", "[fuzz][scene]") {
    // fuzz_scene crash-5a56a49a: "path" was mangled, so tensor.path was missing and
    // nlohmann's at() threw json::out_of_range past every InputError handler (the app aborted).
    const std::string crash =
        "{\"normlab_scene\": 1, \"tensor\": {\"source\": \"file\", \"pat888888888888888888888888888h\": \"x.npy\"},\n"
        " \"norm\": {\"method\": \"layer\", \"normalized_shapeffine\": false}}\n";
    CHECK(scene_error(crash) == "s.json: tensor.path is missing");
    CHECK(scene_error(R"({"normlab_scene": 1, "tensor": {"source": "preset"}})") == "s.json: tensor.preset is missing");
}

TEST_CASE("fuzz: numbers beyond float32 in a scene are refused, so a saved scene always loads", "[fuzz][scene]") {
    // fuzz_scene round-trip check: 1e300 became Inf, was saved as null and the saved scene
    // no longer loaded.
    CHECK(scene_error(R"({"normlab_scene": 1, "norm": {"method": "instance", "affine": true},
                          "tensor": {"shape": [1, 3, 2, 2]}, "params": {"weight": [1e300, 1, 1]}})")
              .find("params.weight holds 1e+300, which does not fit a float32") != std::string::npos);
    CHECK(scene_error(R"({"normlab_scene": 1, "tensor": {"init": "constant", "value": 1e39}})")
              .find("tensor.value = 1e+39 does not fit a float32") != std::string::npos);
    core::State ok = io::scene_from_json(R"({"normlab_scene": 1, "norm": {"method": "instance", "affine": true},
                                   "tensor": {"shape": [1, 3, 2, 2]}, "params": {"weight": [3e38, -3e38, 1e-45]}})",
                                         "ok.json");
    const std::string saved = io::scene_to_json(ok);
    CHECK(io::scene_to_json(io::scene_from_json(saved, "saved.json")) == saved);
}
