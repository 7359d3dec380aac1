#include "web_train.hpp"

namespace normlab::web {

app::TrainDeviceFactory train_device_factory(const PageBackend& backend) {
    if (!backend.ctx) return {};  // the CPU backend: no trainer
    // WebGPU: engine/webgpu's training runner is set here when it comes; none yet.
    return {};
}

}  // namespace normlab::web
