// Test support: one VulkanContext + Normalizer per test process (created on first use),
// random configurations, and comparisons against the float64 reference.
#pragma once
#include "normlab/ops/backward.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/core/tensor_init.hpp"
#include "random_configs.hpp"

#include <random>
#include <string>

namespace normlab::test {

gpu::VulkanContext& context();
ops::Normalizer& normalizer();
ops::Backward& backward();  // the backward pass of normalizer()'s runs
bool context_created();
// Destroys the Normalizer and the context; call before main returns (the Vulkan driver's own
// exit handlers run before static destructors would).
void shutdown();

// Runs x through the GPU and the reference; returns max |y_gpu − y_ref|.
struct Compared {
    core::NormResult gpu;
    reference::ReferenceResult ref;
    double y_err = 0;
    double mean_err = 0;  // max |μ_gpu − μ_ref| (or mean_square for rms)
    double var_err = 0;   // max |σ²_gpu − σ²_ref| relative to max(1, σ²_ref)
    double running_err = 0;
};
Compared compare(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params = {});

}  // namespace normlab::test
