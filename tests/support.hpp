// Test support: one VulkanContext + Normalizer per test process (created on first use),
// random configurations, and comparisons against the float64 reference.
#pragma once
#include "normlab/ops/backward.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/core/reference.hpp"
#include "normlab/core/tensor_init.hpp"
#include "random_configs.hpp"

#include <random>
#include <string>

namespace normlab::test {

VulkanContext& context();
Normalizer& normalizer();
Backward& backward();  // the backward pass of normalizer()'s runs
bool context_created();
// Destroys the Normalizer and the context; call before main returns (the Vulkan driver's own
// exit handlers run before static destructors would).
void shutdown();

// Runs x through the GPU and the reference; returns max |y_gpu − y_ref|.
struct Compared {
    NormResult gpu;
    ReferenceResult ref;
    double y_err = 0;
    double mean_err = 0;  // max |μ_gpu − μ_ref| (or mean_square for rms)
    double var_err = 0;   // max |σ²_gpu − σ²_ref| relative to max(1, σ²_ref)
    double running_err = 0;
};
Compared compare(const Tensor& x, const NormSpec& spec, const NormParams& params = {});

}  // namespace normlab::test
