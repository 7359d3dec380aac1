// normlab-cli as a user runs it: every invalid input ends with exit 2 (no device: 3), one
// "error: " line on stderr worded as PyTorch words it, and no output file created or changed;
// a normal run per method writes y, the statistics and the group map.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>

using namespace normlab;
using namespace normlab::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs a failing invocation with --output/--stats/--group-map pointing at one existing file
// (which must keep its content) and two absent ones (which must not appear).
void expect_error(const std::string& args, const std::string& message, int status = 2) {
    fs::path keep = tmpdir() / "keep.npy", absent1 = tmpdir() / "absent.json", absent2 = tmpdir() / "absent_map.npy";
    write(keep, "old content");
    fs::remove(absent1);
    fs::remove(absent2);
    check_refused(args + " --output '" + keep.string() + "' --stats '" + absent1.string() + "' --group-map '" +
                      absent2.string() + "'",
                  message, status);
    CHECK(slurp(keep) == "old content");
    CHECK_FALSE(fs::exists(absent1));
    CHECK_FALSE(fs::exists(absent2));
    for (const auto& entry : fs::directory_iterator(tmpdir()))  // no temporary left behind
        CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
}

}  // namespace

TEST_CASE("bad .npy inputs", "[cli][errors]") {
    const fs::path d = tmpdir();
    write(d / "garbage.npy", "this is not numpy at all");
    expect_error("--norm layer --input '" + (d / "garbage.npy").string() + "'", "bad magic");
    std::string good = patterned_npy({2, 3, 4, 4});
    write(d / "truncated.npy", good.substr(0, good.size() - 10));
    expect_error("--norm layer --input '" + (d / "truncated.npy").string() + "'", "truncated data");
    write(d / "one_d.npy", patterned_npy({12}));
    expect_error("--norm batch --input '" + (d / "one_d.npy").string() + "'", "expected 2D or 3D input (got 1D input)");
    write(d / "six_d.npy", patterned_npy({2, 3, 2, 2, 2, 2}));
    expect_error("--norm instance --input '" + (d / "six_d.npy").string() + "'",
                 "expected 4D or 5D input (got 6D input)");
    expect_error("--norm layer --input '" + (d / "six_d.npy").string() + "'",
                 "normlab takes 1-D to 5-D tensors (D / N,C / N,L,D / N,C,H,W / N,C,D,H,W; 1-D under LayerNorm "
                 "and RMSNorm only), got 6-D shape [2, 3, 2, 2, 2, 2]");
    std::string i8 = good;
    i8.replace(i8.find("<f4"), 3, "<i8");
    write(d / "int64.npy", i8);
    expect_error("--norm layer --input '" + (d / "int64.npy").string() + "'", "unsupported dtype '<i8'");
    std::string be = good;
    be.replace(be.find("<f4"), 3, ">f4");
    write(d / "bigendian.npy", be);
    expect_error("--norm layer --input '" + (d / "bigendian.npy").string() + "'", "big-endian");
    std::string fo = good;
    fo.replace(fo.find("False"), 5, "True ");
    write(d / "fortran.npy", fo);
    expect_error("--norm layer --input '" + (d / "fortran.npy").string() + "'", "Fortran");
    expect_error("--norm layer --input '" + (d / "missing.npy").string() + "'", "No such file");
}

TEST_CASE("bad shapes", "[cli][errors]") {
    expect_error("--norm layer --shape 0,3,4,4", "--shape must be 1 to 5 positive integers");
    expect_error("--norm layer --shape 2,-3,4,4", "--shape must be 1 to 5 positive integers");
    expect_error("--norm layer --shape 2,3,x", "--shape must be 1 to 5 positive integers");
    expect_error("--norm layer --shape 2,3,4,4,5,6,7", "normlab takes 1-D to 5-D tensors");
    expect_error("--norm layer --shape 100000,100000,100000,100000", "has more than 2147483647 elements");
    expect_error("--norm layer --shape 1024,1024,1024,1", "the device");
}

TEST_CASE("PyTorch's errors for bad configurations", "[cli][errors]") {
    expect_error("--norm group --groups 4 --shape 2,6,4,4",
                 "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6, 4, "
                 "4] and num_groups=4");
    expect_error("--norm group --groups 0 --shape 2,6,4,4", "Expected num groups to be greater than 0, got 0");
    expect_error("--norm group --groups -2 --shape 2,6,4,4", "Expected num groups to be greater than 0, got -2");
    expect_error("--norm layer --normalized-shape 5 --shape 2,3,4,4",
                 "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 3, 4, 4]");
    expect_error("--norm rms --normalized-shape 3,5 --shape 2,3,4,4", "expected input with shape [*, 3, 5]");
    expect_error("--norm batch --shape 1,3,1,1",
                 "Expected more than 1 value per channel when training, got input size [1, 3, 1, 1]");
    expect_error("--norm instance --shape 2,3,1,1",
                 "Expected more than 1 spatial element when training, got input size [2, 3, 1, 1]");
    expect_error("--norm group --shape 2,6,4,4", "--norm group needs --groups G");
    expect_error("--norm banana --shape 2,6,4,4", "unknown --norm 'banana'");
    expect_error("--norm layer --shape 2,6,4,4 --eps -1", "eps must be a finite number >= 0");
    expect_error("--norm batch --shape 2,6,4,4 --momentum 2", "--momentum must be a number in [0, 1]");
    expect_error("--norm layer --shape 2,6,4,4 --preset seed004-bn", "give only one of");
    expect_error("--norm layer --preset nope", "unknown preset 'nope'");
    expect_error("--norm layer --shape 2,6,4,4 --bogus-flag", "--bogus-flag");
}

TEST_CASE("parameter files of the wrong shape", "[cli][errors]") {
    const fs::path d = tmpdir();
    write(d / "w5.npy", patterned_npy({5}));
    write(d / "w3.npy", patterned_npy({3}));
    write(d / "w44.npy", patterned_npy({4, 4}));
    expect_error("--norm batch --shape 2,3,4,4 --weight '" + (d / "w5.npy").string() + "'", "--weight");
    expect_error("--norm batch --shape 2,3,4,4 --bias '" + (d / "w5.npy").string() + "'",
                 "has shape [5], expected [3]");
    expect_error("--norm layer --shape 2,3,4,4 --weight '" + (d / "w3.npy").string() + "'", "expected [3, 4, 4]");
    expect_error("--norm layer --normalized-shape 4,4 --shape 2,3,4,4 --bias '" + (d / "w3.npy").string() + "'",
                 "expected [4, 4]");
    expect_error("--norm group --groups 3 --shape 2,3,4,4 --weight '" + (d / "w44.npy").string() + "'", "expected [3]");
    expect_error("--norm batch --shape 2,3,4,4 --running-mean '" + (d / "w5.npy").string() + "'", "--running-mean");
    expect_error("--norm batch --shape 2,3,4,4 --running-var '" + (d / "w44.npy").string() + "'", "--running-var");
    expect_error("--norm rms --shape 2,3,4,4 --normalized-shape 4 --bias '" + (d / "w44.npy").string() + "'", "bias");
    expect_error("--norm layer --shape 2,3,4,4 --running-mean '" + (d / "w3.npy").string() + "'",
                 "only used by --norm batch");
}

TEST_CASE("no usable Vulkan device gives exit 3 with a way to get one", "[cli][errors]") {
    // An ICD list naming no driver: the loader finds no device.
    fs::path icd = tmpdir() / "none.json";
    write(icd, R"({"file_format_version": "1.0.0", )"
               R"("ICD": {"library_path": "/nonexistent/libvulkan_none.so", "api_version": "1.1.0"}})");
    fs::path keep = tmpdir() / "keep3.npy";
    write(keep, "old");
    Run r = cli("--norm layer --shape 2,3,4,4 --output '" + keep.string() + "'",
                "VK_DRIVER_FILES='" + icd.string() + "' VK_ICD_FILENAMES='" + icd.string() + "' NORMLAB_VALIDATION=0");
    INFO(r.err);
    CHECK(r.status == 3);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.err.find("mesa-vulkan-drivers") != std::string::npos);
    CHECK(slurp(keep) == "old");
    Run d = cli("--norm layer --shape 2,3,4,4 --device 'no such gpu'");
    CHECK(d.status == 3);
    CHECK(d.err.find("no Vulkan device matches") != std::string::npos);
}

TEST_CASE("a normal run per method writes y, statistics and the group map", "[cli]") {
    const fs::path d = tmpdir();
    struct Case {
        std::string args;
        core::NormSpec spec;
    };
    std::vector<Case> cases;
    for (const core::MethodInfo& m : core::methods()) {  // every method of the table, with what it needs
        Case c{std::string("--norm ") + m.name, core::default_spec(m.id)};
        if (m.id == core::Method::Group) {
            c.args += " --groups 3";
            c.spec.groups = 3;
        }
        if (m.id == core::Method::Layer) {
            c.args += " --normalized-shape 4,5";
            c.spec.normalized_shape = {4, 5};
        }
        cases.push_back(c);
    }
    write(d / "x.npy", patterned_npy({2, 6, 4, 5}, -1.0f));
    for (const auto& c : cases) {
        fs::path y = d / "y.npy", s = d / "s.json", m = d / "map.npy";
        Run r = cli(c.args + " --input '" + (d / "x.npy").string() + "' --output '" + y.string() + "' --stats '" +
                    s.string() + "' --group-map '" + m.string() + "'");
        INFO(c.args << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.err.empty());
        auto x = io::read_npy((d / "x.npy").string());
        core::Tensor t;
        t.shape = core::Shape4::from_dims(x.shape);
        t.data = x.data;
        auto out = io::read_npy(y.string());
        CHECK(out.shape == x.shape);
        CHECK(reference::Reference(t, c.spec, {}).max_abs_error(out.data) <= 1e-5);
        json j = json::parse(slurp(s));
        for (const char* key :
             {"norm", "shape", "eps", "stat_shape", "count", "device", "gpu_ms", "max_abs_error_vs_reference"})
            CHECK(j.contains(key));
        CHECK(j["norm"] == core::method_name(c.spec.method));
        CHECK(j["max_abs_error_vs_reference"].get<double>() <= 1e-5);
        CHECK(j["gpu_ms"].get<double>() > 0);
        core::StatLayout layout = core::make_layout(c.spec, t.shape);
        CHECK(j["stat_shape"].get<std::vector<std::int64_t>>() == layout.stat_shape);
        CHECK(j["count"] == layout.count());
        if (c.spec.method == core::Method::Rms) {
            CHECK(j["mean_square"].size() == static_cast<std::size_t>(layout.stat_count));
        } else {
            CHECK(j["mean"].size() == static_cast<std::size_t>(layout.stat_count));
            CHECK(j["var"].size() == static_cast<std::size_t>(layout.stat_count));
        }
        if (c.spec.method == core::Method::Batch) {
            CHECK(j["running_mean"].size() == 6);
            CHECK(j["running_var"].size() == 6);
            CHECK(j["num_batches_tracked"] == 1);
        }
        std::string map_bytes = slurp(m);
        CHECK(map_bytes.find("'<i4'") != std::string::npos);
        auto expect = layout.group_map();
        REQUIRE(map_bytes.size() >= expect.size() * 4);
        CHECK(std::memcmp(map_bytes.data() + map_bytes.size() - expect.size() * 4, expect.data(), expect.size() * 4) ==
              0);
    }
}

TEST_CASE("InstanceNorm with --weight or --bias is affine, as F.instance_norm(x, weight=w, bias=b)", "[cli]") {
    const fs::path d = tmpdir(), x = d / "x_in.npy", w = d / "w_in.npy", b = d / "b_in.npy", y = d / "y_in.npy",
                   s = d / "s_in.json";
    write(x, patterned_npy({2, 3, 4, 5}, -1.0f));
    const std::vector<float> gamma{2.0f, -0.5f, 1.5f}, beta{0.25f, -1.0f, 3.0f};
    write(w, io::npy_bytes_f32({3}, gamma.data()));
    write(b, io::npy_bytes_f32({3}, beta.data()));
    auto xs = io::read_npy(x.string());
    core::Tensor t;
    t.shape = core::Shape4::from_dims(xs.shape);
    t.data = xs.data;
    core::NormSpec affine = core::default_spec(core::Method::Instance);
    affine.affine = true;
    struct Case {
        std::string args;
        core::NormParams params;
    };
    const std::string W = " --weight '" + w.string() + "'", B = " --bias '" + b.string() + "'";
    for (const Case& c : {Case{W + B, {gamma, beta}}, Case{W, {gamma, {}}}, Case{B, {{}, beta}},
                          Case{" --affine" + W + B, {gamma, beta}}}) {
        Run r = cli("--norm instance --input '" + x.string() + "'" + c.args + " --output '" + y.string() +
                    "' --stats '" + s.string() + "'");
        INFO(c.args << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(reference::Reference(t, affine, c.params).max_abs_error(io::read_npy(y.string()).data) <= 1e-5);
        CHECK(json::parse(slurp(s))["params"]["affine"] == true);
    }
    const std::string refused = "--weight and --bias cannot be used with --no-affine";
    expect_error("--norm instance --shape 2,3,4,4 --no-affine" + W, refused);
    expect_error("--norm instance --shape 2,3,4,4 --no-affine" + B, refused);
    expect_error("--norm batch --shape 2,3,4,4 --no-affine" + W, refused);
    expect_error("--norm instance --shape 2,3,4,4 --affine --no-affine" + W, "give only one of --affine and");
}

TEST_CASE("BatchNorm eval: the statistics JSON holds the running statistics that were applied", "[cli]") {
    const fs::path d = tmpdir(), rm = d / "rm.npy", rv = d / "rv.npy", s = d / "s_eval.json";
    const std::vector<float> mean{0.5f, -1.0f, 2.0f}, var{4.0f, 0.25f, 1.0f};
    write(rm, io::npy_bytes_f32({3}, mean.data()));
    write(rv, io::npy_bytes_f32({3}, var.data()));
    Run r = cli("--norm batch --mode eval --shape 2,3,4,4 --running-mean '" + rm.string() + "' --running-var '" +
                rv.string() + "' --stats '" + s.string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    json j = json::parse(slurp(s));
    CHECK(j["stats_source"] == "running");
    for (std::size_t c = 0; c < 3; ++c) {
        CHECK(j["mean"][c].get<double>() == Approx(mean[c]));
        CHECK(j["var"][c].get<double>() == Approx(var[c]));
    }
    Run train = cli("--norm batch --shape 2,3,4,4 --stats '" + s.string() + "'");
    REQUIRE(train.status == 0);
    CHECK(json::parse(slurp(s))["stats_source"] == "input");
}

TEST_CASE("exit statuses: 0 for --help and listings, 2 for bad options, one error line", "[cli][errors]") {
    Run h = cli("--help");
    CHECK(h.status == 0);
    CHECK(h.out.find(core::method_names(" | ", " | ")) != std::string::npos);  // --norm's help, from the method table
    Run bad = cli("--norm layer --shape 2,3,4,4 --eps");
    CHECK(bad.status == 2);
    CHECK(bad.err.rfind("error: ", 0) == 0);
    CHECK(bad.err.find("(see --help)") != std::string::npos);
    Run none = cli("--shape 2,3,4,4");
    CHECK(none.status == 2);
    CHECK(none.err == "error: --norm is required (" + core::method_names() + ")\n");
}

TEST_CASE("presets, generated tensors and listings", "[cli]") {
    Run p = cli("--list-presets");
    CHECK(p.status == 0);
    for (const char* name : {"seed003-in-vs-ln", "seed004-bn", "seed004-in", "seed000-far-sample"})
        CHECK(p.out.find(name) != std::string::npos);
    Run d = cli("--list-devices");
    CHECK(d.status == 0);
    CHECK(d.out.find("llvmpipe") != std::string::npos);
    fs::path s = tmpdir() / "bn.json";
    Run r = cli("--norm batch --preset seed004-bn --stats '" + s.string() + "'");
    REQUIRE(r.status == 0);
    json j = json::parse(slurp(s));
    CHECK(j["mean"][0].get<double>() == Approx(0.5));
    CHECK(j["var"][0].get<double>() == Approx(1.625));
    CHECK(j["running_var"][0].get<double>() == Approx(0.9 + 0.1 * 1.625 * 4 / 3));
    Run g = cli("--norm group --groups 2 --shape 2,4,3,3 --init uniform --seed 9 --eps 1e-3");
    CHECK(g.status == 0);
    CHECK(g.out.find("GroupNorm") != std::string::npos);
}

TEST_CASE("a failing write leaves the old file intact", "[cli]") {
    fs::path y = tmpdir() / "precious.npy";
    write(y, "previous result");
    Run r = cli("--norm layer --shape 2,3,4,4 --output '" + y.string() + "'", "NORMLAB_FAIL_WRITE_AFTER=100");
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot write") != std::string::npos);
    CHECK(slurp(y) == "previous result");
    Run ok = cli("--norm layer --shape 2,3,4,4 --output '" + y.string() + "'");
    CHECK(ok.status == 0);
    CHECK(io::read_npy(y.string()).shape == std::vector<std::int64_t>{2, 3, 4, 4});
}
