// CpuBackend: the ComputeBackend (normlab/plan/compute_backend.hpp) on the CPU, in float32 — one
// CpuNormalizer, the CpuSyncBatchNorm on it (SyncBN on simulated devices), the CPU histogram and the
// CpuBackward — for browsers without WebGPU, and for tests and tools that want the engine without a
// GPU. Its device tensors are host memory (CpuTensor); cpu_values() gives a front end the values
// behind one (the CPU heatmap fill reads x and y there). It takes tensors of at most max_elements.
#pragma once
#include "normlab/plan/compute_backend.hpp"
#include "normlab/cpu/cpu_backward.hpp"
#include "normlab/cpu/cpu_normalizer.hpp"
#include "normlab/cpu/cpu_sync_bn.hpp"

#include <memory>
#include <string>
#include <utility>

namespace normlab::cpu {

// A DeviceTensor of this backend: a CpuBuffer it owns, or one of the normalizer's.
class CpuTensor : public plan::DeviceTensor {
public:
    CpuTensor() : buffer_(&own_) {}
    explicit CpuTensor(const CpuBuffer& borrowed) : buffer_(&borrowed) {}
    std::uint64_t identity() const override { return buffer_->generation(); }
    const CpuBuffer& buffer() const { return *buffer_; }
    CpuBuffer& own() { return own_; }

private:
    CpuBuffer own_;
    const CpuBuffer* buffer_;
};

// The values behind a device tensor of a CpuBackend (InternalError for another backend's).
const CpuBuffer& cpu_values(const plan::DeviceTensor& t);

class CpuBackend : public plan::ComputeBackend {
public:
    // `name`: what device_name() says (the browser names why it runs on the CPU).
    explicit CpuBackend(std::string name = "CPU (float32)", std::int64_t max_elements = kCpuMaxElements);

    const std::string& device_name() const override { return name_; }
    bool on_cpu() const override { return true; }
    std::uint64_t max_binding_bytes() const override {
        return static_cast<std::uint64_t>(normalizer_.max_elements()) * 4;
    }
    core::NormResult normalize(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                               const plan::RunOptions& options) override {
        return sync_.run(x, spec, params, options);
    }
    void load_values(const core::Tensor& x, const core::Tensor& y) override { normalizer_.load_values(x, y); }
    const plan::DeviceTensor& x_device() const override { return x_; }
    const plan::DeviceTensor& y_device() const override { return y_; }
    std::unique_ptr<plan::DeviceTensor> make_tensor() override { return std::make_unique<CpuTensor>(); }
    void upload(const std::vector<plan::TensorUpload>& copies) override;
    plan::HistogramResult histogram(const plan::DeviceTensor& values, const plan::ElementSet& set, std::uint32_t bins,
                                    const plan::DeviceTensor* subtract) override;
    core::GradResult backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                              const core::NormParams& params) override;
    void wait_idle() override {}  // every call has finished when it returns

    CpuNormalizer& normalizer() { return normalizer_; }
    const CpuNormalizer& normalizer() const { return normalizer_; }

private:
    std::string name_;
    CpuNormalizer normalizer_;
    CpuSyncBatchNorm sync_;  // runs on normalizer_
    CpuBackward backward_;
    CpuTensor x_, y_;  // the normalizer's x and y
};

}  // namespace normlab::cpu
