// onnxruntime-web's side of the browser bench, run by the bench page (bench_page.js:
// Module.normlabOrtStart/Busy/Error) between normlab's own repetitions, so that both are timed at
// the same moments of a shared, noisy adapter instead of one after the other.
#pragma once

#include "normlab/webgpu/wgpu_context.hpp"

#include <string>

namespace normlab::webbench {

// Runs `step` of the page's onnxruntime-web for case `name` and waits until it has finished:
// "load" (arg: the shape as Shape4::str writes it, which models.json must hold), "open" (arg: the
// model; y read once, two warm-up runs), "run" (one timed run), "close" (y compared with the
// case's own y). The wait is ctx's (WgpuContext::wait), woken when the page's step settles.
// Throws DeviceError with the page's line when the step failed.
void ort_step(const webgpu::WgpuContext& ctx, const char* step, const std::string& arg, const std::string& name = "");

}  // namespace normlab::webbench
