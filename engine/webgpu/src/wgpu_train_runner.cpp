// The WebGPU runner of a TrainProgram (wgpu_train_runner.hpp).
#include "normlab/webgpu/wgpu_train_runner.hpp"

#include "normlab/core/error.hpp"
#include "normlab/webgpu/wgpu_histogram.hpp"
#include "wgpu_dispatch.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace normlab::webgpu {
namespace {

// A pass's parameter block lies at its slot's start: 256 bytes is the largest offset alignment WebGPU lets a
// device ask of uniform bindings, so every device takes it.
constexpr std::uint64_t kParamSlot = 256;
constexpr std::uint64_t kMaxParamBytes = 128;  // the Vulkan runner's push constants
constexpr std::uint32_t kParamBinding = 8;
// A pass's storage buffer i at binding i, past the parameter block's from the ninth on (train_linear_norm's β: 9).
std::uint32_t storage_binding(std::size_t i) { return static_cast<std::uint32_t>(i < kParamBinding ? i : i + 1); }

std::uint64_t buffer_bytes(const train::TrainBuffer& b) { return std::max<std::uint64_t>(16, b.elements * 4); }

// shaders/wgsl/<kernel>.wgsl followed by each file its "// append: NAME" lines name.
std::string train_kernel_source(const std::string& kernel) {
    std::string source(wgsl_file(kernel + ".wgsl"));
    const std::string tag = "// append: ";
    std::string appended;
    for (std::size_t pos = source.find(tag); pos != std::string::npos; pos = source.find(tag, pos + 1)) {
        if (pos > 0 && source[pos - 1] != '\n') continue;
        const std::size_t start = pos + tag.size(), end = source.find('\n', start);
        appended += "\n" + std::string(wgsl_file(source.substr(start, end - start)));
    }
    return source + appended;
}

}  // namespace

struct WgpuTrainRunner::Kernel {
    WGPUBindGroupLayout bind_layout = nullptr;
    WGPUPipelineLayout pipeline_layout = nullptr;
    WGPUComputePipeline pipeline = nullptr;
    ~Kernel() {
        if (pipeline) wgpuComputePipelineRelease(pipeline);
        if (pipeline_layout) wgpuPipelineLayoutRelease(pipeline_layout);
        if (bind_layout) wgpuBindGroupLayoutRelease(bind_layout);
    }
};

struct WgpuTrainRunner::Encoded {
    WGPUComputePipeline pipeline;
    BindGroup group;
    std::uint32_t x, y;
};

// The logs' two mapAsync calls: their callbacks count `pending` down; when the runner has gone meanwhile
// (abandoned), the last one frees this.
struct WgpuTrainRunner::Readback {
    int pending = 2;
    bool ok = true;
    bool abandoned = false;
};

WgpuTrainRunner::WgpuTrainRunner(const WgpuContext& ctx, train::TrainProgram program, int steps_per_submit)
    : ctx_(&ctx), program_(std::move(program)), per_submit_(std::max(1, steps_per_submit)) {
    ErrorScope scope(ctx);
    for (const auto& b : program_.buffers) buffers_.emplace_back(ctx, buffer_bytes(b), kStorage);
    log_read_ = WgpuBuffer(ctx, buffers_[index("log")].size(), WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    val_read_ = WgpuBuffer(ctx, buffers_[index("val_log")].size(), WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    log_.assign(program_.buffers[index("log")].elements, 0.0f);
    val_log_.assign(program_.buffers[index("val_log")].elements, 0.0f);

    const std::size_t passes = program_.passes.size() + program_.eval_passes.size();
    std::vector<std::uint32_t> blocks(std::max<std::size_t>(1, passes) * kParamSlot / 4, 0);
    std::size_t slot = 0;
    for (const auto* list : {&program_.passes, &program_.eval_passes})
        for (const auto& p : *list) {
            if (p.params.size() * 4 > kMaxParamBytes)
                throw core::InternalError("train pass " + p.kernel + " has a parameter block over 128 bytes");
            std::copy(p.params.begin(), p.params.end(), blocks.begin() + slot++ * kParamSlot / 4);
        }
    params_ = WgpuBuffer(ctx, blocks.size() * 4, kUniform);
    params_.write(ctx, blocks.data(), blocks.size() * 4);

    step_ = encode_list(program_.passes, 0);
    eval_ = encode_list(program_.eval_passes, program_.passes.size());
    // A step and an evaluation encoded once but not submitted: WebGPU checks each pass's bindings when
    // the command buffer is finished, so a refused pass is reported here, with the kernels' compile errors.
    for (WGPUCommandBuffer cmd : {record(1, false), record(0, true)}) wgpuCommandBufferRelease(cmd);
    scope.check("the training program's kernels");
}

WgpuTrainRunner::~WgpuTrainRunner() {
    try {
        finish();
    } catch (...) {  // a lost device while tearing down: nothing is left to wait for
    }
    if (readback_ && readback_->pending > 0)
        readback_->abandoned = true;
    else
        delete readback_;
}

int WgpuTrainRunner::index(const std::string& name) const {
    const int i = program_.find(name);
    if (i < 0) throw core::InternalError("train program has no buffer " + name);
    return i;
}

WgpuTrainRunner::Kernel& WgpuTrainRunner::kernel(const std::string& name, std::size_t bindings) {
    const std::string key = name + "/" + std::to_string(bindings);
    auto it = kernels_.find(key);
    if (it != kernels_.end()) return *it->second;
    std::vector<LayoutEntry> entries;
    for (std::size_t b = 0; b < bindings; ++b) entries.push_back({storage_binding(b), WGPUBufferBindingType_Storage});
    entries.push_back({kParamBinding, WGPUBufferBindingType_Uniform});
    auto k = std::make_unique<Kernel>();
    k->bind_layout = make_bind_layout(*ctx_, entries);
    k->pipeline_layout = make_pipeline_layout(*ctx_, k->bind_layout);
    k->pipeline = make_pipeline(*ctx_, train_kernel_source(name), name.c_str(), k->pipeline_layout);
    return *kernels_.emplace(key, std::move(k)).first->second;
}

std::vector<WgpuTrainRunner::Encoded> WgpuTrainRunner::encode_list(const std::vector<train::TrainPass>& passes,
                                                                   std::size_t first_slot) {
    const WgpuLimits& lim = ctx_->limits();
    std::vector<Encoded> out;
    for (std::size_t i = 0; i < passes.size(); ++i) {
        const train::TrainPass& p = passes[i];
        if (p.buffers.size() > lim.max_storage_buffers)
            throw core::DeviceError("the training kernel " + p.kernel + " binds " + std::to_string(p.buffers.size()) +
                                    " storage buffers; this WebGPU device binds " +
                                    std::to_string(lim.max_storage_buffers));
        if (p.groups[0] > lim.max_groups_per_dim || p.groups[1] > lim.max_groups_per_dim || p.groups[2] != 1)
            throw core::DeviceError("the training kernel " + p.kernel + " needs a grid past this WebGPU device's " +
                                    std::to_string(lim.max_groups_per_dim) + " workgroups a side");
        Kernel& k = kernel(p.kernel, p.buffers.size());
        std::vector<Binding> bindings;
        std::size_t stand_ins = 0;
        for (std::size_t b = 0; b < p.buffers.size(); ++b) {
            const int at = p.buffers[b];
            if (at < 0 || at >= static_cast<int>(buffers_.size()))
                throw core::InternalError("train pass " + p.kernel + " binds no buffer");
            const WgpuBuffer* buffer = &buffers_[at];
            if (std::count(p.buffers.begin(), p.buffers.begin() + static_cast<std::ptrdiff_t>(b), at) > 0) {
                // WebGPU refuses one buffer at two writable bindings of a dispatch: a kernel never touches
                // "unused" (the binding of a parameter or output its flags leave out), so a zeroed stand-in
                // takes its place at the second and later bindings.
                if (program_.buffers[at].name != "unused")
                    throw core::InternalError("train pass " + p.kernel + " binds " + program_.buffers[at].name +
                                              " twice");
                if (stand_ins == stand_ins_.size()) stand_ins_.emplace_back(*ctx_, 16, kStorage);
                buffer = &stand_ins_[stand_ins++];
            }
            bindings.push_back({storage_binding(b), buffer, buffer->size()});
        }
        const std::uint64_t block = std::max<std::uint64_t>(16, (p.params.size() * 4 + 15) / 16 * 16);
        bindings.push_back({kParamBinding, &params_, block, (first_slot + i) * kParamSlot});
        out.push_back({k.pipeline, bind_group(*ctx_, k.bind_layout, bindings), p.groups[0], p.groups[1]});
    }
    return out;
}

WGPUCommandBuffer WgpuTrainRunner::record(int steps, bool eval) const {
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    // One compute pass: WebGPU runs its dispatches in order, each one's storage writes visible to the
    // next (the program's order; the Vulkan runner's barrier between passes).
    WGPUComputePassEncoder cp = wgpuCommandEncoderBeginComputePass(enc, nullptr);
    WGPUComputePipeline bound = nullptr;
    auto encode = [&](const std::vector<Encoded>& list) {
        for (const Encoded& e : list) {
            if (e.pipeline != bound) wgpuComputePassEncoderSetPipeline(cp, bound = e.pipeline);
            wgpuComputePassEncoderSetBindGroup(cp, 0, e.group.get(), 0, nullptr);
            wgpuComputePassEncoderDispatch(cp, e.x, e.y, 1);  // dispatchWorkgroups (the pre-js maps it)
        }
    };
    for (int s = 0; s < steps; ++s) encode(step_);
    if (eval) encode(eval_);
    wgpuComputePassEncoderEnd(cp);
    wgpuComputePassEncoderRelease(cp);
    WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, nullptr);
    wgpuCommandEncoderRelease(enc);
    return cmd;
}

void WgpuTrainRunner::submit(int steps, int eval_every, bool eval_last) {
    ctx_->throw_if_lost();
    while (steps > 0) {
        int chunk = std::min(steps, per_submit_);
        if (eval_every > 0) chunk = std::min(chunk, eval_every - steps_ % eval_every);
        steps_ += chunk;
        steps -= chunk;
        const bool eval = !eval_.empty() && ((eval_every > 0 && steps_ % eval_every == 0) || (eval_last && steps == 0));
        WGPUCommandBuffer cmd = record(chunk, eval);
        wgpuQueueSubmit(ctx_->queue(), 1, &cmd);
        wgpuCommandBufferRelease(cmd);
        dirty_ = true;
        queued_ += chunk;
    }
}

void WgpuTrainRunner::start_readback() {
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx_->device(), nullptr);
    wgpuCommandEncoderCopyBufferToBuffer(enc, buffers_[index("log")].handle(), 0, log_read_.handle(), 0,
                                         log_read_.size());
    wgpuCommandEncoderCopyBufferToBuffer(enc, buffers_[index("val_log")].handle(), 0, val_read_.handle(), 0,
                                         val_read_.size());
    webgpu::submit(*ctx_, enc);
    dirty_ = false;
    readback_ = new Readback;
    auto mapped = [](WGPUBufferMapAsyncStatus status, void* user) {
        auto* r = static_cast<Readback*>(user);
        if (status != WGPUBufferMapAsyncStatus_Success) r->ok = false;
        if (--r->pending == 0 && r->abandoned) {
            delete r;
            return;
        }
        WgpuContext::wake();
    };
    // Each map resolves once the copy before it, and so everything queued before that, has finished.
    for (const WgpuBuffer* b : {&log_read_, &val_read_})
        wgpuBufferMapAsync(b->handle(), WGPUMapMode_Read, 0, static_cast<std::size_t>(b->size()), mapped, readback_);
}

void WgpuTrainRunner::take_readback() {
    Readback* r = std::exchange(readback_, nullptr);
    bool ok = r->ok;
    delete r;
    for (auto [buffer, out] : {std::pair{&log_read_, &log_}, std::pair{&val_read_, &val_log_}}) {
        if (ok) {
            const void* src = wgpuBufferGetConstMappedRange(buffer->handle(), 0, out->size() * 4);
            if (src)
                std::memcpy(out->data(), src, out->size() * 4);
            else
                ok = false;
        }
        wgpuBufferUnmap(buffer->handle());
    }
    ctx_->throw_if_lost();
    if (!ok) throw core::DeviceError("WebGPU could not map the training logs (mapAsync failed)");
}

bool WgpuTrainRunner::poll() {
    ctx_->throw_if_lost();
    if (readback_) {
        if (readback_->pending > 0) return false;
        take_readback();
    }
    if (!dirty_) {
        queued_ = 0;
        return true;
    }
    start_readback();  // the logs of what was submitted since; true once they are read
    return false;
}

void WgpuTrainRunner::finish() {
    // Two minutes, and 10 s per step queued since (a cnn step on a CPU-emulated adapter under load takes
    // seconds).
    const double limit_ms = 120000.0 + 10000.0 * static_cast<double>(queued_);
    for (int round = 0; round < 2 && (readback_ || dirty_); ++round) {
        if (!readback_) start_readback();
        ctx_->wait([this] { return readback_->pending == 0; }, "the training run", limit_ms);
        take_readback();
    }
    queued_ = 0;
}

void WgpuTrainRunner::upload(const std::string& name, const void* data, std::size_t bytes) {
    finish();
    const int i = index(name);
    if (bytes > program_.buffers[i].elements * 4) throw core::InternalError("train upload past the end of " + name);
    std::vector<std::uint8_t> padded(static_cast<const std::uint8_t*>(data),
                                     static_cast<const std::uint8_t*>(data) + bytes);
    padded.resize((bytes + 3) / 4 * 4, 0);
    buffers_[i].write(*ctx_, padded.data(), padded.size());
}

std::vector<float> WgpuTrainRunner::download(const std::string& name) {
    finish();
    const int i = index(name);
    std::vector<float> out(program_.buffers[i].elements);
    read_back(*ctx_, staging_, {{&buffers_[i], out.data(), out.size() * 4}});
    return out;
}

plan::HistogramResult WgpuTrainRunner::histogram(const std::string& name, std::uint32_t bins) {
    finish();  // its passes then follow every submitted step on the queue
    const int i = index(name);
    if (!histogram_) histogram_ = std::make_unique<WgpuHistogram>(*ctx_);
    plan::ElementSet set;
    set.segment_len = static_cast<std::int64_t>(program_.buffers[i].elements);
    return histogram_->run(buffers_[i], set, bins);
}

std::unique_ptr<train::TrainDevice> make_wgpu_train_device(const WgpuContext& ctx, train::TrainProgram program,
                                                           int steps_per_submit) {
    return std::make_unique<WgpuTrainRunner>(ctx, std::move(program), steps_per_submit);
}

}  // namespace normlab::webgpu
