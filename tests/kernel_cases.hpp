// One table of backward kernel cases that both GPU suites iterate: tests/gpu/test_backward.cpp on
// the Vulkan backend and tests/web/wasm/kernel_test.cpp on the WebGPU backend in the browser. Each
// case names the path the backward plan (normlab/plan/backward_plan.hpp) takes on a CPU device
// (lavapipe, SwiftShader: where both suites run) for each kernel family; each suite checks that its
// backend took it (last_path) and that the gradients match the float64 reference.
// Backend-neutral: depends on engine/core only.
#pragma once
#include "normlab/core/norm_params.hpp"
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/shape.hpp"

#include <string>
#include <vector>

namespace normlab::test {

struct GradCase {
    std::string name;
    core::Shape4 shape;
    core::NormSpec spec;
    core::NormParams params;
    std::string vulkan, webgpu;  // "fused", "looped", "split" or "eval"
};

const std::vector<GradCase>& grad_cases();

}  // namespace normlab::test
