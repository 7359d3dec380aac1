#include "normlab/gpu/compute_kernel.hpp"

#include "normlab/core/error.hpp"

namespace normlab::gpu {

ComputeKernel::ComputeKernel(const VulkanContext& ctx, const std::string& shader, const ShaderMacros& macros,
                             const std::vector<std::uint32_t>& spec_constants, std::uint32_t bindings,
                             std::uint32_t push_bytes)
    : ctx_(&ctx), bindings_(bindings), push_bytes_(push_bytes) {
    const auto& dev = ctx.device();
    std::vector<vk::DescriptorSetLayoutBinding> b;
    for (std::uint32_t i = 0; i < bindings; ++i)
        b.emplace_back(i, vk::DescriptorType::eStorageBuffer, 1, vk::ShaderStageFlagBits::eCompute);
    set_layout_ = vk::raii::DescriptorSetLayout(dev, vk::DescriptorSetLayoutCreateInfo({}, b));
    vk::PushConstantRange range(vk::ShaderStageFlagBits::eCompute, 0, push_bytes);
    vk::DescriptorSetLayout sl = *set_layout_;
    layout_ = vk::raii::PipelineLayout(dev, vk::PipelineLayoutCreateInfo({}, sl, range));

    const auto& spirv = compiled_shader(shader, macros);
    module_ = vk::raii::ShaderModule(dev, vk::ShaderModuleCreateInfo({}, spirv.size() * 4, spirv.data()));
    std::vector<vk::SpecializationMapEntry> entries;
    for (std::uint32_t i = 0; i < spec_constants.size(); ++i) entries.emplace_back(i, i * 4, 4);
    vk::SpecializationInfo spec(static_cast<std::uint32_t>(entries.size()), entries.data(), spec_constants.size() * 4,
                                spec_constants.data());
    vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, *module_, "main",
                                            spec_constants.empty() ? nullptr : &spec);
    pipeline_ = vk::raii::Pipeline(dev, ctx.pipeline_cache(), vk::ComputePipelineCreateInfo({}, stage, *layout_));

    vk::DescriptorPoolSize ps(vk::DescriptorType::eStorageBuffer, bindings);
    pool_ = vk::raii::DescriptorPool(
        dev, vk::DescriptorPoolCreateInfo(vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet, 1, ps));
    vk::raii::DescriptorSets sets(dev, vk::DescriptorSetAllocateInfo(*pool_, sl));
    set_ = std::move(sets.front());
}

void ComputeKernel::bind_ranges(const std::vector<vk::DescriptorBufferInfo>& infos) {
    // Always rewritten: a freed and re-created buffer can get the same handle value, so
    // comparing handles would keep a descriptor pointing at freed memory.
    std::vector<vk::WriteDescriptorSet> writes;
    for (std::uint32_t i = 0; i < bindings_ && i < infos.size(); ++i)
        writes.emplace_back(*set_, i, 0, 1, vk::DescriptorType::eStorageBuffer, nullptr, &infos[i]);
    ctx_->device().updateDescriptorSets(writes, {});
}

void ComputeKernel::bind(const std::vector<vk::Buffer>& buffers) {
    std::vector<vk::DescriptorBufferInfo> infos;
    for (auto buf : buffers) infos.emplace_back(buf, 0, VK_WHOLE_SIZE);
    bind_ranges(infos);
}

void ComputeKernel::dispatch(const vk::CommandBuffer& cmd, const void* push, std::uint32_t gx, std::uint32_t gy) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline_);
    cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *layout_, 0, *set_, {});
    if (push_bytes_) cmd.pushConstants(*layout_, vk::ShaderStageFlagBits::eCompute, 0, push_bytes_, push);
    cmd.dispatch(gx, gy, 1);
}

plan::DispatchGrid group_grid(std::uint64_t groups, const VulkanContext& ctx) {
    return plan::dispatch_grid(groups, ctx.limits().maxComputeWorkGroupCount[0],
                               ctx.limits().maxComputeWorkGroupCount[1]);
}

}  // namespace normlab::gpu
