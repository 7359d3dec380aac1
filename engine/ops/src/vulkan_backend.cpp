#include "normlab/ops/vulkan_backend.hpp"

#include "normlab/core/error.hpp"

namespace normlab {

std::uint64_t VulkanTensor::identity() const { return buffer_->generation(); }

const GpuBuffer& vulkan_buffer(const DeviceTensor& t) {
    const auto* v = dynamic_cast<const VulkanTensor*>(&t);
    if (!v) throw InternalError("a device tensor of another backend reached the Vulkan backend");
    return v->buffer();
}

VulkanBackend::VulkanBackend(const VulkanContext& ctx)
    : ctx_(&ctx),
      normalizer_(ctx),
      sync_(normalizer_),
      histogram_(ctx),
      x_(normalizer_.x_buffer()),
      y_(normalizer_.y_buffer()) {}

NormResult VulkanBackend::normalize(const Tensor& x, const NormSpec& spec, const NormParams& params,
                                    const RunOptions& options) {
    return sync_.run(x, spec, params, options);
}

void VulkanBackend::upload(const std::vector<TensorUpload>& copies) {
    std::vector<HostToDevice> up;
    for (const TensorUpload& c : copies) {
        auto* t = dynamic_cast<VulkanTensor*>(c.dst);
        if (!t || &t->buffer() != &t->own())
            throw InternalError("an upload to a device tensor this backend did not make");
        const vk::DeviceSize bytes = c.values->size() * 4;
        ensure_compute_buffer(*ctx_, t->own(), bytes);
        up.push_back({&t->own(), 0, c.values->data(), bytes});
    }
    normalizer_.staging().upload(up);
}

HistogramResult VulkanBackend::histogram(const DeviceTensor& values, const ElementSet& set, std::uint32_t bins,
                                         const DeviceTensor* subtract) {
    return histogram_.run(vulkan_buffer(values), set, bins, subtract ? &vulkan_buffer(*subtract) : nullptr);
}

GradResult VulkanBackend::backward(const Tensor& x, const Tensor& dy, const NormSpec& spec, const NormParams& params) {
    if (!backward_) backward_ = std::make_unique<Backward>(normalizer_);
    return run_backward(normalizer_, *backward_, x, dy, spec, params);
}

}  // namespace normlab
