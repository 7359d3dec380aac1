#include "normlab/webgpu/wgpu_backend.hpp"

#include "normlab/core/error.hpp"
#include "wgpu_dispatch.hpp"

#include <algorithm>

namespace normlab::webgpu {

const WgpuBuffer& wgpu_buffer(const plan::DeviceTensor& t) {
    const auto* w = dynamic_cast<const WgpuTensor*>(&t);
    if (!w) throw core::InternalError("a device tensor of another backend reached the WebGPU backend");
    return w->buffer();
}

WgpuBackend::WgpuBackend(WgpuContext& ctx)
    : ctx_(&ctx),
      normalizer_(ctx),
      sync_(normalizer_),
      histogram_(ctx),
      backward_(normalizer_),
      x_(normalizer_.buffers().x),
      y_(normalizer_.buffers().y) {}

std::uint64_t WgpuBackend::max_binding_bytes() const {
    return std::min(ctx_->limits().max_storage_binding, ctx_->limits().max_buffer);
}

void WgpuBackend::upload(const std::vector<plan::TensorUpload>& copies) {
    for (const plan::TensorUpload& c : copies) {
        auto* t = dynamic_cast<WgpuTensor*>(c.dst);
        if (!t || &t->buffer() != &t->own())
            throw core::InternalError("an upload to a device tensor this backend did not make");
        const std::uint64_t bytes = c.values->size() * 4;
        if (bytes > max_binding_bytes())
            throw core::InputError("a tensor of " + std::to_string(bytes) +
                                   " bytes is more than this WebGPU device binds (" +
                                   std::to_string(max_binding_bytes()) + " bytes)");
        ensure(t->own(), *ctx_, bytes, kStorage);
        t->own().write(*ctx_, c.values->data(), bytes);
    }
}

plan::HistogramResult WgpuBackend::histogram(const plan::DeviceTensor& values, const plan::ElementSet& set,
                                             std::uint32_t bins, const plan::DeviceTensor* subtract) {
    return histogram_.run(wgpu_buffer(values), set, bins, subtract ? &wgpu_buffer(*subtract) : nullptr);
}

core::GradResult WgpuBackend::backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                                       const core::NormParams& params) {
    core::check_grad_shape(x.shape, dy.shape.dims());
    normalizer_.run(x, spec, params, plan::RunOptions{.reuse_x = false, .read_y = false});
    return backward_.run(dy);
}

}  // namespace normlab::webgpu
