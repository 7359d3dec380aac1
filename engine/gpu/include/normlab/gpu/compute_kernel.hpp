// ComputeKernel: one compute pipeline (a shader from shaders/ with its macros and
// specialization constants), its descriptor set of storage buffers and its push constants.
#pragma once
#include "normlab/plan/dispatch_grid.hpp"
#include "normlab/gpu/shader_library.hpp"
#include "normlab/gpu/vk_context.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::gpu {

class ComputeKernel {
public:
    // spec_constants[i] is specialization constant id i (32-bit each).
    ComputeKernel(const VulkanContext& ctx, const std::string& shader, const ShaderMacros& macros,
                  const std::vector<std::uint32_t>& spec_constants, std::uint32_t bindings, std::uint32_t push_bytes);

    // Points binding i at buffers[i] (a range of a buffer, or VK_WHOLE_SIZE). Call only while
    // no submitted command buffer that uses this kernel is pending.
    void bind_ranges(const std::vector<vk::DescriptorBufferInfo>& buffers);
    void bind(const std::vector<vk::Buffer>& buffers);
    // Records bind + push + dispatch of groups_x × groups_y workgroups.
    void dispatch(const vk::CommandBuffer& cmd, const void* push, std::uint32_t groups_x,
                  std::uint32_t groups_y = 1) const;

private:
    const VulkanContext* ctx_;
    std::uint32_t bindings_;
    std::uint32_t push_bytes_;
    vk::raii::DescriptorSetLayout set_layout_{nullptr};
    vk::raii::PipelineLayout layout_{nullptr};
    vk::raii::ShaderModule module_{nullptr};
    vk::raii::Pipeline pipeline_{nullptr};
    vk::raii::DescriptorPool pool_{nullptr};
    vk::raii::DescriptorSet set_{nullptr};
};

// Splits a workgroup count over x and y so that neither exceeds the device limit (dispatch_grid).
plan::DispatchGrid group_grid(std::uint64_t groups, const VulkanContext& ctx);

}  // namespace normlab::gpu
