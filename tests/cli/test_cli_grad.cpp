// normlab-cli's backward pass: --grad-output with every input source (.npy, preset, scene),
// the gradient files against the float64 reference's numbers written by the CLI itself, the
// stats keys, and the refusals (shape mismatch naming both shapes, no weight, no grad-output):
// exit 2, one "error: " line, nothing written.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

using namespace normlab;
using namespace normlab::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// A dy of the given shape with values that vary (sign-mixed, not a multiple of y).
fs::path write_dy(const std::string& name, const std::vector<std::int64_t>& shape, bool f64 = false) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.7 * static_cast<double>(i)) + 0.25;
    const fs::path p = tmpdir() / name;
    if (f64) {
        write(p, io::npy_bytes_f64(shape, v.data()));
    } else {
        std::vector<float> f(v.begin(), v.end());
        write(p, io::npy_bytes_f32(shape, f.data()));
    }
    return p;
}

void expect_refused(const std::string& args, const std::string& message, const fs::path& must_not_exist) {
    fs::remove(must_not_exist);
    check_refused(args, message);
    CHECK_FALSE(fs::exists(must_not_exist));
}

}  // namespace

TEST_CASE("a grad-output of another shape: exit 2 naming both shapes, nothing written", "[cli][grad]") {
    const fs::path dy = write_dy("dy_wrong.npy", {2, 3, 5, 4}), dx = tmpdir() / "dx_refused.npy",
                   y = tmpdir() / "y_refused_grad.npy";
    fs::remove(y);
    expect_refused(
        "--norm batch --shape 2,3,4,5 --grad-output " + q(dy) + " --grad-input " + q(dx) + " --output " + q(y),
        "--grad-output has shape [2, 3, 5, 4], the input has shape [2, 3, 4, 5]", dx);
    CHECK_FALSE(fs::exists(y));
}

TEST_CASE("grad-weight without a weight and grad-input without --grad-output are refused", "[cli][grad]") {
    const fs::path dy = write_dy("dy_2345.npy", {2, 3, 4, 5}), dw = tmpdir() / "dw_refused.npy";
    expect_refused("--norm instance --shape 2,3,4,5 --grad-output " + q(dy) + " --grad-weight " + q(dw),
                   "has no weight", dw);
    expect_refused("--norm layer --no-bias --shape 2,3,4,5 --grad-output " + q(dy) + " --grad-bias " + q(dw),
                   "has no bias", dw);
    expect_refused("--norm layer --shape 2,3,4,5 --grad-input " + q(dw), "--grad-input needs --grad-output", dw);
}

TEST_CASE("grad-output from a generated tensor, a preset and a scene writes every gradient", "[cli][grad]") {
    struct Source {
        std::string args;
        std::vector<std::int64_t> shape;
    };
    const fs::path scene = tmpdir() / "grad_scene.json";
    write(scene, R"({"normlab_scene": 1, "tensor": {"source": "generated", "shape": [3, 4, 2, 5], "seed": 9},
                     "norm": {"method": "group", "groups": 2}})");
    for (const Source& s : {Source{"--norm batch --shape 3,4,5,2 --seed 4", {3, 4, 5, 2}},
                            Source{"--norm layer --normalized-shape 5,2 --shape 3,4,5,2 --seed 4", {3, 4, 5, 2}},
                            Source{"--norm batch --preset seed004-bn", {}}, Source{"--scene " + q(scene), {3, 4, 2, 5}},
                            Source{"--norm rms --shape 2,3,4,5 --seed 1", {2, 3, 4, 5}}}) {
        // The preset's shape: from a forward run's stats.
        std::vector<std::int64_t> shape = s.shape;
        const fs::path stats = tmpdir() / "grad_stats.json";
        if (shape.empty()) {
            Run r0 = cli(s.args + " --stats " + q(stats));
            REQUIRE(r0.status == 0);
            shape = json::parse(slurp(stats))["shape"].get<std::vector<std::int64_t>>();
        }
        for (bool f64 : {false, true}) {
            const fs::path dy = write_dy(f64 ? "dy64.npy" : "dy32.npy", shape, f64), dx = tmpdir() / "dx.npy",
                           dw = tmpdir() / "dw.npy", db = tmpdir() / "db.npy";
            fs::remove(dx);
            fs::remove(dw);
            fs::remove(db);
            Run r = cli(s.args + " --grad-output " + q(dy) + " --grad-input " + q(dx) + " --grad-weight " + q(dw) +
                        (s.args.find("rms") == std::string::npos ? " --grad-bias " + q(db) : std::string()) +
                        " --stats " + q(stats));
            INFO(s.args << (f64 ? " float64 dy" : " float32 dy") << "\n" << r.err);
            REQUIRE(r.status == 0);
            CHECK(r.out.find("backward: gpu") != std::string::npos);
            auto dxa = io::read_npy(dx.string());
            CHECK(dxa.shape == shape);
            auto st = json::parse(slurp(stats));
            CHECK(st["grad_gpu_ms"].is_number());
            REQUIRE(st["grad_max_abs_error_vs_reference"].is_number());
            CHECK(st["grad_max_abs_error_vs_reference"].get<double>() <= 1e-4);
            auto dwa = io::read_npy(dw.string());
            CHECK(dwa.shape == st["param_shape"].get<std::vector<std::int64_t>>());
            if (s.args.find("rms") == std::string::npos) CHECK(io::read_npy(db.string()).shape == dwa.shape);
            // ∂L/∂β = Σ dy per parameter; the dy written above makes it non-zero.
            double sum = 0;
            for (float v : dxa.data) sum += std::abs(v);
            CHECK(sum > 0);
        }
    }
}
