// PyTorch's golden runs (tests/golden/train/*.json, made by tests/golden/golden_train.py) against the
// Vulkan runner and the float64 reference (label train): from the golden initial parameters and data,
// 30 steps of each case, checked by train_checks.hpp's check_mlp_golden (the browser's suite runs the same
// check on WebGPU): the loss at every step within 1e-4 relative, the final parameters and buffers within
// 1e-3 (relative above 1), the final validation loss within 1e-4. Elements that Adam drives from float
// rounding noise (MlpReference::noise_bound) are left out of the parameter check. Also checks that
// engine/train still draws the golden initial parameters and data.
#include "train_harness.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace normlab;

namespace {

const std::filesystem::path kGoldenDir = std::filesystem::path(NORMLAB_SOURCE_DIR) / "tests/golden/train";

std::vector<std::string> case_names() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(kGoldenDir))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

nlohmann::json load_case(const std::string& name) {
    std::ifstream in(kGoldenDir / (name + ".json"));
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("train: golden cases are present", "[train]") { CHECK(case_names().size() == 10); }

TEST_CASE("train: device and float64 reference match PyTorch's golden runs", "[train]") {
    const auto name = GENERATE(from_range(case_names()));
    INFO("golden case " << name);
    const auto j = load_case(name);
    const auto g = normlab::test::mlp_golden(j);
    // The device's own plan (as normlab-cli's): train_linear_norm where a row norm comes before its activation.
    const auto dev = normlab::test::run_on_device(g.config, g.init, g.data, 8, normlab::test::device_plan_options());
    const auto failures = normlab::test::check_mlp_golden(j, g, dev);
    for (const auto& f : failures) FAIL_CHECK(f);
    CHECK(failures.empty());
}
