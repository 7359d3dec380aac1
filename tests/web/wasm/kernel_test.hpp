// The WebGPU kernels against the float64 Reference in the browser (?test=kernels): every method
// and flag, the random-shape matrix of tests/gpu/test_random_vs_reference.cpp (seeded; dims of
// 1, odd and prime sizes, 3-D shapes, statistics split over many workgroups), the numerics of
// tests/gpu/test_numerics.cpp (x = 1e4 + 0.1·randn, NaN/Inf, constant input), with the Vulkan
// suite's tolerances. The report is JSON: cases run, failures (each described), and which
// kernel paths ran, so the test driver can tell a full run from an empty one. Each case also
// runs the WGSL backward against reference_backward (not the non-finite and constant inputs).
// The report's "histogram" and "heatmap" parts are the WGSL histogram's and heatmap fill's
// (histogram_test.hpp, heatmap_test.hpp); its "session" part is the app's model on this backend
// (session_test.hpp), its "sync" part SyncBN on the backend's simulated devices (sync_test.hpp).
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <string>

namespace normlab::web {

std::string run_kernel_tests(webgpu::WgpuBackend& backend);
// The backward's worst error (∂L/∂x, ∂L/∂γ, ∂L/∂β) against reference_backward, relative to
// max(1, max |reference|) as tests/gpu/test_backward.cpp measures it.
double grad_error(const core::GradResult& g, const reference::GradReference& ref);

}  // namespace normlab::web
