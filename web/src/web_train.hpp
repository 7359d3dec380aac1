// The browser app's Train view devices: the one place web/src says what trains a TrainProgram in the
// page (normlab/views/train_runs.hpp: TrainDeviceFactory).
#pragma once
#include "page_backend.hpp"
#include "normlab/views/train_runs.hpp"

namespace normlab::web {

// The factory of the Train view's devices on the page's backend: engine/webgpu's training runner
// where the page runs on WebGPU; empty on the CPU backend, which has no trainer (the Train view then
// says in one line that training is not available on this backend).
views::TrainDeviceFactory train_device_factory(const PageBackend& backend);

}  // namespace normlab::web
