// PyTorch's golden cases run through normlab-cli as a user would: the ONNX backend test cases of
// LayerNormalization (every axis of 2-D to 5-D tensors, axis 0 the whole tensor), BatchNormalization
// (inference and training mode) and InstanceNormalization (tests/golden/golden_onnx.py), LayerNorm
// and RMSNorm of a 1-D tensor, and normalized_shape over every dim. Each: y within 1e-5 of
// PyTorch's float64 output, the statistics and the running statistics within 1e-5.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

const fs::path kGolden = fs::path(NORMLAB_SOURCE_DIR) / "tests/golden";

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

std::string fmt_eps(const json& v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return buf;
}

std::string csv(const json& dims) {
    std::string s;
    for (const auto& d : dims) s += (s.empty() ? "" : ",") + std::to_string(d.get<std::int64_t>());
    return s;
}

bool has_file(const json& c, const std::string& f) {
    for (const auto& x : c["files"])
        if (x == f) return true;
    return false;
}

// normlab-cli's arguments for a golden case (cases.json's keys, README.md).
std::string args_of(const json& c, const fs::path& dir) {
    const std::string norm = c["norm"];
    std::string a = "--norm " + norm + " --input " + q(dir / "x.npy") + " --eps " + fmt_eps(c["eps"]);
    if (c.contains("normalized_shape")) a += " --normalized-shape " + csv(c["normalized_shape"]);
    if (c.contains("groups")) a += " --groups " + std::to_string(c["groups"].get<int>());
    if (has_file(c, "weight.npy")) a += " --weight " + q(dir / "weight.npy");
    if (has_file(c, "bias.npy")) a += " --bias " + q(dir / "bias.npy");
    if (!c["affine"].get<bool>()) a += " --no-affine";
    if (norm == "layer" && c["affine"].get<bool>() && !c["bias"].get<bool>()) a += " --no-bias";
    if (norm == "instance" && c["affine"].get<bool>()) a += " --affine";
    if (norm == "batch") {
        a += " --mode " + c["mode"].get<std::string>();
        a += " --momentum " + (c["momentum"].is_string() ? std::string("cumulative") : fmt_eps(c["momentum"]));
        a += " --num-batches-tracked " + std::to_string(c["num_batches_tracked"].get<int>());
        if (has_file(c, "running_mean.npy"))
            a += " --running-mean " + q(dir / "running_mean.npy") + " --running-var " + q(dir / "running_var.npy");
    }
    return a;
}

double worst(const json& got, const json& want) {
    REQUIRE(got.size() == want.size());
    double w = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        w = std::max(w, std::abs(got[i].get<double>() - want[i].get<double>()));
    return w;
}

void check_case(const json& c) {
    const std::string name = c["name"];
    const fs::path dir = kGolden / "cases" / name, y = tmpdir() / (name + "-y.npy"), s = tmpdir() / (name + "-s.json");
    const std::string args = args_of(c, dir);
    INFO(name << ": " << args);
    Run r = cli(args + " --output " + q(y) + " --stats " + q(s) + " -q");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const io::NpyArray got = io::read_npy(y.string()), want = io::read_npy((dir / "y.npy").string());
    REQUIRE(got.shape == want.shape);
    double w = 0;
    for (std::size_t i = 0; i < got.data.size(); ++i)
        w = std::max(w, std::abs(double(got.data[i]) - double(want.data[i])));
    CHECK(w <= 1e-5);
    const json st = json::parse(slurp(s)), e = json::parse(slurp(dir / "expected.json"));
    CHECK(st["stat_shape"] == e["stat_shape"]);
    for (const char* k : {"mean", "var", "mean_square", "running_mean", "running_var"})
        if (e.contains(k) && !e[k].is_null()) CHECK(worst(st[k], e[k]) <= 1e-5);
    if (e.contains("num_batches_tracked") && !e["num_batches_tracked"].is_null())
        CHECK(st["num_batches_tracked"] == e["num_batches_tracked"]);
}

std::vector<json> cases_named(const std::vector<std::string>& prefixes) {
    std::vector<json> out;
    for (const auto& c : json::parse(slurp(kGolden / "cases.json")))
        for (const auto& p : prefixes)
            if (c["name"].get<std::string>().rfind(p, 0) == 0) out.push_back(c);
    return out;
}

}  // namespace

TEST_CASE("the ONNX backend cases of LayerNormalization, BatchNormalization and InstanceNormalization",
          "[cli][golden][onnx]") {
    const auto cases = cases_named({"onnx_"});
    CHECK(cases.size() == 23);  // 14 axes of 2-D to 5-D tensors, 3 with epsilon 0.1, 4 BatchNorm, 2 InstanceNorm
    int axis0 = 0;
    for (const auto& c : cases) {
        check_case(c);
        const std::string n = c["name"];
        axis0 += n.find("_axis0") != std::string::npos;
    }
    CHECK(axis0 == 5);  // the whole tensor of 2-D, 3-D, 4-D, 5-D, and 3-D with epsilon
}

TEST_CASE("LayerNorm and RMSNorm of a 1-D tensor and over every dim equal PyTorch", "[cli][golden][ranks]") {
    const auto cases = cases_named({"layer1d_", "rms1d_", "layer_all_", "rms_all_"});
    CHECK(cases.size() == 7);
    for (const auto& c : cases) check_case(c);
}
