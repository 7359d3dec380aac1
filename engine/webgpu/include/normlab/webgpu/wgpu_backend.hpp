// WgpuBackend: the ComputeBackend of the browser (normlab/plan/compute_backend.hpp) — one
// WgpuNormalizer, the WgpuSyncBatchNorm that runs on it (SyncBN on simulated devices), one
// WgpuHistogram and the WgpuBackward on that normalizer, so the app's model (engine/session's
// Session) runs on WebGPU as it runs on Vulkan. Its device tensors are WgpuBuffers: wgpu_buffer()
// gives the browser's views (the WGSL heatmap fill) the buffer behind one.
#pragma once
#include "normlab/plan/compute_backend.hpp"
#include "normlab/webgpu/wgpu_backward.hpp"
#include "normlab/webgpu/wgpu_histogram.hpp"
#include "normlab/webgpu/wgpu_normalizer.hpp"
#include "normlab/webgpu/wgpu_sync_bn.hpp"

#include <memory>

namespace normlab::webgpu {

// A DeviceTensor of this backend: a WgpuBuffer it owns, or one of the normalizer's.
class WgpuTensor : public plan::DeviceTensor {
public:
    WgpuTensor() : buffer_(&own_) {}
    explicit WgpuTensor(const WgpuBuffer& borrowed) : buffer_(&borrowed) {}
    std::uint64_t identity() const override { return buffer_->generation(); }
    const WgpuBuffer& buffer() const { return *buffer_; }
    WgpuBuffer& own() { return own_; }

private:
    WgpuBuffer own_;
    const WgpuBuffer* buffer_;
};

// The WgpuBuffer behind a device tensor of a WgpuBackend.
const WgpuBuffer& wgpu_buffer(const plan::DeviceTensor& t);

class WgpuBackend : public plan::ComputeBackend {
public:
    explicit WgpuBackend(WgpuContext& ctx);

    const std::string& device_name() const override { return ctx_->device_name(); }
    std::uint64_t max_binding_bytes() const override;
    core::NormResult normalize(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                               const plan::RunOptions& options) override {
        return sync_.run(x, spec, params, options);
    }
    void load_values(const core::Tensor& x, const core::Tensor& y) override { normalizer_.load_values(x, y); }
    const plan::DeviceTensor& x_device() const override { return x_; }
    const plan::DeviceTensor& y_device() const override { return y_; }
    std::unique_ptr<plan::DeviceTensor> make_tensor() override { return std::make_unique<WgpuTensor>(); }
    void upload(const std::vector<plan::TensorUpload>& copies) override;
    plan::HistogramResult histogram(const plan::DeviceTensor& values, const plan::ElementSet& set, std::uint32_t bins,
                                    const plan::DeviceTensor* subtract) override;
    core::GradResult backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                              const core::NormParams& params) override;
    // Each readback waits for its queue's work; the page draws with WebGL, which reads no WebGPU buffer.
    void wait_idle() override {}

    WgpuContext& context() { return *ctx_; }
    WgpuNormalizer& normalizer() { return normalizer_; }

private:
    WgpuContext* ctx_;
    WgpuNormalizer normalizer_;
    WgpuSyncBatchNorm sync_;  // runs on normalizer_ (SyncBN on simulated devices)
    WgpuHistogram histogram_;
    WgpuBackward backward_;
    WgpuTensor x_, y_;  // the normalizer's x and y buffers
};

}  // namespace normlab::webgpu
