#include "normlab/webgpu/wgpu_context.hpp"

#include "normlab/core/error.hpp"

#include <emscripten.h>

#include <cstring>

namespace normlab::webgpu {
namespace {

// What emscripten 3.1.6's library cannot tell (wgpuAdapterGetLimits aborts there, its
// WGPULimits has no maxBufferSize, wgpuAdapterGetProperties leaves the name empty): read from
// the browser's GPUAdapter/GPUDevice objects that library_webgpu.js keeps.
// (JavaScript: clang-format would split its === operators)
// clang-format off
EM_JS(double, js_adapter_limit, (WGPUAdapter adapter, const char* name), {
    var a = WebGPU.mgrAdapter.get(adapter);
    var v = a && a.limits ? a.limits[UTF8ToString(name)] : undefined;
    return v === undefined ? -1 : v;
});
EM_JS(double, js_device_limit, (WGPUDevice device, const char* name), {
    var d = WebGPU.mgrDevice.get(device);
    var v = d && d.limits ? d.limits[UTF8ToString(name)] : undefined;
    return v === undefined ? -1 : v;
});
EM_JS(char*, js_adapter_name, (WGPUAdapter adapter), {
    var a = WebGPU.mgrAdapter.get(adapter);
    var info = a && a.info ? a.info : {};
    var name = info.description || [ info.vendor, info.architecture, info.device ].filter(Boolean).join(' ');
    return allocateUTF8((name || 'unknown adapter') + ' (WebGPU)');
});
// A CPU-emulated adapter: the browser's fallback adapter, or one whose name says it is a software
// rasterizer (SwiftShader, llvmpipe, lavapipe, WARP).
EM_JS(int, js_adapter_cpu, (WGPUAdapter adapter), {
    var a = WebGPU.mgrAdapter.get(adapter);
    if (!a) return 0;
    var info = a.info || {};
    if (info.isFallbackAdapter || a.isFallbackAdapter) return 1;
    var text = [ info.vendor, info.architecture, info.device, info.description ].join(' ');
    return /swiftshader|llvmpipe|lavapipe|warp|software/i.test(text) ? 1 : 0;
});
// A wait's sleep (WgpuContext::wait): it ends when a WebGPU callback calls js_wake (in a
// microtask, once the callback's wasm has returned), or after a timer as a fallback (a lost device,
// a callback that does not wake). Polling with emscripten_sleep(1) alone noticed a callback up to
// a timer's period late, and browsers clamp nested timers to 4 ms. Built with this function in
// ASYNCIFY_IMPORTS (web/CMakeLists.txt), as Asyncify.handleSleep requires.
EM_JS(void, js_sleep_until_woken, (), {
    Asyncify.handleSleep(function (wakeUp) {
        var woken = false;
        var resume = function () {
            if (woken) return;
            woken = true;
            clearTimeout(timer);
            Module.normlabWake = null;
            wakeUp();
        };
        var timer = setTimeout(resume, 4);
        Module.normlabWake = function () { Promise.resolve().then(resume); };
    });
});
EM_JS(void, js_wake, (), { if (Module.normlabWake) Module.normlabWake(); });
// clang-format on

struct Pending {
    bool done = false;
    bool ok = false;
    void* handle = nullptr;
    std::string message;
};

void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, const char* message, void* user) {
    auto* p = static_cast<Pending*>(user);
    p->ok = status == WGPURequestAdapterStatus_Success && adapter;
    p->handle = adapter;
    if (message) p->message = message;
    p->done = true;
    WgpuContext::wake();
}

void on_device(WGPURequestDeviceStatus status, WGPUDevice device, const char* message, void* user) {
    auto* p = static_cast<Pending*>(user);
    p->ok = status == WGPURequestDeviceStatus_Success && device;
    p->handle = device;
    if (message) p->message = message;
    p->done = true;
    WgpuContext::wake();
}

void on_uncaptured(WGPUErrorType, const char* message, void*) {
    emscripten_log(EM_LOG_ERROR, "WebGPU error: %s", message ? message : "(no message)");
}

// One popped error scope's answer, on the heap: its callback may come after the wait for it has
// given up (a lost device, the time limit), and then deletes it (abandoned).
struct PoppedScope {
    bool done = false, abandoned = false;
    WGPUErrorType type = WGPUErrorType_NoError;
    std::string message;
};

void on_scope(WGPUErrorType type, const char* message, void* user) {
    auto* e = static_cast<PoppedScope*>(user);
    if (e->abandoned) {
        delete e;
        return;
    }
    e->type = type;
    if (message) e->message = message;
    e->done = true;
    WgpuContext::wake();
}

// Pops one scope whose answer nobody reads.
void pop_unread(WGPUDevice device) {
    auto* e = new PoppedScope;
    e->abandoned = true;
    wgpuDevicePopErrorScope(device, on_scope, e);
}

// Frees a popped scope now (answered) or when its answer comes.
void release(PoppedScope* e) {
    if (e->done)
        delete e;
    else
        e->abandoned = true;
}

std::string lost_text(const std::string& message) {
    return "the WebGPU device was lost" + (message.empty() ? std::string() : ": " + message) +
           " (reload the page; the scene stays in its address)";
}

std::uint64_t as_u64(double v) { return v < 0 ? 0 : static_cast<std::uint64_t>(v); }

}  // namespace

// The device-lost callback may run after the context is gone (the browser resolves device.lost
// whenever it likes), so its state is never freed: one small object per device.
struct WgpuContext::Lost {
    bool lost = false;
    std::string message;
    std::function<void(const std::string&)> handler;
};

WgpuContext::WgpuContext() : lost_(new Lost) {
    Pending a;
    WGPURequestAdapterOptions opts{};
    opts.powerPreference = WGPUPowerPreference_HighPerformance;
    wgpuInstanceRequestAdapter(nullptr, &opts, on_adapter, &a);
    wait([&] { return a.done; }, "the WebGPU adapter");
    if (!a.ok) throw core::DeviceError("no WebGPU adapter" + (a.message.empty() ? std::string() : ": " + a.message));
    adapter_ = static_cast<WGPUAdapter>(a.handle);
    char* name = js_adapter_name(adapter_);
    name_ = name;
    std::free(name);
    cpu_emulated_ = js_adapter_cpu(adapter_) != 0;

    // The device gets the adapter's own storage-binding limit (the default is 128 MiB) and storage buffers
    // per stage (the default 8; the mlp's train_linear_norm binds 9 where the device allows); the
    // page's pre-js adds the adapter's maxBufferSize, a limit 3.1.6's WGPULimits lacks.
    WGPURequiredLimits required{};
    std::memset(&required.limits, 0xFF, sizeof(required.limits));  // every limit "undefined"
    const std::uint64_t binding = as_u64(js_adapter_limit(adapter_, "maxStorageBufferBindingSize"));
    if (binding) required.limits.maxStorageBufferBindingSize = binding;
    const std::uint64_t storage = as_u64(js_adapter_limit(adapter_, "maxStorageBuffersPerShaderStage"));
    if (storage) required.limits.maxStorageBuffersPerShaderStage = static_cast<std::uint32_t>(storage);
    WGPUDeviceDescriptor desc{};
    desc.label = "normlab";
    desc.requiredLimits = &required;
    Pending d;
    wgpuAdapterRequestDevice(adapter_, &desc, on_device, &d);
    wait([&] { return d.done; }, "the WebGPU device");
    if (!d.ok)
        throw core::DeviceError("the WebGPU adapter gave no device" + (d.message.empty() ? "" : ": " + d.message));
    device_ = static_cast<WGPUDevice>(d.handle);
    queue_ = wgpuDeviceGetQueue(device_);
    wgpuDeviceSetUncapturedErrorCallback(device_, on_uncaptured, nullptr);
    wgpuDeviceSetDeviceLostCallback(
        device_,
        [](WGPUDeviceLostReason, const char* message, void* user) {
            auto* l = static_cast<Lost*>(user);
            l->lost = true;
            l->message = message ? message : "";
            if (l->handler) l->handler(lost_text(l->message));
            WgpuContext::wake();
        },
        lost_);

    WGPUSupportedLimits s{};
    wgpuDeviceGetLimits(device_, &s);
    limits_.max_storage_binding = s.limits.maxStorageBufferBindingSize;
    limits_.max_buffer = as_u64(js_device_limit(device_, "maxBufferSize"));
    if (!limits_.max_buffer) limits_.max_buffer = limits_.max_storage_binding;
    limits_.max_workgroup_x = s.limits.maxComputeWorkgroupSizeX;
    limits_.max_invocations = s.limits.maxComputeInvocationsPerWorkgroup;
    limits_.max_groups_per_dim = s.limits.maxComputeWorkgroupsPerDimension;
    limits_.max_workgroup_storage = s.limits.maxComputeWorkgroupStorageSize;
    limits_.max_storage_buffers = s.limits.maxStorageBuffersPerShaderStage;
    if (limits_.max_storage_buffers < 6)
        throw core::DeviceError("the WebGPU device binds " + std::to_string(limits_.max_storage_buffers) +
                                " storage buffers per shader stage; normlab's kernels need 6");
}

WgpuContext::~WgpuContext() {
    if (queue_) wgpuQueueRelease(queue_);
    if (device_) wgpuDeviceRelease(device_);
    if (adapter_) wgpuAdapterRelease(adapter_);
}

void WgpuContext::throw_if_lost() const {
    if (lost_->lost) throw core::DeviceError(lost_text(lost_->message));
}

void WgpuContext::on_lost(std::function<void(const std::string&)> handler) { lost_->handler = std::move(handler); }

void WgpuContext::wait(const std::function<bool()>& done, const char* what, double limit_ms) const {
    const double start = emscripten_get_now();
    while (!done()) {
        throw_if_lost();
        if (emscripten_get_now() - start > limit_ms)
            throw core::DeviceError(std::string("WebGPU gave no answer for ") + what + " within " +
                                    std::to_string(static_cast<int>(limit_ms / 1000)) + " s");
        js_sleep_until_woken();
    }
    throw_if_lost();
}

void WgpuContext::wake() { js_wake(); }

ErrorScope::ErrorScope(const WgpuContext& ctx) : ctx_(&ctx) {
    wgpuDevicePushErrorScope(ctx.device(), WGPUErrorFilter_OutOfMemory);
    wgpuDevicePushErrorScope(ctx.device(), WGPUErrorFilter_Validation);
}

ErrorScope::~ErrorScope() {
    if (!open_) return;
    pop_unread(ctx_->device());
    pop_unread(ctx_->device());
}

void ErrorScope::check(const std::string& what) {
    open_ = false;
    auto* validation = new PoppedScope;
    auto* memory = new PoppedScope;
    wgpuDevicePopErrorScope(ctx_->device(), on_scope, validation);
    wgpuDevicePopErrorScope(ctx_->device(), on_scope, memory);
    try {
        ctx_->wait([&] { return validation->done && memory->done; }, "WebGPU's error scopes");
    } catch (...) {
        release(validation);
        release(memory);
        throw;
    }
    const PoppedScope v = *validation, m = *memory;
    delete validation;
    delete memory;
    if (m.type != WGPUErrorType_NoError)
        throw core::DeviceError(what + ": the WebGPU device ran out of memory" +
                                (m.message.empty() ? "" : " (" + m.message + ")"));
    if (v.type != WGPUErrorType_NoError) throw core::DeviceError(what + ": WebGPU refused it: " + v.message);
}

}  // namespace normlab::webgpu
