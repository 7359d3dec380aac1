// The cnn ops' kernel cases of both GPU suites (conv_cases.hpp).
#include "conv_cases.hpp"

#include "normlab/train/conv_plan.hpp"
#include "normlab/train/pool_plan.hpp"
#include "normlab/train/train_data.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace normlab::test {
namespace {

constexpr double kEps = 1.1920928955078125e-07;
using Outs = std::vector<std::vector<float>>;
using Lines = std::vector<std::string>;

std::vector<float> random_floats(std::size_t n, train::TrainRng& rng) {
    std::vector<float> v(n);
    for (auto& f : v) f = static_cast<float>(rng.normal() * 1.3 + 0.2);
    return v;
}
std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }
std::vector<double> absolute(std::vector<double> v) {
    for (auto& d : v) d = std::abs(d);
    return v;
}

// Fails unless every |gpu − ref| ≤ (k + 1)·ε·scale (+ a tiny floor for exact zeros).
void expect_within(Lines& f, const std::string& what, const std::vector<float>& gpu, const std::vector<double>& ref,
                   const std::vector<double>& scale, double k) {
    if (gpu.size() < ref.size()) {
        f.push_back(what + ": " + std::to_string(gpu.size()) + " values, want " + std::to_string(ref.size()));
        return;
    }
    double worst = 0.0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const double ratio = std::abs(gpu[i] - ref[i]) / ((k + 1.0) * kEps * scale[i] + 1e-30);
        if (ratio > worst) worst = ratio, at = i;
    }
    if (worst <= 1.0) return;
    std::ostringstream os;
    os << what << "[" << at << "]: " << gpu[at] << ", reference " << ref[at] << " (" << worst << " of the bound)";
    f.push_back(os.str());
}

train::TrainProgram with_logs(train::TrainProgram p) {
    for (const char* log : {"log", "val_log"})
        if (p.find(log) < 0) p.add_buffer(log, 2, train::TrainBufferRole::Log);
    return p;
}

ConvKernelCase conv_case(const train::ConvShape& s, train::TrainRng& rng) {
    std::ostringstream name;
    name << "conv n " << s.n << " cin " << s.cin << " cout " << s.cout << " " << s.h << "x" << s.w;
    auto x = random_floats(s.x_size(), rng), w = random_floats(s.weight_size(), rng);
    auto b = random_floats(s.cout, rng), dy = random_floats(s.y_size(), rng);
    train::TrainProgram p;
    int bx = p.add_buffer("x", x.size()), bw = p.add_buffer("w", w.size()), bb = p.add_buffer("b", b.size());
    int by = p.add_buffer("y", s.y_size()), bdy = p.add_buffer("dy", dy.size());
    int bdx = p.add_buffer("dx", s.x_size()), bdw = p.add_buffer("dw", w.size()), bdb = p.add_buffer("db", s.cout);
    train::plan_conv3x3_forward(p, s, bx, bw, bb, by);
    train::plan_conv3x3_backward_input(p, s, bdy, bw, bdx);
    train::plan_conv3x3_grad_params(p, s, bx, bdy, bdw, bdb);
    auto check = [=](const Outs& out, ConvBackend backend) {
        Lines f;
        const auto xd = widen(x), wd = widen(w), dyd = widen(dy);
        const auto xa = absolute(xd), wa = absolute(wd), dya = absolute(dyd);
        expect_within(f, "y", out[by], train::conv3x3_forward(s, xd, wd, widen(b)),
                      train::conv3x3_forward(s, xa, wa, absolute(widen(b))), s.cin * 9.0 + 1.0);
        const train::ConvGrads g = train::conv3x3_backward(s, xd, wd, dyd),
                               ga = train::conv3x3_backward(s, xa, wa, dya);
        expect_within(f, "dx", out[bdx], g.dx, ga.dx, s.cout * 9.0);
        // Per invocation ⌈N·H/64⌉ rows of W products (∂W) or ⌈N·H·W/64⌉ terms (∂b) in order, then the 64
        // partials: a tree of 6 (Vulkan's wg_sum_a), rows of 8 then 8 (∂W) or of 16 then 4 (∂b) on WebGPU.
        const bool vk = backend == ConvBackend::Vulkan;
        expect_within(f, "dw", out[bdw], g.dweight, ga.dweight, std::ceil(s.n * s.h / 64.0) * s.w + (vk ? 6 : 16));
        expect_within(f, "db", out[bdb], g.dbias, ga.dbias, std::ceil(s.n * s.h * s.w / 64.0) + (vk ? 6 : 20));
        return f;
    };
    return {name.str(), with_logs(std::move(p)), {{"x", x}, {"w", w}, {"b", b}, {"dy", dy}}, check};
}

// The global pool's sum of a plane's H·W values: every 64th per invocation, then a tree of 6 (Vulkan) or rows
// of 16 then 4 (WebGPU, where one invocation sums a plane of at most 256 in order); then the division.
double global_pool_chain(const train::PoolShape& s, ConvBackend backend) {
    const int hw = s.h * s.w;
    if (backend == ConvBackend::WebGPU) return (hw <= 256 ? hw : std::ceil(hw / 64.0) + 20.0) + 1.0;
    return std::ceil(hw / 64.0) + 6.0 + 1.0;
}

ConvKernelCase pool_case(const train::PoolShape& s, train::TrainRng& rng) {
    std::ostringstream name;
    name << "pool n " << s.n << " c " << s.c << " " << s.h << "x" << s.w;
    const std::size_t pooled = static_cast<std::size_t>(s.n) * s.c * (s.h / 2) * (s.w / 2),
                      planes = static_cast<std::size_t>(s.n) * s.c;
    auto x = random_floats(s.size(), rng), dy2 = random_floats(pooled, rng), dyg = random_floats(planes, rng);
    train::TrainProgram p;
    int bx = p.add_buffer("x", x.size()), by2 = p.add_buffer("y2", pooled), byg = p.add_buffer("yg", planes);
    int bdy2 = p.add_buffer("dy2", pooled), bdyg = p.add_buffer("dyg", planes);
    int bdx2 = p.add_buffer("dx2", s.size()), bdxg = p.add_buffer("dxg", s.size());
    train::plan_avgpool2_forward(p, s, bx, by2);
    train::plan_avgpool2_backward(p, s, bdy2, bdx2);
    train::plan_global_avgpool_forward(p, s, bx, byg);
    train::plan_global_avgpool_backward(p, s, bdyg, bdxg);
    auto check = [=](const Outs& out, ConvBackend backend) {
        Lines f;
        const auto xd = widen(x), xa = absolute(widen(x));
        expect_within(f, "avg2 y", out[by2], train::avgpool2_forward(s, xd), train::avgpool2_forward(s, xa), 3.0);
        const auto dx2 = train::avgpool2_backward(s, widen(dy2));
        expect_within(f, "avg2 dx", out[bdx2], dx2, absolute(dx2), 0.0);  // ×0.25 is exact: rounding to float only
        expect_within(f, "global y", out[byg], train::global_avgpool_forward(s, xd),
                      train::global_avgpool_forward(s, xa), global_pool_chain(s, backend));
        const auto dxg = train::global_avgpool_backward(s, widen(dyg));
        expect_within(f, "global dx", out[bdxg], dxg, absolute(dxg), 1.0);
        return f;
    };
    return {name.str(), with_logs(std::move(p)), {{"x", x}, {"dy2", dy2}, {"dyg", dyg}}, check};
}

// conv → AvgPool2d → global pool and back in one program: each pass sees the last one's writes.
ConvKernelCase chain_case() {
    train::TrainRng rng(7);
    const train::ConvShape c{4, 3, 8, 8, 8};
    const train::PoolShape p2{4, 8, 8, 8}, pg{4, 8, 4, 4};
    auto x = random_floats(c.x_size(), rng), w = random_floats(c.weight_size(), rng);
    auto b = random_floats(c.cout, rng), dz = random_floats(32, rng);
    train::TrainProgram p;
    int bx = p.add_buffer("x", x.size()), bw = p.add_buffer("w", w.size()), bb = p.add_buffer("b", b.size());
    int by = p.add_buffer("y", c.y_size()), bp = p.add_buffer("pooled", c.y_size() / 4), bz = p.add_buffer("z", 32);
    int bdz = p.add_buffer("dz", 32), bdp = p.add_buffer("dpooled", c.y_size() / 4);
    int bdy = p.add_buffer("dy", c.y_size()), bdx = p.add_buffer("dx", x.size());
    int bdw = p.add_buffer("dw", w.size()), bdb = p.add_buffer("db", b.size());
    train::plan_conv3x3_forward(p, c, bx, bw, bb, by);
    train::plan_avgpool2_forward(p, p2, by, bp);
    train::plan_global_avgpool_forward(p, pg, bp, bz);
    train::plan_global_avgpool_backward(p, pg, bdz, bdp);
    train::plan_avgpool2_backward(p, p2, bdp, bdy);
    train::plan_conv3x3_backward_input(p, c, bdy, bw, bdx);
    train::plan_conv3x3_grad_params(p, c, bx, bdy, bdw, bdb);
    auto check = [=](const Outs& out, ConvBackend) {
        const auto z = train::global_avgpool_forward(
            pg, train::avgpool2_forward(p2, train::conv3x3_forward(c, widen(x), widen(w), widen(b))));
        const auto dy = train::avgpool2_backward(p2, train::global_avgpool_backward(pg, widen(dz)));
        const train::ConvGrads g = train::conv3x3_backward(c, widen(x), widen(w), dy);
        // Chained float32 sums of at most 28 + 4 + 16 terms (forward) or 72 and 20 (backward), on either backend:
        // 1e-5 of the values' scale is over ten times their bound.
        Lines f;
        auto close = [&](const char* what, const std::vector<float>& gpu, const std::vector<double>& ref) {
            double scale = 0.0, err = 0.0;
            for (std::size_t i = 0; i < ref.size() && i < gpu.size(); ++i) {
                scale = std::max(scale, std::abs(ref[i]));
                err = std::max(err, std::abs(gpu[i] - ref[i]));
            }
            if (gpu.size() < ref.size() || err > 1e-5 * (1.0 + scale))
                f.push_back(std::string(what) + ": error " + std::to_string(err) + " at scale " +
                            std::to_string(scale));
        };
        close("z", out[bz], z);
        close("dx", out[bdx], g.dx);
        close("dw", out[bdw], g.dweight);
        close("db", out[bdb], g.dbias);
        return f;
    };
    return {
        "conv, pool, global pool and back", with_logs(std::move(p)), {{"x", x}, {"w", w}, {"b", b}, {"dz", dz}}, check};
}

std::vector<ConvKernelCase> make_cases() {
    std::vector<ConvKernelCase> out;
    train::TrainRng rng(2026);
    static const int sides[] = {16, 8, 4, 2};
    std::vector<train::ConvShape> shapes{{8, 16, 16, 16, 16}, {1, 1, 1, 2, 2}, {3, 5, 6, 5, 7}, {2, 2, 3, 1, 1}};
    for (int i = 0; i < 14; ++i) {
        const int side = sides[rng.below(4)];
        shapes.push_back(train::ConvShape{1 + static_cast<int>(rng.below(8)), 1 + static_cast<int>(rng.below(16)),
                                          1 + static_cast<int>(rng.below(16)), side, side});
    }
    for (const train::ConvShape& s : shapes) out.push_back(conv_case(s, rng));
    train::TrainRng pool_rng(40);
    for (int i = 0; i < 17; ++i) {
        const int side = sides[i % 4];
        train::PoolShape s{1 + static_cast<int>(pool_rng.below(8)), 1 + static_cast<int>(pool_rng.below(16)), side,
                           side};
        if (i == 16) s = train::PoolShape{2, 3, 5, 7};  // odd sides: the last row and column dropped
        out.push_back(pool_case(s, pool_rng));
    }
    // A plane of more than 256 values: the WGSL global pool's partials and rows, not one sum in order.
    out.push_back(pool_case(train::PoolShape{2, 3, 17, 19}, pool_rng));
    out.push_back(chain_case());
    return out;
}

}  // namespace

const std::vector<ConvKernelCase>& conv_kernel_cases() {
    static const std::vector<ConvKernelCase> cases = make_cases();
    return cases;
}

std::vector<std::vector<float>> run_kernel_case(train::TrainDevice& device, const ConvKernelCase& k) {
    for (const auto& [name, values] : k.inputs) device.upload(name, values.data(), values.size() * sizeof(float));
    device.submit(1);
    device.finish();
    std::vector<std::vector<float>> out;
    for (const auto& b : k.program.buffers) out.push_back(device.download(b.name));
    return out;
}

}  // namespace normlab::test
