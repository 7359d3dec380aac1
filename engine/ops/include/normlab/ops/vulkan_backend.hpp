// VulkanBackend: the ComputeBackend of the desktop (compute_backend.hpp) — one Normalizer, the
// SyncBatchNorm that runs on it, one Histogram and the Backward made when first asked for. Its
// device tensors are GpuBuffers: vulkan_buffer() gives the Vulkan views (the heatmap's fill
// shader) the buffer behind one. The app, normlab-cli --figure and the session tests run the
// Session on it; the ops it wraps stay usable on their own (normlab-cli, the GPU suites).
#pragma once
#include "normlab/ops/backward.hpp"
#include "normlab/plan/compute_backend.hpp"
#include "normlab/ops/histogram.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/ops/sync_bn.hpp"

#include <memory>

namespace normlab::ops {

// A DeviceTensor of this backend: a GpuBuffer it owns, or one of the Normalizer's.
class VulkanTensor : public plan::DeviceTensor {
public:
    VulkanTensor() : buffer_(&own_) {}
    explicit VulkanTensor(const gpu::GpuBuffer& borrowed) : buffer_(&borrowed) {}
    std::uint64_t identity() const override;
    const gpu::GpuBuffer& buffer() const { return *buffer_; }
    gpu::GpuBuffer& own() { return own_; }

private:
    gpu::GpuBuffer own_;
    const gpu::GpuBuffer* buffer_;
};

// The GpuBuffer behind a device tensor of a VulkanBackend.
const gpu::GpuBuffer& vulkan_buffer(const plan::DeviceTensor& t);

class VulkanBackend : public plan::ComputeBackend {
public:
    explicit VulkanBackend(const gpu::VulkanContext& ctx);

    const std::string& device_name() const override { return ctx_->device_name(); }
    std::uint64_t max_binding_bytes() const override { return ctx_->limits().maxStorageBufferRange; }
    core::NormResult normalize(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                               const plan::RunOptions& options) override;
    void load_values(const core::Tensor& x, const core::Tensor& y) override { normalizer_.load_values(x, y); }
    const plan::DeviceTensor& x_device() const override { return x_; }
    const plan::DeviceTensor& y_device() const override { return y_; }
    std::unique_ptr<plan::DeviceTensor> make_tensor() override { return std::make_unique<VulkanTensor>(); }
    void upload(const std::vector<plan::TensorUpload>& copies) override;
    plan::HistogramResult histogram(const plan::DeviceTensor& values, const plan::ElementSet& set, std::uint32_t bins,
                                    const plan::DeviceTensor* subtract) override;
    core::GradResult backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                              const core::NormParams& params) override;
    void wait_idle() override { ctx_->device().waitIdle(); }

    const gpu::VulkanContext& context() const { return *ctx_; }
    Normalizer& normalizer() { return normalizer_; }

private:
    const gpu::VulkanContext* ctx_;
    Normalizer normalizer_;
    SyncBatchNorm sync_;  // runs on normalizer_ (SyncBN on simulated devices)
    Histogram histogram_;
    std::unique_ptr<Backward> backward_;  // on normalizer_, made when first asked for
    VulkanTensor x_, y_;                  // the Normalizer's x and y buffers
};

}  // namespace normlab::ops
