// The Train view's tests' device factory: each run's program on a Vulkan TrainRunner of the test context,
// planned for its storage-buffer limit as the desktop app's are.
#pragma once
#include "../support.hpp"
#include "normlab/ops/train_runner.hpp"
#include "normlab/views/train_runs.hpp"

#include <memory>

namespace normlab::test {

inline views::TrainDeviceFactory vulkan_factory() {
    return {[](train::TrainProgram p, int per_submit) -> std::unique_ptr<train::TrainDevice> {
                return std::make_unique<ops::TrainRunner>(context(), std::move(p), per_submit);
            },
            context().limits().maxPerStageDescriptorStorageBuffers};
}

}  // namespace normlab::test
