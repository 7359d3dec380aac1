// normlab-cli fed what a classroom or a script may feed it: .npy files of every header
// version and every kind of broken header, NaN/±Inf, constant tensors, absurd --groups and
// more statistics than one dispatch dimension holds. Errors exit 2 with one "error: " line.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sys/wait.h>

using namespace normlab;
using namespace normlab::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A .npy with a hand-written header dict (any version) followed by `data`.
std::string npy_raw(const std::string& dict, int major, const std::string& data) {
    std::string h = dict;
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    const std::size_t n = h.size();
    for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    return out + h + data;
}

std::string floats(const std::vector<float>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

std::vector<float> ramp(std::size_t n) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 11) * 0.5f - 2.0f;
    return v;
}

void expect_refused(const std::string& file, const std::string& bytes, const std::string& message) {
    const fs::path p = tmpdir() / file, y = tmpdir() / "y_refused.npy";
    write(p, bytes);
    fs::remove(y);
    check_refused("--norm layer --input '" + p.string() + "' --output '" + y.string() + "'", message);
    CHECK_FALSE(fs::exists(y));
}

}  // namespace

TEST_CASE("npy version 2 and 3 headers are read by the CLI", "[cli][robustness]") {
    const auto x = ramp(2 * 3 * 4 * 4);
    for (int major : {1, 2, 3}) {
        const fs::path in = tmpdir() / ("v" + std::to_string(major) + ".npy"), y = tmpdir() / "y_v.npy";
        write(in, npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4, 4), }", major, floats(x)));
        Run r = cli("--norm layer --input '" + in.string() + "' --output '" + y.string() + "'");
        INFO("version " << major << ": " << r.err);
        REQUIRE(r.status == 0);
        CHECK(io::read_npy(y.string()).shape == std::vector<std::int64_t>{2, 3, 4, 4});
    }
}

TEST_CASE("broken npy headers and sizes are refused without allocating", "[cli][robustness][errors]") {
    const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
    const auto x = floats(ramp(2 * 3 * 4 * 4));
    expect_refused("longer.npy", npy_raw(f4 + "(2, 3, 4, 4), }", 1, x + std::string(40, '\0')),
                   "bytes more data than its header says");
    expect_refused("not_dict.npy", npy_raw("['descr', '<f4']", 1, x), "expected a dict");
    expect_refused("not_dict2.npy", npy_raw("42", 2, x), "expected a dict");
    expect_refused("absurd.npy", npy_raw(f4 + "(1099511627776, 1099511627776, 1, 1), }", 1, x),
                   "needs more data than the file holds");
    expect_refused("overflow.npy", npy_raw(f4 + "(4294967296, 4294967296, 4294967296, 4294967296), }", 3, x),
                   "needs more data");
    expect_refused("huge_dim.npy", npy_raw(f4 + "(99999999999999999999999, 1, 1, 1), }", 1, x), "too large");
    expect_refused("negative.npy", npy_raw(f4 + "(2, -3, 4, 4), }", 1, x), "negative dimension");
    expect_refused("zero.npy", npy_raw(f4 + "(2, 0, 4, 4), }", 1, ""), "zero dimension");
    expect_refused("shorter.npy", npy_raw(f4 + "(2, 3, 4, 5), }", 1, x), "truncated data");
    std::string bad_len = npy_raw(f4 + "(2, 3, 4, 4), }", 2, x);
    bad_len[11] = '\x7f';  // a 2 GB header length in a small file
    expect_refused("bad_len.npy", bad_len, "bad .npy header length");
    expect_refused("version9.npy", "\x93NUMPY\x09" + npy_raw(f4 + "(2,), }", 1, "").substr(7),
                   "unsupported .npy version 9");
    expect_refused("unknown_key.npy",
                   npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4, 4), 'x': 1}", 1, x),
                   "unknown key 'x'");
    expect_refused("empty.npy", "", "file too short");
}

TEST_CASE("NaN and Inf in the input are counted and propagate only within their group", "[cli][robustness]") {
    auto x = ramp(2 * 3 * 4 * 4);
    const float inf = std::numeric_limits<float>::infinity();
    x[5] = std::numeric_limits<float>::quiet_NaN();  // sample 0
    x[7] = inf;                                      // sample 0
    x[20] = -inf;                                    // sample 0
    const fs::path in = tmpdir() / "nan.npy", y = tmpdir() / "y_nan.npy", s = tmpdir() / "s_nan.json";
    write(in, io::npy_bytes_f32({2, 3, 4, 4}, x.data()));
    Run r =
        cli("--norm layer --input '" + in.string() + "' --output '" + y.string() + "' --stats '" + s.string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("input holds 3 non-finite values") != std::string::npos);
    json j = json::parse(slurp(s));
    CHECK(j["nonfinite_inputs"] == 3);
    CHECK(j["mean"][0].is_null());  // LayerNorm: one statistic per sample; sample 0 holds NaN/Inf
    CHECK(j["mean"][1].is_number());
    auto out = io::read_npy(y.string()).data;
    for (std::size_t i = 0; i < 48; ++i) CHECK(std::isnan(out[i]));      // as PyTorch: the whole group is NaN
    for (std::size_t i = 48; i < 96; ++i) CHECK(std::isfinite(out[i]));  // the other sample is untouched
    // No non-finite values: no line, and the count is 0.
    Run clean = cli("--norm layer --shape 2,3,4,4 --stats '" + s.string() + "'");
    CHECK(clean.out.find("non-finite") == std::string::npos);
    CHECK(json::parse(slurp(s))["nonfinite_inputs"] == 0);
}

TEST_CASE("a constant tensor (zero variance) gives y = beta, no division trouble", "[cli][robustness]") {
    const fs::path b = tmpdir() / "beta.npy", y = tmpdir() / "y_const.npy", s = tmpdir() / "s_const.json";
    const std::vector<float> beta{0.25f, -1.5f, 3.0f};
    write(b, io::npy_bytes_f32({3}, beta.data()));
    for (const std::string norm : {"batch", "instance", "group --groups 3"}) {
        Run r = cli("--norm " + norm + " --affine --shape 2,3,4,4 --init constant --value 7 --bias '" + b.string() +
                    "' --output '" + y.string() + "' --stats '" + s.string() + "'");
        INFO(norm << ": " << r.err);
        REQUIRE(r.status == 0);
        auto out = io::read_npy(y.string()).data;
        for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == beta[(i / 16) % 3]);
        json j = json::parse(slurp(s));
        for (const auto& v : j["var"]) CHECK(v.get<double>() == 0.0);
    }
    Run ln = cli("--norm layer --shape 2,3,4,4 --init constant --value -4 --output '" + y.string() + "'");
    REQUIRE(ln.status == 0);
    for (float v : io::read_npy(y.string()).data) CHECK(v == 0.0f);
    Run rms = cli("--norm rms --shape 2,3,4,4 --init zeros --output '" + y.string() +
                  "'");  // mean square 0: rstd = 1/sqrt(eps)
    REQUIRE(rms.status == 0);
    for (float v : io::read_npy(y.string()).data) CHECK(v == 0.0f);
}

TEST_CASE("absurd --groups values are refused with PyTorch's message", "[cli][robustness][errors]") {
    for (const std::string g : {"1000000000000", "9223372036854775807", "7"}) {
        Run r = cli("--norm group --groups " + g + " --shape 2,6,4,4");
        INFO(g << ": " << r.err);
        CHECK(r.status == 2);
        CHECK(r.err.find("Expected number of channels in input to be divisible by num_groups") != std::string::npos);
    }
    Run over = cli("--norm group --groups 99999999999999999999999 --shape 2,6,4,4");
    CHECK(over.status == 2);
    CHECK(over.err.rfind("error: ", 0) == 0);
}

TEST_CASE("more statistics than one dispatch dimension holds still run, validation-clean", "[cli][robustness]") {
    // 131072 and 200000 statistics: more workgroups than maxComputeWorkGroupCount[0] (65535
    // on lavapipe) if each statistic had its own; ctest runs this with the validation layer.
    const fs::path s = tmpdir() / "s_many.json";
    for (const std::string args : {"--norm instance --shape 1,131072,1,2", "--norm batch --shape 2,200000,1,1",
                                   "--norm group --groups 100000 --shape 1,200000,1,2"}) {
        Run r = cli(args + " --stats '" + s.string() + "'");
        INFO(args << ": " << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.err.empty());
        json j = json::parse(slurp(s));
        CHECK(j["max_abs_error_vs_reference"].get<double>() < 1e-5);
    }
}

TEST_CASE("a scene key its source does not read: exit 2, one line naming it, nothing written", "[cli][errors]") {
    const fs::path scene = tmpdir() / "forgot-source.normlab.json", out = tmpdir() / "forgot-source.npy";
    write(scene, R"({"normlab_scene": 1, "tensor": {"path": "/etc/passwd"}})");
    const Run r = cli("--scene '" + scene.string() + "' --output '" + out.string() + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find("tensor.path is read only with \"source\": \"file\" or \"image\"") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("the figure size follows the renderer's one rule, checked before any GPU work", "[cli][errors]") {
    const fs::path fig = tmpdir() / "too-small.png";
    // NORMLAB_DEVICE names no device: a check that ran after the GPU start would say so instead.
    const Run r = cli("--norm layer --shape 2,3,4,4 --figure '" + fig.string() + "' --figure-size 100x100",
                      "NORMLAB_DEVICE=no-such-device");
    CHECK(r.status == 2);
    CHECK(r.err.find("--figure-size must look like 1400x900 (200x150 to 8192x8192), got '100x100'") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(fig));
}
