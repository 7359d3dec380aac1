// WgpuTrainRunner: runs a TrainProgram (normlab/train/train_program.hpp) on WebGPU behind the same
// TrainDevice as the Vulkan TrainRunner (engine/ops), so the same program trains in the browser. Each pass's
// kernel is shaders/wgsl/<kernel>.wgsl (with the files its `// append:` lines name): its storage buffers
// read_write at the GLSL kernel's bindings and its parameter block as the uniform at binding 8. A program
// binds its one "unused" buffer (the parameter or output a pass's flags leave out) at several bindings of a
// pass, which WebGPU refuses for writable bindings: the second and later get zeroed stand-ins. The buffers are created
// zeroed (WebGPU zero-fills), one pipeline per kernel and one bind group per pass are made once, and a submission
// encodes its steps (and an evaluation) from them into one compute pass — WebGPU orders the dispatches of a pass and
// makes each one's storage writes visible to the next — since WebGPU command buffers cannot be replayed. The logs are
// copied into MAP_READ buffers and read by mapAsync in poll(), which never blocks, or in finish(), which waits
// (WgpuContext::wait). histogram() bins a buffer with the backend's WgpuHistogram.
#pragma once
#include "normlab/train/train_device.hpp"
#include "normlab/webgpu/wgpu_buffer.hpp"
#include "normlab/webgpu/wgpu_context.hpp"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace normlab::webgpu {

class WgpuHistogram;

class WgpuTrainRunner final : public train::TrainDevice {
public:
    // Throws DeviceError when WebGPU refuses a kernel or a pass (its message), or when a pass needs more
    // storage buffers or workgroups than the device gives.
    WgpuTrainRunner(const WgpuContext& ctx, train::TrainProgram program, int steps_per_submit = 16);
    ~WgpuTrainRunner() override;
    WgpuTrainRunner(const WgpuTrainRunner&) = delete;
    WgpuTrainRunner& operator=(const WgpuTrainRunner&) = delete;

    void upload(const std::string& name, const void* data, std::size_t bytes) override;
    void submit(int steps, int eval_every = 0, bool eval_last = false) override;
    bool poll() override;
    void finish() override;
    std::vector<float> log() const override { return log_; }
    std::vector<float> val_log() const override { return val_log_; }
    std::vector<float> download(const std::string& name) override;
    plan::HistogramResult histogram(const std::string& name, std::uint32_t bins) override;
    int steps_run() const override { return steps_; }
    const train::TrainProgram& program() const override { return program_; }

    // Pipelines made (one per kernel and binding count).
    std::size_t pipelines() const { return kernels_.size(); }

private:
    struct Kernel;
    struct Encoded;
    struct Readback;
    Kernel& kernel(const std::string& name, std::size_t bindings);
    std::vector<Encoded> encode_list(const std::vector<train::TrainPass>& passes, std::size_t first_slot);
    WGPUCommandBuffer record(int steps, bool eval) const;
    void start_readback();
    void take_readback();
    int index(const std::string& name) const;

    const WgpuContext* ctx_;
    train::TrainProgram program_;
    int per_submit_;
    int steps_ = 0;
    std::vector<WgpuBuffer> buffers_;
    std::deque<WgpuBuffer> stand_ins_;  // for "unused" at a pass's second and later bindings (kept in place)
    WgpuBuffer params_;                 // every pass's parameter block, kParamSlot bytes apart
    WgpuBuffer log_read_, val_read_;    // MAP_READ copies of "log" and "val_log"
    std::vector<WgpuBuffer> staging_;   // download()'s
    std::map<std::string, std::unique_ptr<Kernel>> kernels_;
    std::vector<Encoded> step_, eval_;
    std::vector<float> log_, val_log_;
    bool dirty_ = false;                        // work submitted since the last copy of the logs
    long long queued_ = 0;                      // steps submitted since everything last finished
    Readback* readback_ = nullptr;              // the logs' mapAsync in flight (freed by its callbacks if abandoned)
    std::unique_ptr<WgpuHistogram> histogram_;  // made when first asked for
};

// The browser's TrainDevice: a WgpuTrainRunner of `program` on `ctx` (the Train view's factory).
std::unique_ptr<train::TrainDevice> make_wgpu_train_device(const WgpuContext& ctx, train::TrainProgram program,
                                                           int steps_per_submit);

}  // namespace normlab::webgpu
