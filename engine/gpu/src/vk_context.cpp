// Vulkan instance/device setup with reasoned device selection and counted validation.
#include "normlab/gpu/vk_context.hpp"

#include "normlab/core/error.hpp"
#include "normlab/gpu/pipeline_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

#if defined(__SANITIZE_ADDRESS__)
#define NORMLAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NORMLAB_ASAN 1
#endif
#endif

namespace normlab::gpu {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
constexpr std::uint32_t kMinApi = VK_API_VERSION_1_1;  // subgroup operations

std::string type_name(vk::PhysicalDeviceType t) {
    switch (t) {
        case vk::PhysicalDeviceType::eDiscreteGpu: return "discrete";
        case vk::PhysicalDeviceType::eIntegratedGpu: return "integrated";
        case vk::PhysicalDeviceType::eVirtualGpu: return "virtual";
        case vk::PhysicalDeviceType::eCpu: return "cpu";
        default: return "other";
    }
}

int type_rank(vk::PhysicalDeviceType t) {
    switch (t) {
        case vk::PhysicalDeviceType::eDiscreteGpu: return 4;
        case vk::PhysicalDeviceType::eIntegratedGpu: return 3;
        case vk::PhysicalDeviceType::eVirtualGpu: return 2;
        case vk::PhysicalDeviceType::eCpu: return 1;
        default: return 0;
    }
}

std::string version_str(std::uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

std::string lower(std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

bool is_index(const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

struct Candidate {
    DeviceInfo info;
    std::uint32_t family = 0;
    int rank = 0;
};

// Checks one device against the options; fills info.usable / info.reason and the family.
Candidate evaluate(const vk::raii::PhysicalDevice& pd, std::uint32_t index, const ContextOptions& opt) {
    Candidate c;
    auto props = pd.getProperties();
    c.info.index = index;
    c.info.name = props.deviceName.data();
    c.info.type = type_name(props.deviceType);
    c.info.api_version = version_str(props.apiVersion);
    c.rank = type_rank(props.deviceType);
    if (props.apiVersion < kMinApi) {
        c.info.reason = "Vulkan " + c.info.api_version + " < 1.1 (subgroup operations needed)";
        return c;
    }
    auto exts = pd.enumerateDeviceExtensionProperties();
    for (const auto& want : opt.device_extensions) {
        bool found = std::any_of(exts.begin(), exts.end(),
                                 [&](const vk::ExtensionProperties& e) { return want == e.extensionName.data(); });
        if (!found) {
            c.info.reason = "missing device extension " + want;
            return c;
        }
    }
    auto families = pd.getQueueFamilyProperties();
    std::string why = "no queue family with compute";
    for (std::uint32_t f = 0; f < families.size(); ++f) {
        auto flags = families[f].queueFlags;
        if (!(flags & vk::QueueFlagBits::eCompute)) continue;
        if (opt.need_graphics && !(flags & vk::QueueFlagBits::eGraphics)) {
            why = "no queue family with compute and graphics";
            continue;
        }
        if (opt.queue_filter && !opt.queue_filter(pd, f)) {
            why = "no queue family can present to the window";
            continue;
        }
        c.family = f;
        c.info.usable = true;
        c.info.reason.clear();
        return c;
    }
    c.info.reason = why;
    return c;
}

bool layer_available(const vk::raii::Context& ctx, const char* name) {
    for (const auto& l : ctx.enumerateInstanceLayerProperties())
        if (std::strcmp(l.layerName.data(), name) == 0) return true;
    return false;
}

// AddressSanitizer builds: keep the validation layer and lavapipe loaded until exit
// (RTLD_NODELETE). The loader unloads them when the instance goes; LeakSanitizer, which runs
// after that, could then only show "<unknown module>" for what they leak, and
// tests/sanitizers/lsan.supp could not suppress those third-party frames by library name.
void keep_vulkan_libraries_loaded() {
#ifdef NORMLAB_ASAN
    for (const char* lib : {"libVkLayer_khronos_validation.so", "libvulkan_lvp.so"})
        (void)::dlopen(lib, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
#endif
}

vk::raii::Instance make_instance(const vk::raii::Context& ctx, const ContextOptions& opt, bool& validation) {
    keep_vulkan_libraries_loaded();
    std::vector<const char*> layers;
    std::vector<const char*> exts;
    for (const auto& e : opt.instance_extensions) exts.push_back(e.c_str());
    validation = opt.validation;
    if (validation) {
        if (!layer_available(ctx, kValidationLayer))
            throw core::DeviceError(std::string("NORMLAB_VALIDATION=1 but ") + kValidationLayer +
                                    " is not installed (apt-get install vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    vk::ApplicationInfo app("normlab", 1, "normlab", 1, VK_API_VERSION_1_1);
    vk::InstanceCreateInfo info({}, &app, layers, exts);
    // Synchronization validation on top of the default checks.
    std::array<vk::ValidationFeatureEnableEXT, 1> enables{vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
    vk::ValidationFeaturesEXT features(enables, {});
    if (validation) info.pNext = &features;
    try {
        return vk::raii::Instance(ctx, info);
    } catch (const vk::SystemError& e) {
        throw core::DeviceError(std::string("cannot create a Vulkan instance (") + e.what() +
                                "); install a Vulkan driver, e.g. apt-get install mesa-vulkan-drivers");
    }
}

}  // namespace

ContextOptions ContextOptions::from_env() {
    ContextOptions o;
    if (const char* d = std::getenv("NORMLAB_DEVICE"); d && *d) o.device = d;
    if (const char* v = std::getenv("NORMLAB_VALIDATION"); v && std::strcmp(v, "0") != 0 && *v) o.validation = true;
    if (const char* m = std::getenv("NORMLAB_MEMORY"); m && std::strcmp(m, "staged") == 0) o.force_staging = true;
    return o;
}

std::vector<DeviceInfo> VulkanContext::list_devices(const ContextOptions& options) {
    vk::raii::Context ctx;
    ContextOptions opt = options;
    opt.validation = false;
    bool validation = false;
    auto instance = make_instance(ctx, opt, validation);
    std::vector<DeviceInfo> out;
    std::uint32_t i = 0;
    for (const auto& pd : vk::raii::PhysicalDevices(instance)) out.push_back(evaluate(pd, i++, opt).info);
    return out;
}

namespace {

// The device NORMLAB_DEVICE/--device names, or the best-ranked usable one; throws a DeviceError
// that names every device and why it was rejected.
std::size_t choose_device(const std::vector<Candidate>& cands, const std::optional<std::string>& wanted) {
    if (wanted) {
        const std::string& want = *wanted;
        for (std::size_t i = 0; i < cands.size(); ++i) {
            bool match = is_index(want) ? std::to_string(cands[i].info.index) == want
                                        : lower(cands[i].info.name).find(lower(want)) != std::string::npos;
            if (!match) continue;
            if (!cands[i].info.usable)
                throw core::DeviceError("device " + want + " (" + cands[i].info.name +
                                        ") is not usable: " + cands[i].info.reason);
            return i;
        }
        std::string names;
        for (const auto& c : cands)
            names += (names.empty() ? "" : ", ") + std::to_string(c.info.index) + ": " + c.info.name;
        throw core::DeviceError("no Vulkan device matches NORMLAB_DEVICE/--device '" + want +
                                "' (devices: " + (names.empty() ? "none" : names) + ")");
    }
    int chosen = -1;
    for (std::size_t i = 0; i < cands.size(); ++i)
        if (cands[i].info.usable && (chosen < 0 || cands[i].rank > cands[static_cast<std::size_t>(chosen)].rank))
            chosen = static_cast<int>(i);
    if (chosen < 0) {
        std::string why;
        for (const auto& c : cands) why += "; " + c.info.name + ": " + c.info.reason;
        throw core::DeviceError("no usable Vulkan device" +
                                (cands.empty() ? std::string(" (the loader found none)") : why) +
                                "; install mesa-vulkan-drivers for the software device lavapipe");
    }
    return static_cast<std::size_t>(chosen);
}

}  // namespace

VulkanContext::VulkanContext(ContextOptions opt) : force_staging_(opt.force_staging) {
    instance_ = make_instance(loader_, opt, validation_);
    if (validation_) {
        using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
        using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
        vk::DebugUtilsMessengerCreateInfoEXT mi({}, S::eWarning | S::eError, T::eValidation | T::ePerformance,
                                                &VulkanContext::debug_callback, this);
        messenger_ = vk::raii::DebugUtilsMessengerEXT(instance_, mi);
    }
    vk::raii::PhysicalDevices devices(instance_);
    std::vector<Candidate> cands;
    std::uint32_t idx = 0;
    for (const auto& pd : devices) cands.push_back(evaluate(pd, idx++, opt));
    const std::size_t chosen = choose_device(cands, opt.device);
    physical_ = std::move(devices[chosen]);
    queue_family_ = cands[chosen].family;
    read_properties();

    float priority = 1.0f;
    vk::DeviceQueueCreateInfo qi({}, queue_family_, 1, &priority);
    std::vector<const char*> exts;
    for (const auto& e : opt.device_extensions) exts.push_back(e.c_str());
    vk::DeviceCreateInfo di({}, qi, {}, exts);
    try {
        device_ = vk::raii::Device(physical_, di);
    } catch (const vk::SystemError& e) {
        throw core::DeviceError(std::string("cannot create the Vulkan device ") + device_name_ + ": " + e.what());
    }
    queue_ = vk::raii::Queue(device_, queue_family_, 0);
    fence_ = vk::raii::Fence(device_, vk::FenceCreateInfo{});
    if (auto dir = cache_directory()) {
        try {
            pipeline_cache_ = std::make_unique<PipelineCacheStore>(device_, physical_.getProperties(), std::move(dir));
        } catch (const vk::SystemError&) {
            // Not even an empty cache could be made: pipelines are created without one.
        }
    }
}

const vk::raii::PipelineCache* VulkanContext::pipeline_cache() const {
    return pipeline_cache_ ? &pipeline_cache_->cache() : nullptr;
}

VkPipelineCache VulkanContext::pipeline_cache_handle() const {
    return pipeline_cache_ ? static_cast<VkPipelineCache>(*pipeline_cache_->cache()) : VK_NULL_HANDLE;
}

void VulkanContext::read_properties() {
    auto props = physical_.getProperties();
    device_name_ = props.deviceName.data();
    limits_ = props.limits;
    cpu_device_ = props.deviceType == vk::PhysicalDeviceType::eCpu;
    memory_ = physical_.getMemoryProperties();
    timestamp_period_ = props.limits.timestampPeriod;
    timestamp_valid_bits_ = physical_.getQueueFamilyProperties()[queue_family_].timestampValidBits;
    if (!props.limits.timestampComputeAndGraphics) timestamp_valid_bits_ = 0;

    auto chain = physical_.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupProperties>();
    const auto& sg = chain.get<vk::PhysicalDeviceSubgroupProperties>();
    subgroup_size_ = sg.subgroupSize;
    auto m3 = physical_.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceMaintenance3Properties>();
    max_allocation_ = m3.get<vk::PhysicalDeviceMaintenance3Properties>().maxMemoryAllocationSize;
    subgroup_arithmetic_ = (sg.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
                           (sg.supportedOperations & vk::SubgroupFeatureFlagBits::eArithmetic) &&
                           (sg.supportedOperations & vk::SubgroupFeatureFlagBits::eBasic);
    if (props.apiVersion >= VK_API_VERSION_1_3) {
        auto sc =
            physical_.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupSizeControlProperties>();
        const auto& ctl = sc.get<vk::PhysicalDeviceSubgroupSizeControlProperties>();
        fixed_subgroup_size_ = ctl.minSubgroupSize == ctl.maxSubgroupSize && ctl.maxSubgroupSize == subgroup_size_;
    }
    if (const char* off = std::getenv("NORMLAB_NO_SUBGROUP_ARITH"); off && *off && std::strcmp(off, "0") != 0)
        subgroup_arithmetic_ = false;  // exercises the shared-memory fallback in tests
}

VulkanContext::~VulkanContext() {
    // A lost device makes waitIdle throw; a destructor must not (std::terminate).
    try {
        if (*device_) device_.waitIdle();
    } catch (const vk::SystemError& e) {
        std::fprintf(stderr, "normlab: Vulkan device wait at shutdown failed: %s\n", e.what());
    }
    pipeline_cache_.reset();  // saves the pipelines made in this run, before the device goes
}

VkBool32 VKAPI_PTR VulkanContext::debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                 VkDebugUtilsMessageTypeFlagsEXT,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<VulkanContext*>(user);
    self->validation_count_.fetch_add(1);
    std::fprintf(stderr, "validation: %s\n", data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

std::uint32_t VulkanContext::memory_type(std::uint32_t bits, vk::MemoryPropertyFlags required,
                                         vk::MemoryPropertyFlags preferred) const {
    int fallback = -1;
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if (!(bits & (1u << i))) continue;
        auto flags = memory_.memoryTypes[i].propertyFlags;
        if ((flags & required) != required) continue;
        if ((flags & preferred) == preferred) return i;
        if (fallback < 0) fallback = static_cast<int>(i);
    }
    if (fallback < 0) throw core::DeviceError("the Vulkan device has no suitable memory type for a buffer");
    return static_cast<std::uint32_t>(fallback);
}

std::uint64_t VulkanContext::device_memory_bytes() const {
    std::uint64_t best = 0;
    for (std::uint32_t i = 0; i < memory_.memoryHeapCount; ++i)
        if (memory_.memoryHeaps[i].flags & vk::MemoryHeapFlagBits::eDeviceLocal)
            best = std::max<std::uint64_t>(best, memory_.memoryHeaps[i].size);
    return best;
}

namespace {
// vulkan.hpp reports VK_ERROR_DEVICE_LOST / VK_ERROR_OUT_OF_*_MEMORY as vk::SystemError; each
// becomes a DeviceError that says what failed (CLI exit 3), never a hang or a crash.
core::DeviceError device_fault(const char* what, const vk::SystemError& e) {
    const bool lost = e.code() == vk::make_error_code(vk::Result::eErrorDeviceLost);
    return core::DeviceError(std::string(what) + ": " + e.what() +
                             (lost ? " (the Vulkan device was lost; results of this run are void)" : ""));
}
}  // namespace

void VulkanContext::submit(const vk::CommandBuffer& cmd, vk::Fence fence) const {
    // After a timeout the fence may still be pending, after a loss the device is gone: no
    // further submit on this context is valid.
    if (faulted_) throw core::DeviceError("the Vulkan device failed earlier in this run; restart normlab");
    vk::SubmitInfo si({}, {}, cmd);
    try {
        device_.resetFences(fence);
        queue_.submit(si, fence);
    } catch (const vk::SystemError& e) {
        faulted_ = true;
        throw device_fault("Vulkan submit failed", e);
    }
}

void VulkanContext::wait(vk::Fence fence, std::chrono::milliseconds timeout) const {
    auto ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count());
    vk::Result r;
    try {
        r = device_.waitForFences(fence, VK_TRUE, ns);
    } catch (const vk::SystemError& e) {
        faulted_ = true;
        throw device_fault("waiting for the Vulkan device failed", e);
    }
    if (r == vk::Result::eTimeout) {
        faulted_ = true;
        throw core::DeviceError("the Vulkan device did not finish within " + std::to_string(timeout.count()) + " ms");
    }
}

void VulkanContext::submit_and_wait(const vk::CommandBuffer& cmd, std::chrono::milliseconds timeout) const {
    submit(cmd, *fence_);
    wait(*fence_, timeout);
}

}  // namespace normlab::gpu
