#include "web_train.hpp"

#include "normlab/webgpu/wgpu_train_runner.hpp"

namespace normlab::web {

views::TrainDeviceFactory train_device_factory(const PageBackend& backend) {
    if (!backend.ctx) return {};                         // the CPU backend: no trainer
    const webgpu::WgpuContext* ctx = backend.ctx.get();  // outlives the shell's runs (web_app.hpp's order)
    return {[ctx](train::TrainProgram program, int steps_per_submit) {
                return webgpu::make_wgpu_train_device(*ctx, std::move(program), steps_per_submit);
            },
            ctx->limits().max_storage_buffers};
}

}  // namespace normlab::web
