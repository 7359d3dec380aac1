// The pages' compute backend: WebGPU where the browser has it (engine/webgpu's WgpuBackend), else
// engine/cpu's CpuBackend, in float32 on the CPU, for tensors up to its element limit. page_common.js
// finds out before the program starts whether WebGPU is there (a secure context, navigator.gpu, an
// adapter) and passes the reason it is not as `--cpu REASON`; a device the program then cannot make
// also falls back to the CPU, with that reason. The CPU backend's device name says why, so the status
// line, the summary and the statistics JSON name it ("CPU — …").
#pragma once
#include "normlab/plan/compute_backend.hpp"
#include "normlab/webgpu/wgpu_context.hpp"

#include <functional>
#include <memory>
#include <string>

namespace normlab::web {

struct PageBackend {
    std::unique_ptr<webgpu::WgpuContext> ctx;  // null on the CPU
    std::unique_ptr<plan::ComputeBackend> backend;
    std::string cpu_reason;  // why the page computes on the CPU ("": it runs on WebGPU)
};

// The backend for a page: the CPU one when `no_webgpu` (page_common.js's reason) is not empty, else
// WebGPU, or the CPU one when the WebGPU device cannot be made. `on_lost` is the device's lost-line.
PageBackend make_page_backend(const std::string& no_webgpu, const std::function<void(const std::string&)>& on_lost);

// A CPU backend named after `reason` ("CPU — REASON"), with the CPU backend's element limit.
std::unique_ptr<plan::ComputeBackend> make_cpu_backend(const std::string& reason);

}  // namespace normlab::web
