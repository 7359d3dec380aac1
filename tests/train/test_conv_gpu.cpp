// The cnn ops' kernels (shaders/train_conv*.comp, train_pool*.comp) as planned by conv_plan and pool_plan,
// run on the Vulkan device against the float64 references (conv_reference, pool_reference) on random shapes:
// N 1–8, C 1–16, H = W in {16, 8, 4, 2}. Tolerances are float32's bound for a sum of K rounded terms,
// |gpu − ref| ≤ (K + 1)·ε·Σ|terms| (ε = 2⁻²³, twice the unit roundoff), with K the longest chain of
// additions in the kernel and Σ|terms| the reference run on absolute values.
#include "conv_gpu_support.hpp"
#include "normlab/train/conv_plan.hpp"
#include "normlab/train/pool_plan.hpp"
#include "normlab/train/train_data.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace normlab;

namespace {

constexpr double kEps = 1.1920928955078125e-07;

std::vector<float> random_floats(std::size_t n, TrainRng& rng) {
    std::vector<float> v(n);
    for (auto& f : v) f = static_cast<float>(rng.normal() * 1.3 + 0.2);
    return v;
}
std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }
std::vector<double> absolute(std::vector<double> v) {
    for (auto& d : v) d = std::abs(d);
    return v;
}

// Largest |gpu − ref| / ((k + 1)·ε·scale + tiny) over the elements: at most 1 passes.
double worst_ratio(const std::vector<float>& gpu, const std::vector<double>& ref, const std::vector<double>& scale,
                   double k) {
    REQUIRE(gpu.size() >= ref.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        double bound = (k + 1.0) * kEps * scale[i] + 1e-30;
        worst = std::max(worst, std::abs(gpu[i] - ref[i]) / bound);
    }
    return worst;
}

ConvShape random_conv_shape(TrainRng& rng) {
    static const int sides[] = {16, 8, 4, 2};
    int side = sides[rng.below(4)];
    return ConvShape{1 + static_cast<int>(rng.below(8)), 1 + static_cast<int>(rng.below(16)),
                     1 + static_cast<int>(rng.below(16)), side, side};
}

}  // namespace

TEST_CASE("Conv2d 3x3 kernels against the float64 reference on random shapes", "[train][conv][gpu]") {
    TrainRng rng(2026);
    std::vector<ConvShape> shapes{
        {8, 16, 16, 16, 16}, {1, 1, 1, 2, 2}, {3, 5, 6, 5, 7}, {2, 2, 3, 1, 1}};  // + odd sides
    for (int i = 0; i < 14; ++i) shapes.push_back(random_conv_shape(rng));
    for (const ConvShape& s : shapes) {
        INFO("n " << s.n << " cin " << s.cin << " cout " << s.cout << " h=w " << s.h);
        auto x = random_floats(s.x_size(), rng), w = random_floats(s.weight_size(), rng);
        auto b = random_floats(s.cout, rng), dy = random_floats(s.y_size(), rng);
        TrainProgram p;
        int bx = p.add_buffer("x", x.size()), bw = p.add_buffer("w", w.size()), bb = p.add_buffer("b", b.size());
        int by = p.add_buffer("y", s.y_size()), bdy = p.add_buffer("dy", dy.size());
        int bdx = p.add_buffer("dx", s.x_size()), bdw = p.add_buffer("dw", w.size()), bdb = p.add_buffer("db", s.cout);
        plan_conv3x3_forward(p, s, bx, bw, bb, by);
        plan_conv3x3_backward_input(p, s, bdy, bw, bdx);
        plan_conv3x3_grad_params(p, s, bx, bdy, bdw, bdb);
        auto out = test::run_train_program(p, {{bx, x}, {bw, w}, {bb, b}, {bdy, dy}});

        auto y = conv3x3_forward(s, widen(x), widen(w), widen(b));
        auto y_abs = conv3x3_forward(s, absolute(widen(x)), absolute(widen(w)), absolute(widen(b)));
        CHECK(worst_ratio(out[by], y, y_abs, s.cin * 9.0 + 1.0) <= 1.0);
        ConvGrads g = conv3x3_backward(s, widen(x), widen(w), widen(dy));
        ConvGrads g_abs = conv3x3_backward(s, absolute(widen(x)), absolute(widen(w)), absolute(widen(dy)));
        CHECK(worst_ratio(out[bdx], g.dx, g_abs.dx, s.cout * 9.0) <= 1.0);
        // Per invocation ⌈N·H/64⌉ rows of W products (∂W) or ⌈N·H·W/64⌉ terms (∂b) in order, then a tree of 6.
        CHECK(worst_ratio(out[bdw], g.dweight, g_abs.dweight, std::ceil(s.n * s.h / 64.0) * s.w + 6.0) <= 1.0);
        CHECK(worst_ratio(out[bdb], g.dbias, g_abs.dbias, std::ceil(s.n * s.h * s.w / 64.0) + 6.0) <= 1.0);
    }
}

TEST_CASE("AvgPool2d(2) and global average pool kernels against the float64 reference", "[train][pool][gpu]") {
    TrainRng rng(40);
    static const int sides[] = {16, 8, 4, 2};
    for (int i = 0; i < 17; ++i) {
        int side = sides[i % 4];
        PoolShape s{1 + static_cast<int>(rng.below(8)), 1 + static_cast<int>(rng.below(16)), side, side};
        if (i == 16) s = PoolShape{2, 3, 5, 7};  // odd sides: the last row and column dropped
        INFO("n " << s.n << " c " << s.c << " h " << s.h << " w " << s.w);
        std::size_t pooled = static_cast<std::size_t>(s.n) * s.c * (s.h / 2) * (s.w / 2),
                    planes = static_cast<std::size_t>(s.n) * s.c;
        auto x = random_floats(s.size(), rng), dy2 = random_floats(pooled, rng), dyg = random_floats(planes, rng);
        TrainProgram p;
        int bx = p.add_buffer("x", x.size()), by2 = p.add_buffer("y2", pooled), byg = p.add_buffer("yg", planes);
        int bdy2 = p.add_buffer("dy2", pooled), bdyg = p.add_buffer("dyg", planes);
        int bdx2 = p.add_buffer("dx2", s.size()), bdxg = p.add_buffer("dxg", s.size());
        plan_avgpool2_forward(p, s, bx, by2);
        plan_avgpool2_backward(p, s, bdy2, bdx2);
        plan_global_avgpool_forward(p, s, bx, byg);
        plan_global_avgpool_backward(p, s, bdyg, bdxg);
        auto out = test::run_train_program(p, {{bx, x}, {bdy2, dy2}, {bdyg, dyg}});

        auto xd = widen(x), xa = absolute(widen(x));
        CHECK(worst_ratio(out[by2], avgpool2_forward(s, xd), avgpool2_forward(s, xa), 3.0) <= 1.0);
        auto dx2 = avgpool2_backward(s, widen(dy2));
        CHECK(worst_ratio(out[bdx2], dx2, absolute(dx2), 0.0) <= 1.0);  // ×0.25 is exact: rounding to float only
        double k = std::ceil(s.h * s.w / 64.0) + 6.0 + 1.0;             // the sums, then the division
        CHECK(worst_ratio(out[byg], global_avgpool_forward(s, xd), global_avgpool_forward(s, xa), k) <= 1.0);
        auto dxg = global_avgpool_backward(s, widen(dyg));
        CHECK(worst_ratio(out[bdxg], dxg, absolute(dxg), 1.0) <= 1.0);
    }
}

TEST_CASE("conv → AvgPool2d → global pool and back in one program: each pass sees the last one's writes",
          "[train][conv][pool][gpu]") {
    TrainRng rng(7);
    ConvShape c{4, 3, 8, 8, 8};
    PoolShape p2{4, 8, 8, 8}, pg{4, 8, 4, 4};
    auto x = random_floats(c.x_size(), rng), w = random_floats(c.weight_size(), rng);
    auto b = random_floats(c.cout, rng), dz = random_floats(32, rng);
    TrainProgram p;
    int bx = p.add_buffer("x", x.size()), bw = p.add_buffer("w", w.size()), bb = p.add_buffer("b", b.size());
    int by = p.add_buffer("y", c.y_size()), bp = p.add_buffer("pooled", c.y_size() / 4), bz = p.add_buffer("z", 32);
    int bdz = p.add_buffer("dz", 32), bdp = p.add_buffer("dpooled", c.y_size() / 4);
    int bdy = p.add_buffer("dy", c.y_size()), bdx = p.add_buffer("dx", x.size());
    int bdw = p.add_buffer("dw", w.size()), bdb = p.add_buffer("db", b.size());
    plan_conv3x3_forward(p, c, bx, bw, bb, by);
    plan_avgpool2_forward(p, p2, by, bp);
    plan_global_avgpool_forward(p, pg, bp, bz);
    plan_global_avgpool_backward(p, pg, bdz, bdp);
    plan_avgpool2_backward(p, p2, bdp, bdy);
    plan_conv3x3_backward_input(p, c, bdy, bw, bdx);
    plan_conv3x3_grad_params(p, c, bx, bdy, bdw, bdb);
    auto out = test::run_train_program(p, {{bx, x}, {bw, w}, {bb, b}, {bdz, dz}});

    auto z = global_avgpool_forward(pg, avgpool2_forward(p2, conv3x3_forward(c, widen(x), widen(w), widen(b))));
    auto dy = avgpool2_backward(p2, global_avgpool_backward(pg, widen(dz)));
    ConvGrads g = conv3x3_backward(c, widen(x), widen(w), dy);
    // Chained float32 sums of at most 28 + 4 + 8 terms (forward) or 72 and 10 (backward): 1e-5 of the values'
    // scale is over ten times their bound.
    auto close = [](const std::vector<float>& gpu, const std::vector<double>& ref) {
        double scale = 0.0, err = 0.0;
        for (std::size_t i = 0; i < ref.size(); ++i) {
            scale = std::max(scale, std::abs(ref[i]));
            err = std::max(err, std::abs(gpu[i] - ref[i]));
        }
        return err <= 1e-5 * (1.0 + scale);
    };
    CHECK(close(out[bz], z));
    CHECK(close(out[bdx], g.dx));
    CHECK(close(out[bdw], g.dweight));
    CHECK(close(out[bdb], g.dbias));
}
