// Presets and experiments as JSON files (assets/presets, assets/experiments): the embedded
// files are the files in assets/ and all load; malformed files are refused as a whole with
// "<file>: <what is wrong>", through the same reader as scenes and lessons.
#include <catch2/catch.hpp>

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"
#include "normlab/io/presets.hpp"

#include <algorithm>
#include <filesystem>

using namespace normlab;

namespace {

template <typename F>
std::string error_of(F&& parse) {
    try {
        parse();
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

std::string preset_error(const std::string& text) {
    return error_of([&] { io::preset_from_json(text, "p.json"); });
}

std::string experiment_error(const std::string& text) {
    return error_of([&] { classroom::experiment_from_json(text, "e.json"); });
}

std::vector<std::filesystem::path> json_files(const std::string& folder) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(std::string(NORMLAB_SOURCE_DIR) + "/" + folder))
        if (e.path().extension() == ".json") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

const char* kPreset = R"({"normlab_preset": 1, "name": "p", "source": {"en": "s", "zh": "源"},
  "description": {"en": "d", "zh": "描述"}, "tensor": {"shape": [2, 3, 1, 2], "init": "arange",
  "transforms": [{"op": "scale", "by": [1, 10, 100], "along": "c"}, {"op": "add", "by": [0, 0.5], "along": "n"},
                 {"op": "append_sample", "from": 0, "scale": -1, "add": 2}]},
  "norm": {"method": "group", "groups": 3}, "params": {"weight": [1, 2, 3]}})";

}  // namespace

TEST_CASE("the embedded presets and experiments are the files in assets/, in file-name order", "[content]") {
    auto presets_here = json_files("assets/presets");
    REQUIRE(presets_here.size() == io::presets().size());
    for (std::size_t i = 0; i < presets_here.size(); ++i) {
        io::Preset p =
            io::preset_from_json(io::read_file(presets_here[i].string(), 1u << 20), presets_here[i].string());
        CHECK(p.name == io::presets()[i].name);
        CHECK(p.x.data == io::presets()[i].x.data);
    }
    auto experiments_here = json_files("assets/experiments");
    REQUIRE(experiments_here.size() == classroom::experiments().size());
    for (std::size_t i = 0; i < experiments_here.size(); ++i) {
        const std::string path = experiments_here[i].string();
        classroom::Experiment e = classroom::experiment_from_json(io::read_file(path, 1u << 20), path);
        CHECK(e.id == classroom::experiments()[i].id);
    }
}

TEST_CASE("a preset's tensor: values, or generated and transformed in order", "[content][presets]") {
    io::Preset p = io::preset_from_json(kPreset, "p.json");
    CHECK(p.source_zh == "源");
    CHECK(p.description == "d");
    REQUIRE(p.x.shape == core::Shape4{3, 3, 1, 2});
    // arange 0..11, channel c × 10^c, sample 1 + 0.5, then sample 2 = -(sample 0) + 2.
    const std::vector<float> want = {0,     1,       20,      30, 400, 500, 6.5f, 7.5f, 80.5f,
                                     90.5f, 1000.5f, 1100.5f, 2,  1,   -18, -28,  -398, -498};
    CHECK(p.x.data == want);
    CHECK(p.spec.method == core::Method::Group);
    CHECK(p.params.weight == std::vector<float>{1, 2, 3});
    io::Preset v = io::preset_from_json(R"({"normlab_preset": 1, "name": "v", "source": "s", "description": "d",
                                    "tensor": {"shape": [1, 1, 1, 2], "values": [0.25, -1]}})",
                                        "v.json");
    CHECK(v.x.data == std::vector<float>{0.25f, -1.0f});
    CHECK(v.spec.method == core::Method::Batch);  // a scene's default
}

TEST_CASE("malformed presets are refused with the file and the key", "[content][presets]") {
    CHECK(preset_error("[1]") == "p.json: a preset must be a JSON object");
    CHECK(preset_error("{").find("p.json: not valid JSON") == 0);
    CHECK(preset_error(R"({"name": "x"})") == "p.json: not a normlab preset (needs \"normlab_preset\": 1)");
    const std::string head = R"({"normlab_preset": 1, "name": "x", "source": "s", "description": "d", )";
    CHECK(preset_error(head + R"("tensor": {"shape": [1, 1, 1, 2], "values": [1]}})") ==
          "p.json: tensor.values has 1 numbers, shape [1, 1, 1, 2] needs 2");
    CHECK(preset_error(head + R"("tensor": {"shape": [1, 1, 1, 2]}})") ==
          "p.json: tensor.values or tensor.init is needed");
    CHECK(preset_error(head + R"("tensor": {"shape": [1, 1, 1, 2], "init": "ones", "colour": 1}})")
              .find("unknown key 'colour'") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [1024, 1024, 1, 1], "init": "ones"}})")
              .find("at most 65536 elements") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 1, 1, 2], "init": "ones",
                                  "transforms": [{"op": "scale", "by": [1, 2, 3], "along": "n"}]}})") ==
          "p.json: tensor.transforms[0].by has 3 numbers for 2 samples");
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 1, 1, 2], "init": "ones",
                                  "transforms": [{"op": "scale", "by": [1, 2]}]}})")
              .find("tensor.transforms[0].along must be n or c") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 1, 1, 2], "init": "ones",
                                  "transforms": [{"op": "append_sample", "from": 2}]}})")
              .find("tensor.transforms[0].from = 2 is out of range [0, 1]") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 1, 1, 2], "init": "ones", "transforms": [{"op": "rotate"}]}})")
              .find("'rotate' is not one of scale, add, append_sample") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 6, 1, 1], "init": "ones"},
                                  "norm": {"method": "group", "groups": 4}})")
              .find("divisible by num_groups") != std::string::npos);
    CHECK(preset_error(head + R"("tensor": {"shape": [2, 6, 1, 1], "init": "ones"}, "params": {"weight": [1]}})")
              .find("(the preset's tensor has shape [2, 6, 1, 1])") != std::string::npos);
    CHECK(preset_error(R"({"normlab_preset": 1, "name": "", "source": "s", "description": "d"})") ==
          "p.json: name must be a non-empty string");
    CHECK(preset_error(R"({"normlab_preset": 1, "name": "x", "source": {"fr": "s"}, "description": "d"})")
              .find("source has unknown language 'fr'") != std::string::npos);
}

TEST_CASE("experiments: kinds, pair keys and states checked against their tensors", "[content][experiments]") {
    const std::string head = R"({"normlab_experiment": 1, "id": "x", "title": "t", "explanation": "e", )";
    classroom::Experiment e = classroom::experiment_from_json(head + R"("kind": "pair",
        "state": {"tensor": {"source": "preset", "preset": "seed000-far-sample"}, "norm": {"method": "layer"}},
        "right": {"tensor": {"source": "preset", "preset": "seed000-far-sample"}, "norm": {"method": "layer"}},
        "left_label": "l", "right_label": "r", "left_samples": 4, "view": {"heatmap": "diff"}})",
                                                              "e.json");
    CHECK(e.kind == classroom::ExperimentKind::Pair);
    CHECK(e.left_samples == 4);
    CHECK(e.view.heatmap == "diff");
    CHECK(e.view.experiment == "x");
    CHECK(experiment_error("{}") == "e.json: not a normlab experiment (needs \"normlab_experiment\": 1)");
    CHECK(experiment_error(head + R"("kind": "triple", "state": {}})").find("kind 'triple' is not one of") !=
          std::string::npos);
    CHECK(experiment_error(head + R"("state": {}, "right": {}})") == "e.json: right is only for pair experiments");
    CHECK(experiment_error(head + R"("kind": "pair", "state": {}, "left_label": "l", "right_label": "r"})") ==
          "e.json: right is missing");
    CHECK(experiment_error(head + R"("state": {"view": {}}})").find("unknown state key 'view'") != std::string::npos);
    CHECK(experiment_error(head + R"("state": {"norm": {"method": "banana"}}})").find("unknown method 'banana'") !=
          std::string::npos);
    // LayerNorm([4]) fits the 2×4×3×4 preset, not the channels-last 2×3×4×4 right side.
    CHECK(experiment_error(head + R"("kind": "pair", "left_label": "l", "right_label": "r", "right_channels_last": true,
        "state": {"tensor": {"source": "preset", "preset": "layernorm-c-trap"},
                  "norm": {"method": "layer", "normalized_shape": [4]}},
        "right": {"tensor": {"source": "preset", "preset": "layernorm-c-trap"},
                  "norm": {"method": "layer", "normalized_shape": [3]}}})")
              .find("right: the tensor it normalizes has shape [2, 3, 4, 4]") != std::string::npos);
    CHECK(experiment_error(head + R"("state": {"tensor": {"source": "preset", "preset": "seed004-in"},
                                             "selection": [1, 0, 0, 0]}})")
              .find("outside the tensor") != std::string::npos);
    CHECK(experiment_error(head + R"("state": {}, "view": {"experiment": "y"}})").find("leave it out") !=
          std::string::npos);
    CHECK(experiment_error(head + R"("state": {}, "view": {"zoom": 2}})").find("unknown view key 'zoom'") !=
          std::string::npos);
}

TEST_CASE("presets and experiments may list the numbers their texts state under \"literals\"", "[content]") {
    const std::string preset = R"({"normlab_preset": 1, "name": "x", "source": "s", "description": "4x4", )";
    const std::string tensor = R"("tensor": {"shape": [1, 1, 1, 2], "init": "ones"}})";
    CHECK(io::preset_from_json(preset + tensor, "p.json").literals.empty());
    CHECK(io::preset_from_json(preset + R"("literals": ["4x4", "−1"], )" + tensor, "p.json").literals ==
          std::vector<std::string>{"4x4", "−1"});
    CHECK(preset_error(preset + R"("literals": [4], )" + tensor) == "p.json: literals must be a list of strings");
    CHECK(preset_error(preset + R"("literals": [""], )" + tensor).find("must list non-empty strings") !=
          std::string::npos);
    const std::string head = R"({"normlab_experiment": 1, "id": "x", "title": "t", "explanation": "e 004", )";
    const std::string state = R"("state": {"tensor": {"source": "preset", "preset": "seed004-bn"}}})";
    CHECK(classroom::experiment_from_json(head + R"("literals": ["004"], )" + state, "e.json").literals ==
          std::vector<std::string>{"004"});
    CHECK(experiment_error(head + R"("literals": "004", )" + state) == "e.json: literals must be a list of strings");
}
