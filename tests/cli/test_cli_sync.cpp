// normlab-cli with --sync-devices/--sync-mode (SyncBN on simulated devices): its errors (exit 2,
// one line, nothing written) and a run per mode whose stats JSON holds the shard statistics and
// the statistics applied, checked against the float64 reference.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/tensor_init.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace normlab;
using namespace normlab::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void expect_sync_error(const std::string& args, const std::string& message) {
    fs::path out = tmpdir() / "sync_absent.npy", stats = tmpdir() / "sync_absent.json";
    fs::remove(out);
    fs::remove(stats);
    check_refused(args + " --output '" + out.string() + "' --stats '" + stats.string() + "'", message);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(stats));
}

std::vector<double> doubles(const json& j) { return j.get<std::vector<double>>(); }

}  // namespace

TEST_CASE("sync devices, errors: not divisible, another method, no K, K < 1, bad mode", "[cli][errors][sync]") {
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-devices 3",
                      "--sync-devices 3 needs a batch divisible by 3, got N = 4");
    expect_sync_error("--norm layer --shape 4,3,2,2 --sync-devices 2", "only used by --norm batch");
    expect_sync_error("--norm group --groups 3 --shape 4,3,2,2 --sync-devices 2", "only used by --norm batch");
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-mode naive", "--sync-mode needs --sync-devices");
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-devices 0", "--sync-devices must be >= 1, got 0");
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-devices -2", "--sync-devices must be >= 1");
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-devices 2 --sync-mode exact",
                      "--sync-mode must be sync, local or naive");
    expect_sync_error("--norm batch --shape 4,3,1,1 --sync-devices 4", "more than 1 value per channel");
    const fs::path dy = tmpdir() / "sync_dy.npy";
    const core::Tensor ones = make_tensor(core::Shape4{4, 3, 2, 2}, core::Init::Ones);
    write(dy, io::npy_bytes_f32({4, 3, 2, 2}, ones.data.data()));
    expect_sync_error("--norm batch --shape 4,3,2,2 --sync-devices 2 --grad-output '" + dy.string() + "'",
                      "not implemented");
}

TEST_CASE("sync devices: each mode's stats JSON (shard and applied statistics) and y", "[cli][sync]") {
    const fs::path stats = tmpdir() / "sync_stats.json", out = tmpdir() / "sync_y.npy";
    const core::Tensor x = make_tensor(core::Shape4{4, 3, 2, 5}, core::Init::Randn, 7);
    for (const std::string mode : {"sync", "local", "naive"}) {
        INFO("mode " << mode);
        Run r = cli("--norm batch --shape 4,3,2,5 --seed 7 --sync-devices 2 --sync-mode " + mode + " --stats '" +
                    stats.string() + "' --output '" + out.string() + "'");
        REQUIRE(r.status == 0);
        const json j = json::parse(slurp(stats));
        core::NormSpec spec = core::default_spec(core::Method::Batch);
        spec.sync_devices = 2;
        spec.sync_mode = *core::parse_sync_mode(mode);
        const reference::ReferenceResult ref = reference::reference_sync(x, spec, {});
        CHECK(j.at("sync_devices") == 2);
        CHECK(j.at("sync_mode") == mode);
        CHECK(j.at("shard_shape") == json::array({2, 3}));
        CHECK(j.at("shard_count") == 20);
        CHECK(j.at("stat_shape") == (mode == "local" ? json::array({2, 3}) : json::array({3})));
        const auto near = [](const std::vector<double>& a, const std::vector<double>& b) {
            REQUIRE(a.size() == b.size());
            for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::abs(a[i] - b[i]) <= 1e-5);
        };
        near(doubles(j.at("shard_mean")), ref.stats.sync->shard_mean);
        near(doubles(j.at("shard_var")), ref.stats.sync->shard_var);
        near(doubles(j.at("mean")), ref.stats.mean);
        near(doubles(j.at("var")), ref.stats.var);
        near(doubles(j.at("running_var")), ref.stats.running_var);
        CHECK(j.at("max_abs_error_vs_reference").get<double>() <= 1e-5);
        CHECK(r.out.find("SyncBN on 2 simulated devices") != std::string::npos);
    }
}
