// ComputeBackend: the one interface through which backend-neutral code (the app's model,
// engine/session's Session) runs on a device. The Vulkan backend (engine/ops: VulkanBackend) and
// the WebGPU backend (engine/webgpu: WgpuBackend) implement it; what is planned once — StatLayout,
// the histogram sets, the float64 check, scenes — stays in engine/plan, io and reference and is not a backend's.
// A backend keeps the last forward's x and y on its device (x_device(), y_device()), where its
// histogram (and the front end's heatmap) kernels read them; a DeviceTensor names such a buffer,
// and only the backend that made it (and that backend's views) looks inside it.
#pragma once
#include "normlab/core/grad.hpp"
#include "normlab/plan/histogram_set.hpp"
#include "normlab/core/norm_params.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace normlab::plan {

struct RunOptions {
    // x is the tensor of the previous run (or of load_values) and is still on the device: skip
    // its upload. Ignored when no x of that shape is loaded.
    bool reuse_x = false;
    bool read_y = true;  // false: y stays on the device only (r.y.data empty)
};

// One float32 tensor in a backend's device memory.
class DeviceTensor {
public:
    virtual ~DeviceTensor() = default;
    // The generation of the buffer behind it (normlab/plan/buffer_generation.hpp): changes whenever
    // that buffer is re-created, even into the same handle (a view binding it binds it again).
    virtual std::uint64_t identity() const = 0;
};

// Host values into a device tensor (grown to fit; its old contents are lost).
struct TensorUpload {
    DeviceTensor* dst;
    const std::vector<float>* values;
};

class ComputeBackend {
public:
    virtual ~ComputeBackend() = default;
    virtual const std::string& device_name() const = 0;
    // Whether the numbers come from the CPU backend's loops rather than a GPU's kernels (the panels
    // then say "CPU" where they say where a number was computed).
    virtual bool on_cpu() const { return false; }
    // The most bytes one storage binding holds: x and y are bound whole by the histogram and
    // heatmap kernels, so an interactive front end shows tensors up to this size.
    virtual std::uint64_t max_binding_bytes() const = 0;

    // Validates everything (InputError with PyTorch's wording), runs the forward on the device
    // (SyncBN on simulated devices where spec.sync_devices > 0 and the backend has it) and reads
    // back the statistics, and y unless options.read_y is false.
    virtual core::NormResult normalize(const core::Tensor& x, const core::NormSpec& spec,
                                       const core::NormParams& params, const RunOptions& options) = 0;
    // Two given tensors of one shape as the device's x and y, without normalizing.
    virtual void load_values(const core::Tensor& x, const core::Tensor& y) = 0;
    // The last forward's (or load_values') x and y on the device.
    virtual const DeviceTensor& x_device() const = 0;
    virtual const DeviceTensor& y_device() const = 0;

    // A device tensor of the caller's own, empty until uploaded to.
    virtual std::unique_ptr<DeviceTensor> make_tensor() = 0;
    virtual void upload(const std::vector<TensorUpload>& copies) = 0;

    // The histogram of a set of `values` (minus `subtract` element by element, when given);
    // InputError for a bad bin count or a set outside the tensor.
    virtual HistogramResult histogram(const DeviceTensor& values, const ElementSet& set, std::uint32_t bins,
                                      const DeviceTensor* subtract = nullptr) = 0;
    // The forward of (x, spec, params) without reading y back, then the gradients for dy;
    // afterwards the device's x and y are that run's (InputError for what the kernels refuse).
    virtual core::GradResult backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                                      const core::NormParams& params) = 0;
    // Waits until no work the front end submitted (frames in flight) still reads the device tensors.
    virtual void wait_idle() = 0;
};

}  // namespace normlab::plan
