// Golden fixtures made with PyTorch 1.13 (tests/golden/make_golden.py, float64 from the
// float32 inputs): the GPU output and statistics must match within 1e-5. Which keys a case needs
// follows from its method and flags; a needed key that is missing or null fails the case.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "normlab/io/npy.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

const std::string kDir = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/";

json load_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    return json::parse(in);
}

std::vector<double> as_doubles(const json& j) {
    std::vector<double> v;
    for (const auto& e : j) v.push_back(e.get<double>());
    return v;
}

// j[key], failing the test with the fixture's and the key's names when the key is missing or null.
const json& need(const json& j, const std::string& key, const std::string& fixture) {
    if (!j.contains(key) || j.at(key).is_null()) FAIL(fixture << ": the key \"" << key << "\" is missing or null");
    return j.at(key);
}

void check_close(const std::vector<double>& got, const json& want, double tol, const char* what) {
    REQUIRE(want.is_array());
    auto w = as_doubles(want);
    REQUIRE(got.size() == w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        INFO(what << "[" << i << "]");
        CHECK(std::abs(got[i] - w[i]) <= tol * std::max(1.0, std::abs(w[i])));
    }
}

// The case's spec and the flags of its parameters, from the keys its method needs (the others
// keep PyTorch's defaults).
core::NormSpec case_spec(const json& c, const std::string& in_cases, core::NormParams& p) {
    core::NormSpec spec = core::default_spec(*core::parse_method(need(c, "norm", in_cases)));
    spec.eps = need(c, "eps", in_cases).get<double>();
    spec.affine = need(c, "affine", in_cases).get<bool>();
    if (spec.method == core::Method::Group) spec.groups = need(c, "groups", in_cases);
    if (spec.method == core::Method::Layer || spec.method == core::Method::Rms)
        spec.normalized_shape = need(c, "normalized_shape", in_cases).get<std::vector<std::int64_t>>();
    if (spec.method == core::Method::Layer) spec.bias = need(c, "bias", in_cases).get<bool>();
    if (spec.method == core::Method::Batch) {
        spec.mode = *core::parse_mode(need(c, "mode", in_cases));
        const json& momentum = need(c, "momentum", in_cases);
        if (momentum.is_string())
            spec.momentum.reset();
        else
            spec.momentum = momentum.get<double>();
        spec.track_running_stats = need(c, "track_running_stats", in_cases);
        p.num_batches_tracked = need(c, "num_batches_tracked", in_cases);
    }
    return spec;
}

// max |y − want| against the float64 values of a .npy (read as doubles, not through read_npy's
// float32).
double max_error_vs_f64(const std::string& path, const std::vector<float>& y) {
    std::ifstream in(path, std::ios::binary);
    const std::string raw(std::istreambuf_iterator<char>(in), {});
    const std::size_t n = y.size();
    REQUIRE(raw.size() >= n * 8);
    const char* data = raw.data() + raw.size() - n * 8;
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double want;
        std::memcpy(&want, data + i * 8, 8);
        worst = std::max(worst, std::abs(static_cast<double>(y[i]) - want));
    }
    return worst;
}

// The statistics and running statistics against expected.json. Running statistics exist only for
// BatchNorm with track_running_stats (PyTorch's buffers are None otherwise): needed there, and
// absent or null everywhere else.
void check_statistics(const core::NormSpec& spec, const core::NormResult& r, const json& expected,
                      const std::string& in_expected) {
    CHECK(r.layout.stat_shape == need(expected, "stat_shape", in_expected).get<std::vector<std::int64_t>>());
    if (spec.method == core::Method::Rms) {
        check_close(r.mean_square, need(expected, "mean_square", in_expected), 1e-5, "mean_square");
    } else {
        check_close(r.mean, need(expected, "mean", in_expected), 1e-5, "mean");
        check_close(r.var, need(expected, "var", in_expected), 1e-5, "var");
    }
    const bool running = spec.method == core::Method::Batch && spec.track_running_stats;
    for (const char* key : {"running_mean", "running_var", "num_batches_tracked"}) {
        if (running)
            need(expected, key, in_expected);
        else
            CHECK((!expected.contains(key) || expected[key].is_null()));
    }
    if (running) {
        check_close(r.running_mean, expected["running_mean"], 1e-5, "running_mean");
        check_close(r.running_var, expected["running_var"], 1e-5, "running_var");
        CHECK(r.num_batches_tracked == expected["num_batches_tracked"].get<std::int64_t>());
    }
}

}  // namespace

TEST_CASE("PyTorch golden fixtures", "[golden][gpu]") {
    json cases = load_json(kDir + "cases.json");
    REQUIRE(cases.size() >= 30);
    for (const auto& c : cases) {
        const std::string name = need(c, "name", "cases.json").get<std::string>();
        const std::string dir = kDir + "cases/" + name + "/";
        const std::string in_cases = "cases.json[" + name + "]";
        INFO("case " << name);
        core::NormParams p;
        const core::NormSpec spec = case_spec(c, in_cases, p);
        auto files = need(c, "files", in_cases).get<std::vector<std::string>>();
        auto has = [&](const std::string& f) { return std::find(files.begin(), files.end(), f) != files.end(); };
        auto x_npy = io::read_npy(dir + "x.npy");
        CHECK(x_npy.shape == need(c, "shape", in_cases).get<std::vector<std::int64_t>>());
        core::Tensor x;
        x.shape = core::Shape4::from_dims(x_npy.shape);
        x.data = x_npy.data;
        if (has("weight.npy")) p.weight = io::read_npy(dir + "weight.npy").data;
        if (has("bias.npy")) p.bias = io::read_npy(dir + "bias.npy").data;
        if (has("running_mean.npy")) p.running_mean = io::read_npy(dir + "running_mean.npy").data;
        if (has("running_var.npy")) p.running_var = io::read_npy(dir + "running_var.npy").data;

        const auto r = normalizer().run(x, spec, p);
        CHECK(io::read_npy(dir + "y.npy").shape == x_npy.shape);
        CHECK(max_error_vs_f64(dir + "y.npy", r.y.data) <= 1e-5);
        check_statistics(spec, r, load_json(dir + "expected.json"), "cases/" + name + "/expected.json");
    }
}

TEST_CASE("error messages match PyTorch's (tests/golden/errors.json)", "[golden]") {
    json errors = load_json(kDir + "errors.json");
    int checked = 0;
    for (const auto& e : errors) {
        const std::string call = e["torch_call"];
        // nn.GroupNorm's constructor and F.group_norm(x, 0) raise Python-side errors of their
        // own; normlab words those cases as the core op (torch.group_norm / F.group_norm) does.
        if (call.rfind("nn.GroupNorm(4", 0) == 0 || call.rfind("nn.GroupNorm(0", 0) == 0 ||
            call.rfind("F.group_norm(x, 0", 0) == 0)
            continue;
        core::NormSpec spec = core::default_spec(*core::parse_method(e["norm"]));
        if (e.contains("groups")) spec.groups = e["groups"];
        if (e.contains("normalized_shape"))
            spec.normalized_shape = e["normalized_shape"].get<std::vector<std::int64_t>>();
        if (e.contains("mode")) spec.mode = *core::parse_mode(e["mode"]);
        if (e.contains("track_running_stats")) spec.track_running_stats = e["track_running_stats"];
        const auto dims = e["shape"].get<std::vector<std::int64_t>>();
        std::string got = core::rank_error(spec.method, dims);  // 1-D and 6-D: the refusal of the rank
        if (got.empty()) {
            try {
                core::make_layout(spec, core::Shape4::from_dims(dims));
            } catch (const core::InputError& err) {
                got = err.what();
            }
        }
        std::string want = e["message"];
        // torch 1.13's Python checks print torch.Size([..]); semantics.md (and normlab) print [..].
        for (const std::string pre : {"torch.Size("}) {
            auto pos = want.find(pre);
            if (pos != std::string::npos) {
                want.erase(pos, pre.size());
                want.erase(want.rfind(')'), 1);
            }
        }
        INFO(call);
        CHECK(got == want);
        ++checked;
    }
    CHECK(checked >= 6);
}
