// The backward pass (L = Σ dy ⊙ y) on the GPU: against the float64 reference on random shapes
// and flags (the ctest variants run these under every kernel/slab/memory environment), the
// identity Σ ∂L/∂x = 0 within each statistic where the method centers, and PyTorch autograd's
// golden fixtures (tests/golden/make_golden_grad.py).
#include <catch2/catch.hpp>

#include "../kernel_cases.hpp"
#include "../support.hpp"
#include "normlab/ops/backward.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

using namespace normlab;
using namespace normlab::test;

namespace {

double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (double d : v) m = std::max(m, std::abs(d));
    return m;
}

// Max |a − b| over a vector, relative to max(1, max |b|).
double rel_err(const std::vector<float>& a, const std::vector<double>& b) {
    return reference::max_abs_error(a, b) / std::max(1.0, max_abs(b));
}
double rel_err(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(a[i] - b[i]));
    return w / std::max(1.0, max_abs(b));
}

struct GradCompared {
    core::GradResult gpu;
    reference::GradReference ref;
};
GradCompared compare_grad(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                          const core::NormParams& params) {
    GradCompared c;
    c.gpu = ops::run_backward(normalizer(), backward(), x, dy, spec, params);
    reference::Reference ref(x, spec, params);
    c.ref = reference::reference_backward(ref, dy);
    return c;
}

void check_random_grad(const std::vector<std::int64_t>& sizes, int cases, std::uint64_t seed, std::int64_t max_numel,
                       int rank = 4) {
    std::mt19937_64 rng(seed);
    int done = 0;
    while (done < cases) {
        const core::Shape4 s = random_shape(rank, sizes, rng);
        if (s.numel() > max_numel) continue;
        for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group,
                               core::Method::Rms}) {
            auto [spec, params] = random_config(m, s, rng);
            if (!valid(m, s, spec)) continue;
            core::Tensor x = make_tensor(s, core::Init::Randn, rng());
            core::Tensor dy = make_tensor(s, core::Init::Randn, rng());
            auto c = compare_grad(x, dy, spec, params);
            INFO(describe(s, spec));
            CHECK(rel_err(c.gpu.dx.data, c.ref.dx) <= 1e-4);
            CHECK(c.gpu.dweight.size() == c.ref.dweight.size());
            CHECK(c.gpu.dbias.size() == c.ref.dbias.size());
            CHECK(rel_err(c.gpu.dweight, c.ref.dweight) <= 1e-4);
            CHECK(rel_err(c.gpu.dbias, c.ref.dbias) <= 1e-4);
            const auto S = static_cast<std::size_t>(core::make_layout(spec, s).stat_count);
            CHECK(c.gpu.mean_g.size() == (spec.uses_batch_stats() ? S : 0u));
        }
        ++done;
    }
}

}  // namespace

// tests/kernel_cases.hpp, the table the browser's kernel test runs too: each case against the float64
// reference and, on a CPU device (lavapipe) with the default plan, on the path the table names.
TEST_CASE("backward: the kernel case table, each case on its path", "[gpu][grad]") {
    const bool cpu = normalizer().context().barriers_expensive();
    std::uint64_t seed = 3100;
    for (const GradCase& c : grad_cases()) {
        const core::Tensor x = make_tensor(c.shape, core::Init::Randn, ++seed),
                           dy = make_tensor(c.shape, core::Init::Randn, ++seed);
        const auto r = compare_grad(x, dy, c.spec, c.params);
        INFO(c.name << ": " << describe(c.shape, c.spec) << ", took " << backward().last_path());
        CHECK(rel_err(r.gpu.dx.data, r.ref.dx) <= 1e-4);
        CHECK(rel_err(r.gpu.dweight, r.ref.dweight) <= 1e-4);
        CHECK(rel_err(r.gpu.dbias, r.ref.dbias) <= 1e-4);
        if (cpu) CHECK(backward().last_path() == c.vulkan);
    }
}

TEST_CASE("backward: random small shapes with dims of 1, odd and prime sizes", "[random][gpu][grad]") {
    check_random_grad({1, 2, 3, 5, 7, 8, 13}, 24, 1101, 1 << 16);
}

TEST_CASE("backward: random shapes of every other rank: 2-D, 3-D and 5-D", "[random][gpu][grad]") {
    check_random_grad({1, 2, 3, 5, 8, 13, 64}, 16, 1303, 1 << 16, 2);
    check_random_grad({1, 2, 3, 5, 8, 13}, 12, 1404, 1 << 16, 3);
    check_random_grad({1, 2, 3, 5, 7}, 12, 1505, 1 << 16, 5);
}

TEST_CASE("backward: random medium shapes, statistics spanning many chunks", "[random][gpu][grad]") {
    check_random_grad({1, 3, 16, 31, 64, 97}, 5, 1202, 1 << 19);
}

TEST_CASE("backward: statistics on both sides of the fused kernel's limit, every method", "[random][gpu][grad]") {
    // The backward fuses where the forward's plan does (one window). Per method, the longest
    // statistic of these lengths that the current plan fuses and the next one, which it splits
    // (subgroup plan on lavapipe: 256 floats, 512 in vec4s; workgroup plan: 8192 / 16384;
    // BatchNorm's statistic is 2·len, GroupNorm(1)'s 3·len); GroupNorm(1) also at 1028, a channel
    // that the subgroup plan's reduce chunk does not divide (γ/β pass instead of the statistics'
    // partials).
    const std::vector<std::int64_t> lengths{31,  32,  63,  64,   127,  128,   255,  256,
                                            257, 512, 516, 8192, 8196, 16384, 16388};
    std::mt19937_64 rng(2121);
    auto setup = [](core::Method m, std::int64_t groups, std::int64_t len) {
        core::NormSpec spec = core::default_spec(m);
        spec.groups = groups;
        spec.affine = true;
        if (m == core::Method::Layer || m == core::Method::Rms) spec.normalized_shape = {1, len};
        return spec;
    };
    for (auto [m, groups] : std::vector<std::pair<core::Method, std::int64_t>>{{core::Method::Layer, 0},
                                                                               {core::Method::Rms, 0},
                                                                               {core::Method::Instance, 0},
                                                                               {core::Method::Group, 3},
                                                                               {core::Method::Group, 1},
                                                                               {core::Method::Batch, 0}}) {
        auto fuses = [&](std::int64_t len) {
            const core::NormSpec spec = setup(m, groups, len);
            return normalizer().plan(core::make_layout(spec, core::Shape4{2, 3, 1, len}), spec).fused;
        };
        std::size_t i = 0;
        while (i + 1 < lengths.size() && !(fuses(lengths[i]) && !fuses(lengths[i + 1]))) ++i;
        INFO(core::method_name(m) << " G=" << groups);
        REQUIRE(i + 1 < lengths.size());
        std::vector<std::int64_t> tested{lengths[i], lengths[i + 1]};
        if (groups == 1) tested.push_back(1028);
        for (std::int64_t len : tested) {
            const core::Shape4 s{2, 3, 1, len};
            const core::NormSpec spec = setup(m, groups, len);
            const core::StatLayout L = core::make_layout(spec, s);
            core::NormParams params;
            params.weight = make_tensor({1, 1, 1, L.param_count}, core::Init::Randn, rng()).data;
            if (spec.has_bias()) params.bias = make_tensor({1, 1, 1, L.param_count}, core::Init::Randn, rng()).data;
            core::Tensor x = make_tensor(s, core::Init::Randn, rng()), dy = make_tensor(s, core::Init::Randn, rng());
            auto g = compare_grad(x, dy, spec, params);
            INFO(describe(s, spec));
            CHECK(rel_err(g.gpu.dx.data, g.ref.dx) <= 1e-4);
            CHECK(rel_err(g.gpu.dweight, g.ref.dweight) <= 1e-4);
            CHECK(rel_err(g.gpu.dbias, g.ref.dbias) <= 1e-4);
        }
    }
}

// Sets NORMLAB_GRAD_LOOPED for one scope ("" unsets it) and puts the old value back.
struct LoopedEnv {
    std::string old;
    bool had = false;
    explicit LoopedEnv(const char* mode) {
        if (const char* e = std::getenv("NORMLAB_GRAD_LOOPED")) had = true, old = e;
        *mode ? ::setenv("NORMLAB_GRAD_LOOPED", mode, 1) : ::unsetenv("NORMLAB_GRAD_LOOPED");
    }
    ~LoopedEnv() { had ? ::setenv("NORMLAB_GRAD_LOOPED", old.c_str(), 1) : ::unsetenv("NORMLAB_GRAD_LOOPED"); }
    LoopedEnv(const LoopedEnv&) = delete;
    LoopedEnv& operator=(const LoopedEnv&) = delete;
};

TEST_CASE("backward: split statistics, looped kernel and split passes, forced and by the plan", "[gpu][grad]") {
    // Where the forward splits a statistic, the backward loops over whole statistics per owner
    // (grad_looped.comp) where the device has owners enough (a CPU device: 1; a GPU: 2048), else
    // runs the reduce, merge and apply passes; NORMLAB_GRAD_LOOPED=1 / 0 forces either. Owners:
    // one per statistic (InstanceNorm, one γ each; GroupNorm 1 and 8, a γ per channel, summed
    // channel by channel), one per block of up to 32 statistics (layer/rms), here 1 and 2 of them
    // (blocks of 1 and of 17 statistics). GroupNorm with affine on and off.
    std::mt19937_64 rng(2222);
    struct Case {
        core::Method m;
        std::int64_t groups, channels;
    };
    for (auto [m, groups, C] : std::vector<Case>{{core::Method::Instance, 0, 1},
                                                 {core::Method::Layer, 0, 1},
                                                 {core::Method::Rms, 0, 1},
                                                 {core::Method::Group, 1, 4},
                                                 {core::Method::Group, 8, 16}}) {
        const bool rows = m == core::Method::Layer || m == core::Method::Rms, group = m == core::Method::Group;
        int tested = 0;  // the two shortest split lengths of the plan: a scalar one and a vec4 one
        for (std::int64_t len : {1030, 2048, 16390, 16392}) {
            if (tested == 2) break;
            core::NormSpec spec = core::default_spec(m);
            spec.groups = groups;
            if (rows) spec.normalized_shape = {1, len};
            spec.affine = true;
            if (normalizer().plan(core::make_layout(spec, core::Shape4{1, C, 1, len}), spec).fused) continue;
            ++tested;
            for (bool affine : group ? std::vector<bool>{true, false} : std::vector<bool>{true})
                for (std::int64_t owners : {1, 2}) {
                    spec.affine = affine;
                    const std::int64_t S = rows ? 32 * (owners - 1) + 1 : owners;
                    const core::Shape4 s = group ? core::Shape4{owners, C, 1, len} : core::Shape4{1, S, 1, len};
                    const core::StatLayout L = core::make_layout(spec, s);
                    core::NormParams params;
                    if (affine) params.weight = make_tensor({1, 1, 1, L.param_count}, core::Init::Randn, rng()).data;
                    if (spec.has_bias())
                        params.bias = make_tensor({1, 1, 1, L.param_count}, core::Init::Randn, rng()).data;
                    core::Tensor x = make_tensor(s, core::Init::Randn, rng()),
                                 dy = make_tensor(s, core::Init::Randn, rng());
                    for (const char* mode : {"", "0", "1"}) {
                        LoopedEnv env(mode);
                        auto g = compare_grad(x, dy, spec, params);
                        INFO(describe(s, spec) << " NORMLAB_GRAD_LOOPED=" << mode);
                        CHECK(rel_err(g.gpu.dx.data, g.ref.dx) <= 1e-4);
                        CHECK(g.gpu.dweight.size() == g.ref.dweight.size());
                        CHECK(g.gpu.dbias.size() == g.ref.dbias.size());
                        CHECK(rel_err(g.gpu.dweight, g.ref.dweight) <= 1e-4);
                        CHECK(rel_err(g.gpu.dbias, g.ref.dbias) <= 1e-4);
                        CHECK(g.gpu.mean_g.size() == static_cast<std::size_t>(L.stat_count));
                    }
                }
        }
        INFO(core::method_name(m) << " G=" << groups);
        CHECK(tested == 2);
    }
}

TEST_CASE("backward: the reference matches a finite difference of the forward", "[grad]") {
    // Float64 reference only: L(x + h·e_i) − L(x − h·e_i) over 2h for a few elements.
    core::Tensor x = make_tensor({3, 4, 2, 3}, core::Init::Randn, 7),
                 dy = make_tensor({3, 4, 2, 3}, core::Init::Randn, 8);
    for (core::Method m :
         {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group, core::Method::Rms}) {
        core::NormSpec spec = core::default_spec(m);
        if (m == core::Method::Group) spec.groups = 2;
        if (m == core::Method::Layer) spec.normalized_shape = {2, 3};
        core::NormParams p;
        const auto P = core::make_layout(spec, x.shape).param_count;
        for (std::int64_t i = 0; spec.has_weight() && i < P; ++i) p.weight.push_back(0.5f + 0.1f * float(i % 7));
        auto grad = reference::reference_backward(reference::Reference(x, spec, p), dy);
        auto loss = [&](const core::Tensor& xt) {
            auto y = reference::Reference(xt, spec, p).y_all();
            double l = 0;
            for (std::size_t i = 0; i < y.size(); ++i) l += dy.data[i] * y[i];
            return l;
        };
        for (std::size_t i : {0u, 5u, 17u, 40u, 71u}) {
            core::Tensor a = x, b = x;
            const float h = 1e-2f;
            a.data[i] += h;
            b.data[i] -= h;
            const double fd = (loss(a) - loss(b)) / (static_cast<double>(a.data[i]) - b.data[i]);
            INFO(core::method_name(m) << " element " << i);
            CHECK(std::abs(fd - grad.dx[i]) <= 2e-3 * std::max(1.0, std::abs(grad.dx[i])));
        }
    }
}

TEST_CASE("backward: Σ ∂L/∂x = 0 within each statistic where the method centers", "[numerics][gpu][grad]") {
    core::Tensor x = make_tensor({4, 6, 9, 7}, core::Init::Randn, 31),
                 dy = make_tensor({4, 6, 9, 7}, core::Init::Randn, 32);
    for (core::Method m : {core::Method::Batch, core::Method::Layer, core::Method::Instance, core::Method::Group}) {
        core::NormSpec spec = core::default_spec(m);  // γ = 1
        if (m == core::Method::Group) spec.groups = 3;
        if (m == core::Method::Layer) spec.normalized_shape = {9, 7};
        auto g = ops::run_backward(normalizer(), backward(), x, dy, spec, {});
        const core::StatLayout L = core::make_layout(spec, x.shape);
        for (std::int64_t s = 0; s < L.stat_count; ++s) {
            double sum = 0, abs_sum = 0;
            for (std::int64_t e = 0; e < L.count(); ++e) {
                const double d = g.dx.data[static_cast<std::size_t>(L.element_offset(s, e))];
                sum += d;
                abs_sum += std::abs(d);
            }
            INFO(core::method_name(m) << " statistic " << s);
            CHECK(std::abs(sum) <= 1e-5 * abs_sum);
            CHECK(abs_sum > 0);
        }
    }
    // RMSNorm does not center: the sum is not 0 in general.
    core::NormSpec rms = core::default_spec(core::Method::Rms);
    auto g = ops::run_backward(normalizer(), backward(), x, dy, rms, {});
    double sum = 0;
    for (std::int64_t e = 0; e < core::make_layout(rms, x.shape).count(); ++e)
        sum += g.dx.data[static_cast<std::size_t>(e)];
    CHECK(std::abs(sum) > 1e-3);
}

TEST_CASE("backward: a grad-output of another shape is refused with both shapes named", "[grad][gpu]") {
    core::Tensor x = make_tensor({2, 3, 4, 5}, core::Init::Randn, 1),
                 dy = make_tensor({2, 3, 5, 4}, core::Init::Randn, 2);
    try {
        ops::run_backward(normalizer(), backward(), x, dy, core::default_spec(core::Method::Layer), {});
        FAIL("no error");
    } catch (const core::InputError& e) {
        CHECK(std::string(e.what()) ==
              "--grad-output has shape [2, 3, 5, 4], the input has shape [2, 3, 4, 5]; they "
              "must be equal");
    }
}

namespace {
// Every PyTorch autograd fixture whose norm `take` accepts: ∂L/∂x, ∂L/∂γ, ∂L/∂β against autograd.
void check_golden_grad(const std::function<bool(const std::string&)>& take) {
    using nlohmann::json;
    const std::string dir = std::string(NORMLAB_SOURCE_DIR) + "/tests/golden/grad/";
    std::ifstream in(dir + "cases.json");
    REQUIRE(in.good());
    const json cases = json::parse(in);
    REQUIRE(cases.size() >= 20);
    auto read64 = [](const std::string& path) {  // float64 .npy, read exactly
        std::ifstream f(path, std::ios::binary);
        std::string raw((std::istreambuf_iterator<char>(f)), {});
        const std::size_t n = static_cast<std::size_t>(io::read_npy(path).data.size());
        std::vector<double> v(n);
        REQUIRE(raw.size() >= n * 8);
        std::memcpy(v.data(), raw.data() + raw.size() - n * 8, n * 8);
        return v;
    };
    auto tensor = [](const io::NpyArray& a) {
        core::Tensor t;
        t.shape = core::Shape4::from_dims(a.shape);
        t.data = a.data;
        return t;
    };
    for (const auto& c : cases) {
        if (!take(c.at("norm").get<std::string>())) continue;
        const std::string name = c.at("name");
        const std::string d = dir + name + "/";
        INFO("case " << name);
        core::NormSpec spec = core::default_spec(*core::parse_method(c.at("norm")));
        spec.eps = c.at("eps").get<double>();
        spec.affine = c.at("affine").get<bool>();
        if (c.contains("groups")) spec.groups = c.at("groups");
        if (c.contains("normalized_shape"))
            spec.normalized_shape = c.at("normalized_shape").get<std::vector<std::int64_t>>();
        if (c.contains("bias")) spec.bias = c.at("bias").get<bool>();
        if (c.contains("mode")) spec.mode = *core::parse_mode(c.at("mode"));
        const auto files = c.at("files").get<std::vector<std::string>>();
        auto has = [&](const char* f) { return std::find(files.begin(), files.end(), f) != files.end(); };
        core::NormParams p;
        if (has("weight.npy")) p.weight = io::read_npy(d + "weight.npy").data;
        if (has("bias.npy")) p.bias = io::read_npy(d + "bias.npy").data;
        if (has("running_mean.npy")) p.running_mean = io::read_npy(d + "running_mean.npy").data;
        if (has("running_var.npy")) p.running_var = io::read_npy(d + "running_var.npy").data;
        const core::Tensor x = tensor(io::read_npy(d + "x.npy")), dy = tensor(io::read_npy(d + "dy.npy"));
        auto g = ops::run_backward(normalizer(), backward(), x, dy, spec, p);
        // The x = 1e4 + 0.1·randn cases within 1e-3 of max |dx|; the others within 1e-5.
        const double tol = c.at("offset").get<bool>() ? 1e-3 : 1e-5;
        const auto dx = read64(d + "dx.npy");
        CHECK(reference::max_abs_error(g.dx.data, dx) <= tol * max_abs(dx));
        CHECK(g.dweight.empty() == !spec.has_weight());
        CHECK(g.dbias.empty() == !spec.has_bias());
        if (spec.has_weight()) {
            const auto dw = read64(d + "dweight.npy");
            CHECK(rel_err(g.dweight, dw) <= tol);
        }
        if (spec.has_bias()) {
            const auto db = read64(d + "dbias.npy");
            CHECK(rel_err(g.dbias, db) <= tol);
        }
        // The float64 reference agrees with autograd to float64 precision.
        const auto ref = reference::reference_backward(reference::Reference(x, spec, p), dy);
        CHECK(rel_err(std::vector<double>(ref.dx), dx) <= 1e-9);
    }
}
}  // namespace

TEST_CASE("backward: PyTorch autograd golden fixtures", "[golden][gpu][grad]") {
    check_golden_grad([](const std::string&) { return true; });
}

TEST_CASE("backward: GroupNorm's golden fixtures through the looped kernel and without it", "[golden][gpu][grad]") {
    // NORMLAB_GRAD_LOOPED=1 takes grad_looped.comp also where the forward fuses (these fixtures are
    // small): G = 1 and 1 < G < C sum ∂L/∂γ, ∂L/∂β channel by channel; G=2 with affine off; 0 the
    // kernels of the plan without it.
    for (const char* mode : {"1", "0"}) {
        LoopedEnv env(mode);
        INFO("NORMLAB_GRAD_LOOPED=" << mode);
        check_golden_grad([](const std::string& norm) { return norm == "group"; });
    }
}

TEST_CASE("backward: a one-hot dy gives one Jacobian row whose support is the statistic group",
          "[numerics][gpu][grad]") {
    // What the app's gradient view shows: ∂y_k/∂x is non-zero exactly on y_k's statistic group
    // (BatchNorm eval: on x_k alone).
    const core::Shape4 shape{3, 4, 5, 3};
    core::Tensor x = make_tensor(shape, core::Init::Randn, 41);
    const std::int64_t k = x.offset(1, 2, 3, 1);
    core::Tensor dy(shape, 0.0f);
    dy.data[static_cast<std::size_t>(k)] = 1.0f;
    for (int variant = 0; variant < 6; ++variant) {
        core::NormSpec spec = core::default_spec(variant == 5 ? core::Method::Batch
                                                              : core::methods()[static_cast<std::size_t>(variant)].id);
        if (spec.method == core::Method::Group) spec.groups = 2;
        if (variant == 5) spec.mode = core::Mode::Eval;
        auto g = ops::run_backward(normalizer(), backward(), x, dy, spec, {});
        const core::StatLayout L = core::make_layout(spec, shape);
        INFO(core::method_name(spec.method) << (variant == 5 ? " eval" : ""));
        for (std::int64_t i = 0; i < shape.numel(); ++i) {
            const bool in_support = variant == 5 ? i == k : L.stat_of(i) == L.stat_of(k);
            const float d = g.dx.data[static_cast<std::size_t>(i)];
            if (in_support != (d != 0.0f)) FAIL_CHECK("element " << i << ": dx = " << d);
        }
    }
}
