// check_vk: the one check of a VkResult from a plain Vulkan C call (Dear ImGui's Vulkan
// backend, the window's swapchain frames, the headless figure). A failure (VkResult < 0)
// throws DeviceError naming the VkResult, which the programs report as exit status 3
// (normlab/core/error.hpp); success and positive status codes (VK_SUBOPTIMAL_KHR, …) return.
// Its type is Dear ImGui's ImGui_ImplVulkan_InitInfo::CheckVkResultFn, void(VkResult).
#pragma once
#include "normlab/core/error.hpp"

#include <vulkan/vulkan.hpp>

#include <string>

namespace normlab::views {

inline void check_vk(VkResult err) {
    if (err >= 0) return;
    throw core::DeviceError("a Vulkan call failed: " + vk::to_string(static_cast<vk::Result>(err)) + " (VkResult " +
                            std::to_string(static_cast<int>(err)) + ")");
}

}  // namespace normlab::views
