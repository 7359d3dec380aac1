// Training on WebGPU in the browser (index.html?test=train): the WgpuTrainRunner with the WGSL training
// kernels against PyTorch's golden runs and the float64 reference, by the Vulkan suite's own checks
// (tests/train/train_checks.hpp, the golden files embedded at /golden): one mlp configuration of each norm
// against MlpReference (with one invocation and with a workgroup per norm set), PyTorch's mlp runs
// (tests/golden/train) and cnn runs (tests/golden/train_ops/cnn_runs.json), the cnn against its float64
// reference (CnnReference, tests/train/cnn_checks.hpp), the WGSL conv and pooling kernels on the Vulkan suite's
// case table (tests/train/conv_cases.hpp), a run submitted in slices whenever poll() says done against one run,
// programs the runner refuses, and negative controls.
// Mode "quick": 3 of the 10 mlp runs, 2 of the 6 cnn runs and 6 of the 21 cnn reference configurations;
// "full": all. Both run all 36 kernel cases. Mode "bench": 200 steps of
// the mlp (4 layers of 32, batch 32) and of the cnn (4 conv layers of 16 channels, batch 32), timed.
// The report is JSON (cases, failures, timings).
#pragma once
#include "normlab/webgpu/wgpu_context.hpp"

#include <string>

namespace normlab::web {

std::string run_train_tests(webgpu::WgpuContext& ctx, const std::string& mode);

}  // namespace normlab::web
