// The float64 references of the cnn's ops (engine/train: conv_reference, pool_reference) against PyTorch's
// float64 numbers (tests/golden/train_ops/cases.json, written by tests/golden/golden_train_ops.py), and
// Conv2d's default initialisation against PyTorch's bounds.
#include "normlab/train/conv_reference.hpp"
#include "normlab/train/pool_reference.hpp"
#include "normlab/train/train_data.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

using namespace normlab;

namespace {

const nlohmann::json& cases() {
    static const nlohmann::json j = [] {
        std::ifstream in(std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/train_ops/cases.json");
        REQUIRE(in.good());
        return nlohmann::json::parse(in);
    }();
    return j;
}

std::vector<double> vec(const nlohmann::json& j) { return j.get<std::vector<double>>(); }

// Largest |a − b| / (1 + |b|): both sides are float64, only the order of the sums differs.
double max_error(const std::vector<double>& a, const std::vector<double>& b) {
    REQUIRE(a.size() == b.size());
    double e = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]) / (1.0 + std::abs(b[i])));
    return e;
}

constexpr double kTol = 1e-12;

}  // namespace

TEST_CASE("Conv2d 3x3 forward and backward equal PyTorch's float64", "[train][conv]") {
    REQUIRE(cases().at("conv").size() >= 6);
    for (const auto& c : cases().at("conv")) {
        train::ConvShape s{c.at("n"), c.at("cin"), c.at("cout"), c.at("h"), c.at("w")};
        INFO("n " << s.n << " cin " << s.cin << " cout " << s.cout << " h " << s.h << " w " << s.w);
        auto x = vec(c.at("x")), weight = vec(c.at("weight"));
        CHECK(max_error(train::conv3x3_forward(s, x, weight, vec(c.at("bias"))), vec(c.at("y"))) < kTol);
        train::ConvGrads g = train::conv3x3_backward(s, x, weight, vec(c.at("dy")));
        CHECK(max_error(g.dx, vec(c.at("dx"))) < kTol);
        CHECK(max_error(g.dweight, vec(c.at("dweight"))) < kTol);
        CHECK(max_error(g.dbias, vec(c.at("dbias"))) < kTol);
    }
}

TEST_CASE("AvgPool2d(2) and the global average pool equal PyTorch's float64", "[train][pool]") {
    REQUIRE(cases().at("pool").size() >= 5);
    for (const auto& c : cases().at("pool")) {
        train::PoolShape s{c.at("n"), c.at("c"), c.at("h"), c.at("w")};
        INFO("n " << s.n << " c " << s.c << " h " << s.h << " w " << s.w);
        const auto& a = c.at("avg2");
        CHECK(max_error(train::avgpool2_forward(s, vec(a.at("x"))), vec(a.at("y"))) < kTol);
        CHECK(max_error(train::avgpool2_backward(s, vec(a.at("dy"))), vec(a.at("dx"))) < kTol);
        const auto& g = c.at("global");
        CHECK(max_error(train::global_avgpool_forward(s, vec(g.at("x"))), vec(g.at("y"))) < kTol);
        CHECK(max_error(train::global_avgpool_backward(s, vec(g.at("dy"))), vec(g.at("dx"))) < kTol);
    }
}

TEST_CASE("Conv2d's initial parameters: PyTorch's bounds, filled uniformly, deterministic", "[train][conv]") {
    for (const auto& c : cases().at("init")) {
        int cin = c.at("cin"), cout = c.at("cout");
        double bound = train::conv3x3_init_bound(cin);
        CHECK(std::abs(bound - c.at("weight_bound").get<double>()) < 1e-15);
        CHECK(std::abs(bound - c.at("bias_bound").get<double>()) < 1e-15);
        train::TrainRng rng(7), again(7);
        train::ConvParams p = train::conv3x3_init(cin, cout, rng), q = train::conv3x3_init(cin, cout, again);
        CHECK(p.weight == q.weight);
        CHECK(p.bias == q.bias);
        REQUIRE(p.weight.size() == static_cast<std::size_t>(cout * cin * 9));
        REQUIRE(p.bias.size() == static_cast<std::size_t>(cout));
        double max_abs = 0.0, sum = 0.0, sq = 0.0;
        for (double v : p.weight) {
            max_abs = std::max(max_abs, std::abs(v));
            sum += v;
            sq += v * v;
        }
        double n = static_cast<double>(p.weight.size());
        CHECK(max_abs < bound);
        CHECK(max_abs > 0.9 * bound);  // the draws reach the bound as PyTorch's do
        // U(−b, b): mean 0 and variance b²/3, within 5 standard errors.
        CHECK(std::abs(sum / n) < 5.0 * bound / std::sqrt(3.0 * n));
        CHECK(std::abs(sq / n - bound * bound / 3.0) < 5.0 * bound * bound * std::sqrt(4.0 / 45.0 / n));
        for (double v : p.bias) CHECK(std::abs(v) < bound);
    }
}
