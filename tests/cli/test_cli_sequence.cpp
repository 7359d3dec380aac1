// normlab-cli on 3-D tensors: a Transformer's (N, L, D) activations and BatchNorm1d's (N, C, L):
// --shape N,L,D and 3-D .npy inputs, outputs of the same 3 dims, PyTorch's 3-D error texts.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/stat_layout.hpp"

#include <nlohmann/json.hpp>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

TEST_CASE("3-D (N, L, D) inputs: every method, output and group map keep 3 dims", "[cli][sequence]") {
    const fs::path d = tmpdir();
    write(d / "seq.npy", patterned_npy({2, 6, 5}));
    struct Case {
        std::string args;
        core::NormSpec spec;
        std::vector<std::int64_t> stat_shape;
        std::string module;
    };
    core::NormSpec layer = core::default_spec(core::Method::Layer), rms = core::default_spec(core::Method::Rms),
                   group = core::default_spec(core::Method::Group);
    layer.normalized_shape = {5};
    rms.normalized_shape = {5};
    group.groups = 3;
    const std::vector<Case> cases{
        {"--norm layer --normalized-shape 5", layer, {2, 6}, "LayerNorm"},            // per token
        {"--norm layer", core::default_spec(core::Method::Layer), {2}, "LayerNorm"},  // default [L, D]
        {"--norm rms --normalized-shape 5", rms, {2, 6}, "RMSNorm"},
        {"--norm batch", core::default_spec(core::Method::Batch), {6}, "BatchNorm1d"},  // per channel over (N, L)
        {"--norm instance", core::default_spec(core::Method::Instance), {2, 6}, "InstanceNorm1d"},
        {"--norm group --groups 3", group, {2, 3}, "GroupNorm"},
    };
    for (const auto& c : cases) {
        fs::path y = d / "yseq.npy", s = d / "sseq.json", m = d / "mseq.npy";
        Run r = cli(c.args + " --input '" + (d / "seq.npy").string() + "' --output '" + y.string() + "' --stats '" +
                    s.string() + "' --group-map '" + m.string() + "'");
        INFO(c.args << "\n" << r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find(c.module + " on [2, 6, 5]") != std::string::npos);
        auto x = io::read_npy((d / "seq.npy").string());
        core::Tensor t;
        t.shape = core::Shape4::from_dims(x.shape);
        t.data = x.data;
        CHECK(t.shape.rank == 3);
        auto out = io::read_npy(y.string());
        CHECK(out.shape == std::vector<std::int64_t>{2, 6, 5});
        CHECK(reference::Reference(t, c.spec, {}).max_abs_error(out.data) <= 1e-5);
        json j = json::parse(slurp(s));
        CHECK(j["shape"] == std::vector<std::int64_t>{2, 6, 5});
        CHECK(j["stat_shape"] == c.stat_shape);
        CHECK(j["torch_module"] == c.module);
        CHECK(j["max_abs_error_vs_reference"].get<double>() <= 1e-5);
        CHECK(slurp(m).find("'shape': (2, 6, 5)") != std::string::npos);  // int32 group map, 3 dims
    }
}

TEST_CASE("generated 3-D tensors from the shape option and selections of 3 indices", "[cli][sequence]") {
    const fs::path d = tmpdir(), y = d / "ygen.npy", s = d / "sgen.json";
    Run r = cli("--norm layer --normalized-shape 8 --shape 2,5,8 --seed 3 --select 1,4,7 --output '" + y.string() +
                "' --stats '" + s.string() + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(io::read_npy(y.string()).shape == std::vector<std::int64_t>{2, 5, 8});
    json j = json::parse(slurp(s));
    CHECK(j["stat_shape"] == std::vector<std::int64_t>{2, 5});
    CHECK(j["count"] == 8);
    CHECK(cli("--norm layer --normalized-shape 8 --shape 2,5,8 --select 1,5,0").status == 2);  // l out of range
}

TEST_CASE("PyTorch's errors for 3-D inputs", "[cli][sequence][errors]") {
    check_refused("--norm layer --normalized-shape 8 --shape 2,5,4",
                  "Given normalized_shape=[8], expected input with shape [*, 8], but got input of size[2, 5, 4]");
    check_refused("--norm batch --shape 1,3,1",
                  "Expected more than 1 value per channel when training, got input size [1, 3, 1]");
    check_refused("--norm instance --shape 2,3,1",
                  "Expected more than 1 spatial element when training, got input size [2, 3, 1]");
    check_refused(
        "--norm group --groups 4 --shape 2,6,5",
        "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6, 5] and "
        "num_groups=4");
    check_refused("--norm layer --normalized-shape 3,5,4 --shape 2,5,4",
                  "Given normalized_shape=[3, 5, 4], expected input with shape [*, 3, 5, 4], but got input of "
                  "size[2, 5, 4]");
}
