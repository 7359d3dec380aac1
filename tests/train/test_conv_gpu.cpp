// The cnn ops' kernels (shaders/train_conv*.comp, train_pool*.comp) as planned by conv_plan and pool_plan, run
// on the Vulkan device through the TrainRunner against the float64 references (conv_reference, pool_reference)
// on the random and odd shapes of tests/train/conv_cases.hpp, the table the browser's suite runs on WebGPU too
// (tests/web/wasm/train_test.cpp). Tolerances are float32's bound for a sum of K rounded terms,
// |gpu − ref| ≤ (K + 1)·ε·Σ|terms|, K the longest chain of additions in the Vulkan kernels.
#include "conv_cases.hpp"
#include "normlab/ops/train_runner.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace normlab;

TEST_CASE("Conv2d 3x3 and pooling kernels against the float64 references on the cases' shapes",
          "[train][conv][pool][gpu]") {
    const auto& cases = test::conv_kernel_cases();
    REQUIRE(cases.size() == 37);
    for (const auto& k : cases) {
        INFO(k.name);
        ops::TrainRunner runner(test::context(), k.program, 1);
        const auto failures = k.check(test::run_kernel_case(runner, k), test::ConvBackend::Vulkan);
        for (const auto& f : failures) FAIL_CHECK(f);
        CHECK(failures.empty());
    }
}

TEST_CASE("the kernel cases' checks fail on a result one bound off", "[train][conv][gpu]") {
    // A negative control: each case's first buffer it checks moved by a little more than its bound.
    const auto& cases = test::conv_kernel_cases();
    for (std::size_t i : {std::size_t{0}, std::size_t{18}, cases.size() - 1}) {
        const auto& k = cases[i];
        INFO(k.name);
        ops::TrainRunner runner(test::context(), k.program, 1);
        auto out = test::run_kernel_case(runner, k);
        REQUIRE(k.check(out, test::ConvBackend::Vulkan).empty());
        for (auto& values : out)
            for (auto& v : values) v += 1e-3f * (1.0f + std::abs(v));
        CHECK(k.check(out, test::ConvBackend::Vulkan).size() >= 4);
    }
}
