#include "normlab/webgpu/wgpu_sync_bn.hpp"

#include "wgpu_dispatch.hpp"

namespace normlab::webgpu {
namespace {

// Mirrors `Reduce` in shaders/wgsl/sync_reduce.wgsl (16 bytes: uniforms are 16-byte multiples).
struct ReduceBlock {
    std::uint32_t devices, channels;
    float eps;
    std::uint32_t groups_x;
};
static_assert(sizeof(ReduceBlock) == 16);

}  // namespace

WgpuSyncBatchNorm::WgpuSyncBatchNorm(WgpuNormalizer& normalizer) : plan::SyncBatchNormOn<WgpuNormalizer>(normalizer) {
    constexpr auto ro = WGPUBufferBindingType_ReadOnlyStorage, rw = WGPUBufferBindingType_Storage,
                   uni = WGPUBufferBindingType_Uniform;
    // The shards read, the reduced statistics written, 2 the uniform block.
    bind_layout_ = make_bind_layout(n_->context(), {{0, ro}, {1, rw}, {2, uni}});
    pipeline_layout_ = make_pipeline_layout(n_->context(), bind_layout_);
}

WgpuSyncBatchNorm::~WgpuSyncBatchNorm() {
    if (pipeline_) wgpuComputePipelineRelease(pipeline_);
    if (pipeline_layout_) wgpuPipelineLayoutRelease(pipeline_layout_);
    if (bind_layout_) wgpuBindGroupLayoutRelease(bind_layout_);
}

std::vector<float> WgpuSyncBatchNorm::all_reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C,
                                                 double eps, double& /*gpu_ms: no timestamps in this backend*/) {
    WgpuContext& ctx = n_->context();
    const std::uint64_t in_bytes = static_cast<std::uint64_t>(K * C) * 16,
                        out_bytes = static_cast<std::uint64_t>(C) * 32;
    check_binding(ctx, in_bytes, "SyncBN's " + std::to_string(K) + " × " + std::to_string(C) + " shard statistics");
    if (!pipeline_)
        pipeline_ =
            make_pipeline(ctx, std::string(wgsl_file("sync_reduce.wgsl")), "sync_reduce.wgsl", pipeline_layout_);
    const plan::DispatchGrid g = grid(ctx, static_cast<std::uint64_t>((C + 63) / 64));
    const ReduceBlock block{plan::u32(K), plan::u32(C), static_cast<float>(eps), g.x};
    ErrorScope errors(ctx);
    ensure(shards_, ctx, in_bytes, kStorage);
    ensure(out_, ctx, out_bytes, kStorage);
    ensure(uniform_, ctx, sizeof(ReduceBlock), kUniform);
    shards_.write(ctx, shards.data(), in_bytes);
    uniform_.write(ctx, &block, sizeof(block));  // queue writes land before the submit below
    const BindGroup group =
        bind_group(ctx, bind_layout_, {{0, &shards_, in_bytes}, {1, &out_, out_bytes}, {2, &uniform_, sizeof(block)}});
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(ctx.device(), nullptr);
    encode_pass(enc, pipeline_, group, g);
    submit(ctx, enc);
    std::vector<float> out(static_cast<std::size_t>(C) * 8);
    read_back(ctx, n_->staging(), {{&out_, out.data(), out_bytes}});
    errors.check("SyncBN's all-reduce on WebGPU");
    return out;
}

}  // namespace normlab::webgpu
