#include "normlab/gpu/kernel_cache.hpp"

namespace normlab::gpu {

ComputeKernel& KernelCache::get(const std::string& shader, const std::vector<std::uint32_t>& spec) {
    auto key = std::make_pair(shader, spec);
    auto it = kernels_.find(key);
    if (it != kernels_.end()) return *it->second;
    auto k = std::make_unique<ComputeKernel>(*ctx_, shader, macros_, spec, bindings_, push_bytes_);
    return *kernels_.emplace(std::move(key), std::move(k)).first->second;
}

}  // namespace normlab::gpu
