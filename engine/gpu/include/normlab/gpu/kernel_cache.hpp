// KernelCache: the compute kernels of one family of ops (one binding count, one push-constant
// size, one set of shader macros), built on first use and kept, keyed by shader and
// specialization constants. The Normalizer and the Backward each keep one.
#pragma once
#include "normlab/gpu/compute_kernel.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace normlab::gpu {

class KernelCache {
public:
    KernelCache(const VulkanContext& ctx, ShaderMacros macros, std::uint32_t bindings, std::uint32_t push_bytes)
        : ctx_(&ctx), macros_(std::move(macros)), bindings_(bindings), push_bytes_(push_bytes) {}

    // The kernel of `shader` with specialization constants `spec` (compiled on the first call).
    ComputeKernel& get(const std::string& shader, const std::vector<std::uint32_t>& spec);
    const ShaderMacros& macros() const { return macros_; }

private:
    const VulkanContext* ctx_;
    ShaderMacros macros_;
    std::uint32_t bindings_, push_bytes_;
    std::map<std::pair<std::string, std::vector<std::uint32_t>>, std::unique_ptr<ComputeKernel>> kernels_;
};

}  // namespace normlab::gpu
