// normlab-cli --backend cpu: the same run on engine/cpu's CPU backend — its statistics, y and
// gradients equal the Vulkan run's within 1e-5 (both checked against float64 by the CLI itself), and
// what it refuses: a tensor over its element limit (named), --figure and --device (Vulkan's), another
// backend's name.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// Every number within 1e-5 (relative above 1), every other value equal; the device, the GPU times
// and the float64 errors are each run's own.
void check_same(const json& a, const json& b, const std::string& where, int& numbers) {
    static const std::set<std::string> own = {"device", "gpu_ms", "max_abs_error_vs_reference", "grad_gpu_ms",
                                              "grad_max_abs_error_vs_reference"};
    if (a.is_number() && b.is_number()) {
        INFO(where << ": " << a << " vs " << b);
        CHECK(std::abs(a.get<double>() - b.get<double>()) <= 1e-5 * std::max(1.0, std::abs(a.get<double>())));
        ++numbers;
    } else if (a.is_array() && b.is_array()) {
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            check_same(a[i], b[i], where + "[" + std::to_string(i) + "]", numbers);
    } else if (a.is_object() && b.is_object()) {
        for (const auto& [key, value] : a.items()) {
            INFO(where << "." << key);
            REQUIRE(b.contains(key));
            if (!own.count(key)) check_same(value, b.at(key), where + "." + key, numbers);
        }
        CHECK(a.size() == b.size());
    } else {
        INFO(where);
        CHECK(a == b);
    }
}

json stats_of(const std::string& args, const std::string& name) {
    const fs::path out = tmpdir() / name;
    const Run r = cli(args + " --stats " + q(out));
    INFO(r.err);
    REQUIRE(r.status == 0);
    return json::parse(slurp(out));
}

}  // namespace

TEST_CASE("normlab-cli --backend cpu: statistics, y and gradients equal the Vulkan run's", "[cli][cpu]") {
    const std::string scenes = std::string(NORMLAB_SOURCE_DIR) + "/tests/web/scenes/";
    for (const std::string scene : {"batch_train.json", "group.json", "rms.json", "sync_local.json"}) {
        INFO(scene);
        const std::string args = "--scene " + q(scenes + scene) + " --quiet";
        const json cpu = stats_of(args + " --backend cpu", "cpu.json"), gpu = stats_of(args, "gpu.json");
        CHECK(cpu.at("device") == "CPU (float32)");
        CHECK(cpu.at("max_abs_error_vs_reference").get<double>() <= 1e-5);
        int numbers = 0;
        check_same(gpu, cpu, "", numbers);
        CHECK(numbers > 20);
    }
    // The backward: ∂L/∂x and ∂L/∂γ of LayerNorm.
    const fs::path x = tmpdir() / "x.npy", dy = tmpdir() / "dy.npy";
    write(x, patterned_npy({3, 4, 5, 6}));
    write(dy, patterned_npy({3, 4, 5, 6}, 0.5f));
    auto grads = [&](const std::string& backend, const std::string& tag) {
        const fs::path dx = tmpdir() / (tag + "-dx.npy"), dw = tmpdir() / (tag + "-dw.npy");
        const Run r = cli("--norm layer --normalized-shape 5,6 --input " + q(x) + " --grad-output " + q(dy) +
                          " --grad-input " + q(dx) + " --grad-weight " + q(dw) + " --quiet" + backend);
        INFO(r.err);
        REQUIRE(r.status == 0);
        return std::pair{io::read_npy(dx.string()).data, io::read_npy(dw.string()).data};
    };
    const auto [cpu_dx, cpu_dw] = grads(" --backend cpu", "cpu");
    const auto [gpu_dx, gpu_dw] = grads("", "gpu");
    REQUIRE(cpu_dx.size() == gpu_dx.size());
    REQUIRE(cpu_dw.size() == gpu_dw.size());
    for (std::size_t i = 0; i < cpu_dx.size(); ++i) CHECK(std::abs(cpu_dx[i] - gpu_dx[i]) <= 1e-5);
    for (std::size_t i = 0; i < cpu_dw.size(); ++i) CHECK(std::abs(cpu_dw[i] - gpu_dw[i]) <= 1e-4);
}

TEST_CASE("normlab-cli --backend cpu's summary names the CPU and its wall time, no GPU time", "[cli][cpu]") {
    const fs::path x = tmpdir() / "sx.npy", dy = tmpdir() / "sdy.npy", dx = tmpdir() / "sdx.npy";
    write(x, patterned_npy({2, 3, 4, 4}));
    write(dy, patterned_npy({2, 3, 4, 4}, 0.5f));
    const std::string args =
        "--norm layer --normalized-shape 4,4 --input " + q(x) + " --grad-output " + q(dy) + " --grad-input " + q(dx);
    const Run cpu = cli(args + " --backend cpu");
    INFO(cpu.out << cpu.err);
    REQUIRE(cpu.status == 0);
    CHECK(cpu.out.find("on CPU (float32)") != std::string::npos);
    CHECK(cpu.out.find("\ncpu ") != std::string::npos);
    CHECK(cpu.out.find("backward: cpu ") != std::string::npos);
    CHECK(cpu.out.find(" ms (wall)") != std::string::npos);
    CHECK(cpu.out.find("gpu") == std::string::npos);
    const Run gpu = cli(args);  // the Vulkan run keeps its GPU time
    REQUIRE(gpu.status == 0);
    CHECK(gpu.out.find("\ngpu ") != std::string::npos);
    CHECK(gpu.out.find("backward: gpu ") != std::string::npos);
}

TEST_CASE("normlab-cli --backend cpu refuses a tensor over its limit, --figure, --device and another backend",
          "[cli][cpu]") {
    check_refused("--backend cpu --norm batch --shape 5,64,128,128", "at most 4194304");
    check_refused("--backend cpu --norm batch --shape 2,3,4,4 --figure " + q(tmpdir() / "f.png"), "--figure");
    check_refused("--backend cpu --norm batch --shape 2,3,4,4 --device 0", "--device");
    const Run r = cli("--backend metal --norm batch --shape 2,3,4,4");
    CHECK(r.status == 2);
    CHECK(r.err.find("--backend") != std::string::npos);
}
