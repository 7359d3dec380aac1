// VulkanContext: instance, the chosen physical device, a logical device and one queue.
// Device choice: discrete > integrated > virtual > CPU (lavapipe); NORMLAB_DEVICE=index or
// name substring overrides; every rejected device is listed with the reason.
// NORMLAB_VALIDATION=1 enables VK_LAYER_KHRONOS_validation (with synchronization
// validation) and counts every message it reports.
// Every pipeline is created through pipeline_cache(), which persists across runs
// (pipeline_cache.hpp; NORMLAB_NO_CACHE=1 turns it off).
#pragma once
#include <vulkan/vulkan_raii.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab::gpu {

class PipelineCacheStore;

struct DeviceInfo {
    std::uint32_t index = 0;
    std::string name;
    std::string type;  // "discrete", "integrated", "virtual", "cpu", "other"
    std::string api_version;
    bool usable = false;
    std::string reason;  // why it was rejected (empty when usable)
};

struct ContextOptions {
    std::optional<std::string> device;  // index or name substring
    bool validation = false;
    bool force_staging = false;                    // NORMLAB_MEMORY=staged: never map compute buffers
    std::vector<std::string> instance_extensions;  // e.g. from glfwGetRequiredInstanceExtensions
    std::vector<std::string> device_extensions;    // e.g. VK_KHR_swapchain
    bool need_graphics = false;                    // the app draws with the same queue
    // Extra per-queue-family check (e.g. presentation support); empty: none.
    std::function<bool(const vk::raii::PhysicalDevice&, std::uint32_t family)> queue_filter;

    // Options from the environment: NORMLAB_DEVICE, NORMLAB_VALIDATION and NORMLAB_MEMORY.
    static ContextOptions from_env();
};

class VulkanContext {
public:
    explicit VulkanContext(ContextOptions options = ContextOptions::from_env());
    ~VulkanContext();
    VulkanContext(const VulkanContext&) = delete;
    VulkanContext& operator=(const VulkanContext&) = delete;

    // Lists every device the loader reports with the reason it is (not) usable.
    static std::vector<DeviceInfo> list_devices(const ContextOptions& options = ContextOptions::from_env());

    const vk::raii::Instance& instance() const { return instance_; }
    const vk::raii::PhysicalDevice& physical() const { return physical_; }
    const vk::raii::Device& device() const { return device_; }
    const vk::raii::Queue& queue() const { return queue_; }
    std::uint32_t queue_family() const { return queue_family_; }
    const std::string& device_name() const { return device_name_; }
    const vk::PhysicalDeviceLimits& limits() const { return limits_; }
    std::uint32_t subgroup_size() const { return subgroup_size_; }
    bool subgroup_arithmetic() const { return subgroup_arithmetic_; }
    // True when compute shaders always run with subgroup_size() lanes (min == max subgroup
    // size), so a kernel may assign whole statistics to subgroups.
    bool fixed_subgroup_size() const { return fixed_subgroup_size_; }
    // A CPU device (lavapipe) runs a workgroup barrier as a switch between coroutines: there a
    // second read of x costs less than a barrier-synchronized workgroup reduction.
    bool barriers_expensive() const { return cpu_device_; }
    bool timestamps() const { return timestamp_valid_bits_ > 0; }
    double timestamp_period_ns() const { return timestamp_period_; }
    // Number of validation messages (warnings and errors) seen so far.
    std::uint64_t validation_messages() const { return validation_count_.load(); }
    // Memory type index for the given requirements, preferring `preferred` flags.
    std::uint32_t memory_type(std::uint32_t type_bits, vk::MemoryPropertyFlags required,
                              vk::MemoryPropertyFlags preferred = {}) const;
    const vk::PhysicalDeviceMemoryProperties& memory_properties() const { return memory_; }
    // Compute buffers may be mapped directly (memory_plan.hpp), unless NORMLAB_MEMORY=staged.
    bool direct_mapping_allowed() const { return !force_staging_; }
    // Largest device-local heap in bytes.
    std::uint64_t device_memory_bytes() const;
    // maxMemoryAllocationSize (Vulkan 1.1): the largest single buffer allocation.
    std::uint64_t max_allocation_bytes() const { return max_allocation_; }
    // The pipeline cache to create every pipeline with (compute kernels, the app's and the
    // figure's graphics pipelines): loaded from and saved to $XDG_CACHE_HOME/normlab/ when this
    // context goes. nullptr / VK_NULL_HANDLE without a cache (NORMLAB_NO_CACHE=1).
    const vk::raii::PipelineCache* pipeline_cache() const;
    VkPipelineCache pipeline_cache_handle() const;  // for C APIs (ImGui_ImplVulkan_InitInfo)

    // Submits one command buffer and waits for it with a timeout; throws DeviceError on
    // device loss, out-of-memory or timeout (never hangs).
    void submit_and_wait(const vk::CommandBuffer& cmd,
                         std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) const;
    // The two halves of submit_and_wait, for work kept in flight while the host goes on
    // (Staging's double buffering): submit() resets `fence` and submits with it; wait() waits
    // for it, with the same errors.
    void submit(const vk::CommandBuffer& cmd, vk::Fence fence) const;
    void wait(vk::Fence fence, std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) const;

private:
    void read_properties();  // limits, memory table, subgroups, timestamps of physical_
    static VkBool32 VKAPI_PTR debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT*, void*);

    vk::raii::Context loader_;
    vk::raii::Instance instance_{nullptr};
    vk::raii::DebugUtilsMessengerEXT messenger_{nullptr};
    vk::raii::PhysicalDevice physical_{nullptr};
    vk::raii::Device device_{nullptr};
    vk::raii::Queue queue_{nullptr};
    vk::raii::Fence fence_{nullptr};
    std::unique_ptr<PipelineCacheStore> pipeline_cache_;  // after device_: destroyed (and saved) first
    std::uint32_t queue_family_ = 0;
    std::string device_name_;
    vk::PhysicalDeviceLimits limits_{};
    vk::PhysicalDeviceMemoryProperties memory_{};
    std::uint32_t subgroup_size_ = 1;
    bool subgroup_arithmetic_ = false;
    bool fixed_subgroup_size_ = false;
    bool cpu_device_ = false;
    std::uint64_t max_allocation_ = 0;
    mutable bool faulted_ = false;  // a submit timed out or the device was lost
    std::uint32_t timestamp_valid_bits_ = 0;
    double timestamp_period_ = 1.0;
    bool validation_ = false;
    bool force_staging_ = false;
    std::atomic<std::uint64_t> validation_count_{0};
};

}  // namespace normlab::gpu
