// The app's model in the browser's kernel test (?test=kernels, report part "session"): the twin of
// tests/session/test_session.cpp on the WebGPU backend — engine/session's Session and ShownValues on
// a WgpuBackend. Edits of the method, G and eps keep x on the device (no upload, what the device
// holds read back); the histograms count the tensor and the selected statistic; a view's values
// computed on the session's backend leave the session's x and y on the device; the backward through
// the session matches reference_backward; a refused edit keeps the state. Each check that fails is a
// line in "failures".
#pragma once
#include "normlab/webgpu/wgpu_backend.hpp"
#include "normlab/reference/grad_reference.hpp"

#include <nlohmann/json.hpp>

namespace normlab::web {

nlohmann::json run_session_tests(webgpu::WgpuBackend& backend);

}  // namespace normlab::web
