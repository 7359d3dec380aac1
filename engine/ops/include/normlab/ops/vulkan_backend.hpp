// VulkanBackend: the ComputeBackend of the desktop (compute_backend.hpp) — one Normalizer, the
// SyncBatchNorm that runs on it, one Histogram and the Backward made when first asked for. Its
// device tensors are GpuBuffers: vulkan_buffer() gives the Vulkan views (the heatmap's fill
// shader) the buffer behind one. The app, normlab-cli --figure and the session tests run the
// Session on it; the ops it wraps stay usable on their own (normlab-cli, the GPU suites).
#pragma once
#include "normlab/ops/backward.hpp"
#include "normlab/core/compute_backend.hpp"
#include "normlab/ops/histogram.hpp"
#include "normlab/ops/normalizer.hpp"
#include "normlab/ops/sync_bn.hpp"

#include <memory>

namespace normlab {

// A DeviceTensor of this backend: a GpuBuffer it owns, or one of the Normalizer's.
class VulkanTensor : public DeviceTensor {
public:
    VulkanTensor() : buffer_(&own_) {}
    explicit VulkanTensor(const GpuBuffer& borrowed) : buffer_(&borrowed) {}
    std::uint64_t identity() const override;
    const GpuBuffer& buffer() const { return *buffer_; }
    GpuBuffer& own() { return own_; }

private:
    GpuBuffer own_;
    const GpuBuffer* buffer_;
};

// The GpuBuffer behind a device tensor of a VulkanBackend.
const GpuBuffer& vulkan_buffer(const DeviceTensor& t);

class VulkanBackend : public ComputeBackend {
public:
    explicit VulkanBackend(const VulkanContext& ctx);

    const std::string& device_name() const override { return ctx_->device_name(); }
    std::uint64_t max_binding_bytes() const override { return ctx_->limits().maxStorageBufferRange; }
    NormResult normalize(const Tensor& x, const NormSpec& spec, const NormParams& params,
                         const RunOptions& options) override;
    void load_values(const Tensor& x, const Tensor& y) override { normalizer_.load_values(x, y); }
    const DeviceTensor& x_device() const override { return x_; }
    const DeviceTensor& y_device() const override { return y_; }
    std::unique_ptr<DeviceTensor> make_tensor() override { return std::make_unique<VulkanTensor>(); }
    void upload(const std::vector<TensorUpload>& copies) override;
    HistogramResult histogram(const DeviceTensor& values, const ElementSet& set, std::uint32_t bins,
                              const DeviceTensor* subtract) override;
    GradResult backward(const Tensor& x, const Tensor& dy, const NormSpec& spec, const NormParams& params) override;
    void wait_idle() override { ctx_->device().waitIdle(); }

    const VulkanContext& context() const { return *ctx_; }
    Normalizer& normalizer() { return normalizer_; }

private:
    const VulkanContext* ctx_;
    Normalizer normalizer_;
    SyncBatchNorm sync_;  // runs on normalizer_ (SyncBN on simulated devices)
    Histogram histogram_;
    std::unique_ptr<Backward> backward_;  // on normalizer_, made when first asked for
    VulkanTensor x_, y_;                  // the Normalizer's x and y buffers
};

}  // namespace normlab
