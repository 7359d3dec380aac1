#include "page_backend.hpp"

#include "normlab/core/error.hpp"
#include "normlab/cpu/cpu_backend.hpp"
#include "normlab/webgpu/wgpu_backend.hpp"

namespace normlab::web {

std::unique_ptr<plan::ComputeBackend> make_cpu_backend(const std::string& reason) {
    return std::make_unique<cpu::CpuBackend>("CPU — " + reason);
}

PageBackend make_page_backend(const std::string& no_webgpu, const std::function<void(const std::string&)>& on_lost) {
    PageBackend b;
    b.cpu_reason = no_webgpu;
    if (b.cpu_reason.empty()) {
        try {
            b.ctx = std::make_unique<webgpu::WgpuContext>();
            b.ctx->on_lost(on_lost);
            b.backend = std::make_unique<webgpu::WgpuBackend>(*b.ctx);
            return b;
        } catch (const core::DeviceError& e) {  // an adapter without a usable device: the CPU, saying why
            b.backend.reset();
            b.ctx.reset();
            b.cpu_reason = std::string("this browser's WebGPU gave no usable device (") + e.what() + ")";
        }
    }
    b.backend = make_cpu_backend(b.cpu_reason);
    return b;
}

}  // namespace normlab::web
