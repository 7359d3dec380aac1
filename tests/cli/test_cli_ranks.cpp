// normlab-cli on 2-D (N, C) and 5-D (N, C, D, H, W) tensors: --shape and .npy inputs, outputs
// of the same dims, the module PyTorch uses for the rank, selections; 1-D tensors and a
// normalized_shape of every dim under LayerNorm/RMSNorm; PyTorch's refusals of other 1-D and 6-D inputs.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"

#include <nlohmann/json.hpp>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

struct Case {
    std::string args;
    std::vector<std::int64_t> stat_shape;
    std::string module;
};

// Runs every case on the .npy of `shape`: output and group map keep its dims, the statistics
// match the float64 reference.
void check_rank(const std::vector<std::int64_t>& shape, const std::vector<Case>& cases) {
    const fs::path d = tmpdir(), x = d / "xr.npy";
    write(x, patterned_npy(shape));
    for (const auto& c : cases) {
        const fs::path y = d / "yr.npy", s = d / "sr.json", m = d / "mr.npy";
        Run r = cli(c.args + " --input '" + x.string() + "' --output '" + y.string() + "' --stats '" + s.string() +
                    "' --group-map '" + m.string() + "'");
        INFO(c.args << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find(c.module + " on " + core::dims_str(shape)) != std::string::npos);
        CHECK(io::read_npy(y.string()).shape == shape);
        std::string tuple;  // the int32 group map's header: 'shape': (6, 4)
        for (auto v : shape) tuple += (tuple.empty() ? "" : ", ") + std::to_string(v);
        CHECK(slurp(m).find("'shape': (" + tuple + ")") != std::string::npos);
        json j = json::parse(slurp(s));
        CHECK(j["shape"] == shape);
        CHECK(j["stat_shape"] == c.stat_shape);
        CHECK(j["torch_module"] == c.module);
        CHECK(j["max_abs_error_vs_reference"].get<double>() <= 1e-5);
    }
}

}  // namespace

TEST_CASE("2-D (N, C) inputs: every method, output and group map keep 2 dims", "[cli][ranks]") {
    check_rank({6, 4}, {{"--norm batch", {4}, "BatchNorm1d"},
                        {"--norm layer", {6}, "LayerNorm"},
                        {"--norm rms --normalized-shape 4", {6}, "RMSNorm"},
                        {"--norm group --groups 2", {6, 2}, "GroupNorm"},
                        {"--norm instance", {6}, "InstanceNorm1d"}});  // an unbatched (C, L): per row
}

TEST_CASE("5-D (N, C, D, H, W) inputs: every method, output and group map keep 5 dims", "[cli][ranks]") {
    check_rank({2, 3, 4, 3, 5}, {{"--norm batch", {3}, "BatchNorm3d"},
                                 {"--norm instance", {2, 3}, "InstanceNorm3d"},
                                 {"--norm group --groups 3", {2, 3}, "GroupNorm"},
                                 {"--norm layer", {2}, "LayerNorm"},
                                 {"--norm layer --normalized-shape 3,5", {2, 3, 4}, "LayerNorm"},
                                 {"--norm rms --normalized-shape 4,3,5", {2, 3}, "RMSNorm"}});
}

TEST_CASE("1-D inputs under LayerNorm and RMSNorm: one statistic, output of 1 dim", "[cli][ranks]") {
    const fs::path d = tmpdir(), x = d / "x1.npy", y = d / "y1.npy", s = d / "s1.json", m = d / "m1.npy";
    write(x, patterned_npy({6}));
    for (const std::string norm : {"layer", "rms"}) {
        Run r = cli("--norm " + norm + " --input '" + x.string() + "' --output '" + y.string() + "' --stats '" +
                    s.string() + "' --group-map '" + m.string() + "' --select 4");
        INFO(norm << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(io::read_npy(y.string()).shape == std::vector<std::int64_t>{6});
        CHECK(slurp(m).find("'shape': (6,)") != std::string::npos);
        json j = json::parse(slurp(s));
        CHECK(j["shape"] == std::vector<std::int64_t>{6});
        CHECK(j["stat_shape"] == std::vector<std::int64_t>{});
        CHECK(j["param_shape"] == std::vector<std::int64_t>{6});
        CHECK(j["count"] == 6);
        CHECK(j["max_abs_error_vs_reference"].get<double>() <= 1e-5);
    }
    CHECK(cli("--norm layer --shape 6 --select 6").status == 2);  // outside the vector
    CHECK(cli("--norm layer --shape 6 --select 0,1").status == 2);
}

TEST_CASE("normalized_shape over every dim: one statistic, N included", "[cli][ranks]") {
    check_rank({6, 4}, {{"--norm layer --normalized-shape 6,4", {}, "LayerNorm"},
                        {"--norm rms --normalized-shape 6,4", {}, "RMSNorm"}});
    check_rank({2, 3, 4, 3, 5}, {{"--norm layer --normalized-shape 2,3,4,3,5", {}, "LayerNorm"}});
}

TEST_CASE("generated 2-D and 5-D tensors and selections of 2 and 5 indices", "[cli][ranks]") {
    const fs::path d = tmpdir(), y = d / "ygr.npy", s = d / "sgr.json";
    Run r = cli("--norm batch --shape 8,5 --seed 3 --select 7,4 --output '" + y.string() + "' --stats '" + s.string() +
                "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(io::read_npy(y.string()).shape == std::vector<std::int64_t>{8, 5});
    CHECK(json::parse(slurp(s))["count"] == 8);
    r = cli("--norm instance --shape 2,3,4,5,6 --select 1,2,3,4,5 --stats '" + s.string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(json::parse(slurp(s))["count"] == 120);
    CHECK(cli("--norm batch --shape 2,3,4,5,6 --select 1,2,4,0,0").status == 2);  // d out of range
    CHECK(cli("--norm batch --shape 2,3,4,5 --select 1,2,0,0,0").status == 2);    // 5 indices, 4-D tensor
    // h past H must not run into the next D slice; every rank takes exactly its own count.
    check_refused("--norm batch --shape 2,3,4,5,6 --select 1,2,0,7,0",
                  "--select 1,2,0,7,0 is outside the tensor of shape [2, 3, 4, 5, 6] (axis H has 5)");
    check_refused("--norm batch --shape 2,3,4,5 --select 1,2", "--select 1,2 has 2 indices, the tensor of shape");
    check_refused("--norm batch --shape 2,3,4,5,6 --select 1,2,0,0", "has 4 indices");
}

TEST_CASE("PyTorch's errors for 1-D, 2-D, 5-D and 6-D inputs", "[cli][ranks][errors]") {
    check_refused("--norm batch --shape 6", "expected 2D or 3D input (got 1D input)");
    check_refused("--norm batch --shape 2,3,2,2,2,2", "expected 5D input (got 6D input)");
    check_refused("--norm instance --shape 6", "expected 2D or 3D input (got 1D input)");
    check_refused("--norm instance --shape 2,3,2,2,2,2", "expected 4D or 5D input (got 6D input)");
    check_refused("--norm group --groups 1 --shape 6",
                  "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    check_refused("--norm layer --shape 2,3,2,2,2,2", "normlab takes 1-D to 5-D tensors");
    check_refused("--norm batch --shape 1,3",
                  "Expected more than 1 value per channel when training, got input size [1, 3]");
    check_refused("--norm instance --shape 3,1",
                  "Expected more than 1 spatial element when training, got input size [1, 3, 1]");
    check_refused("--norm batch --shape 1,2,1,1,1",
                  "Expected more than 1 value per channel when training, got input size [1, 2, 1, 1, 1]");
    check_refused("--norm layer --normalized-shape 3,4 --shape 2,4",
                  "Given normalized_shape=[3, 4], expected input with shape [*, 3, 4], but got input of size[2, 4]");
    check_refused("--norm layer --normalized-shape 5 --shape 3",
                  "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[3]");
    check_refused("--norm layer --normalized-shape 1,2,4 --shape 2,4",
                  "Given normalized_shape=[1, 2, 4], expected input with shape [*, 1, 2, 4]");
    check_refused(
        "--norm layer --normalized-shape 4,4 --shape 2,3,4,4,5",
        "Given normalized_shape=[4, 4], expected input with shape [*, 4, 4], but got input of size[2, 3, 4, 4, 5]");
}
