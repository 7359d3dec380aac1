// WgpuContext: the browser's WebGPU adapter and device (emscripten's webgpu.h), the limits the
// normalizer plans with, and blocking waits for WebGPU's callbacks (built with -sASYNCIFY: a
// wait yields to the browser's event loop until the callback has run). Errors become
// DeviceError with WebGPU's own message; a lost device is reported by every later wait.
#pragma once
#include <webgpu/webgpu.h>

#include <cstdint>
#include <functional>
#include <string>

namespace normlab::webgpu {

struct WgpuLimits {
    std::uint64_t max_storage_binding = 0;  // maxStorageBufferBindingSize, bytes
    std::uint64_t max_buffer = 0;           // maxBufferSize, bytes
    std::uint32_t max_workgroup_x = 0;      // maxComputeWorkgroupSizeX
    std::uint32_t max_invocations = 0;      // maxComputeInvocationsPerWorkgroup
    std::uint32_t max_groups_per_dim = 0;   // maxComputeWorkgroupsPerDimension
    std::uint32_t max_workgroup_storage = 0;
    std::uint32_t max_storage_buffers = 0;  // maxStorageBuffersPerShaderStage
};

class WgpuContext {
public:
    // Requests an adapter and a device with the adapter's own storage-binding limit; throws
    // DeviceError when the browser gives none (the message says what is missing).
    WgpuContext();
    ~WgpuContext();
    WgpuContext(const WgpuContext&) = delete;
    WgpuContext& operator=(const WgpuContext&) = delete;

    WGPUDevice device() const { return device_; }
    WGPUQueue queue() const { return queue_; }
    const WgpuLimits& limits() const { return limits_; }
    // The adapter as the browser describes it, e.g. "google swiftshader (WebGPU)".
    const std::string& device_name() const { return name_; }
    // The adapter runs on the CPU (the browser's fallback adapter, SwiftShader, llvmpipe, WARP):
    // there an invocation costs more than a loop iteration, so the normalizer plans for it.
    bool cpu_emulated() const { return cpu_emulated_; }

    // Blocks until done() is true, yielding to the event loop; throws DeviceError when the
    // device is lost meanwhile, or when `what` has not come after `limit_ms` (by default two
    // minutes: a callback that has not come by then never will, a browser bug or a hung device).
    void wait(const std::function<bool()>& done, const char* what, double limit_ms = 120000) const;
    // Called by every WebGPU callback that a wait may be waiting for: the wait checks done() at
    // once instead of at its next timer.
    static void wake();
    void throw_if_lost() const;
    // Called once when the device is lost (also after a run has finished), with the reason.
    void on_lost(std::function<void(const std::string&)> handler);

private:
    WGPUAdapter adapter_ = nullptr;
    WGPUDevice device_ = nullptr;
    WGPUQueue queue_ = nullptr;
    WgpuLimits limits_;
    std::string name_;
    bool cpu_emulated_ = false;
    struct Lost;  // the lost callback's state; outlives the context (wgpu_context.cpp)
    Lost* lost_;
};

// The errors (validation, out of memory) of everything done on `ctx`'s device while it is open:
// check() closes it and throws DeviceError with WebGPU's message. A scope that an exception
// leaves unchecked is closed by the destructor, its errors dropped (the exception says what failed).
class ErrorScope {
public:
    explicit ErrorScope(const WgpuContext& ctx);
    ~ErrorScope();
    ErrorScope(const ErrorScope&) = delete;
    ErrorScope& operator=(const ErrorScope&) = delete;
    // Waits for WebGPU's answer; `what` names the work in the error.
    void check(const std::string& what);

private:
    const WgpuContext* ctx_;
    bool open_ = true;
};

}  // namespace normlab::webgpu
