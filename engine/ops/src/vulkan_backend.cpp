#include "normlab/ops/vulkan_backend.hpp"

#include "normlab/core/error.hpp"

namespace normlab::ops {

std::uint64_t VulkanTensor::identity() const { return buffer_->generation(); }

const gpu::GpuBuffer& vulkan_buffer(const plan::DeviceTensor& t) {
    const auto* v = dynamic_cast<const VulkanTensor*>(&t);
    if (!v) throw core::InternalError("a device tensor of another backend reached the Vulkan backend");
    return v->buffer();
}

VulkanBackend::VulkanBackend(const gpu::VulkanContext& ctx)
    : ctx_(&ctx),
      normalizer_(ctx),
      sync_(normalizer_),
      histogram_(ctx),
      x_(normalizer_.x_buffer()),
      y_(normalizer_.y_buffer()) {}

core::NormResult VulkanBackend::normalize(const core::Tensor& x, const core::NormSpec& spec,
                                          const core::NormParams& params, const plan::RunOptions& options) {
    return sync_.run(x, spec, params, options);
}

void VulkanBackend::upload(const std::vector<plan::TensorUpload>& copies) {
    std::vector<gpu::HostToDevice> up;
    for (const plan::TensorUpload& c : copies) {
        auto* t = dynamic_cast<VulkanTensor*>(c.dst);
        if (!t || &t->buffer() != &t->own())
            throw core::InternalError("an upload to a device tensor this backend did not make");
        const vk::DeviceSize bytes = c.values->size() * 4;
        gpu::ensure_compute_buffer(*ctx_, t->own(), bytes);
        up.push_back({&t->own(), 0, c.values->data(), bytes});
    }
    normalizer_.staging().upload(up);
}

plan::HistogramResult VulkanBackend::histogram(const plan::DeviceTensor& values, const plan::ElementSet& set,
                                               std::uint32_t bins, const plan::DeviceTensor* subtract) {
    return histogram_.run(vulkan_buffer(values), set, bins, subtract ? &vulkan_buffer(*subtract) : nullptr);
}

core::GradResult VulkanBackend::backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                                         const core::NormParams& params) {
    if (!backward_) backward_ = std::make_unique<Backward>(normalizer_);
    return run_backward(normalizer_, *backward_, x, dy, spec, params);
}

}  // namespace normlab::ops
