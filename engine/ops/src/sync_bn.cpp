#include "normlab/sync_bn.hpp"

#include "normlab/error.hpp"

#include <chrono>
#include <cmath>

namespace normlab {
namespace {

// Mirrors `Push` in shaders/sync_reduce.comp.
struct ReducePush {
    std::uint32_t devices, channels;
    float eps;
};

}  // namespace

SyncBatchNorm::SyncBatchNorm(Normalizer& normalizer)
    : n_(&normalizer),
      kernels_(normalizer.context(), ShaderMacros{}, 2, static_cast<std::uint32_t>(sizeof(ReducePush))) {}

std::vector<float> SyncBatchNorm::reduce(const std::vector<float>& shards, std::int64_t K, std::int64_t C, double eps,
                                         double& gpu_ms) {
    const VulkanContext& ctx = n_->context();
    ComputeKernel& kernel = kernels_.get("sync_reduce.comp", {});
    const vk::DeviceSize in_bytes = static_cast<vk::DeviceSize>(K * C) * 16,
                         out_bytes = static_cast<vk::DeviceSize>(C) * 32;
    ensure_compute_buffer(ctx, shards_, in_bytes);
    ensure_compute_buffer(ctx, out_, out_bytes);
    n_->staging().upload({{&shards_, 0, shards.data(), in_bytes}});
    kernel.bind_ranges({{shards_.handle(), 0, in_bytes}, {out_.handle(), 0, out_bytes}});
    const ReducePush push{static_cast<std::uint32_t>(K), static_cast<std::uint32_t>(C), static_cast<float>(eps)};
    CommandRecorder& recorder = n_->recorder();
    vk::CommandBuffer cmd = recorder.begin();
    recorder.start_timer();
    kernel.dispatch(cmd, &push, static_cast<std::uint32_t>((C + 63) / 64));
    recorder.stop_timer();
    // Makes the reduce's writes of OUT visible to the host's reads (mapped memory) and to the
    // staged readback's copy, which the next submission's first barrier orders after this one.
    memory_barrier(cmd, vk::PipelineStageFlagBits::eComputeShader, vk::AccessFlagBits::eShaderWrite,
                   vk::PipelineStageFlagBits::eHost | vk::PipelineStageFlagBits::eTransfer,
                   vk::AccessFlagBits::eHostRead | vk::AccessFlagBits::eTransferRead);
    gpu_ms += recorder.submit();
    std::vector<float> out(static_cast<std::size_t>(C) * 8);
    n_->staging().download({{&out_, 0, out.data(), out_bytes}});
    return out;
}

// Each device's statistics of its own shard; returns the reduce's input (count, mean, var) [K][C].
std::vector<float> SyncBatchNorm::shard_statistics(const Tensor& x, const NormSpec& train, const NormParams& affine,
                                                   Run& run) {
    SyncStats& st = run.st;
    const std::int64_t K = st.devices, Nk = x.shape.n / K, C = x.shape.c;
    std::vector<float> shard_in(static_cast<std::size_t>(K * C) * 4);
    st.y_local.reserve(x.data.size());
    for (std::int64_t k = 0; k < K; ++k) {
        const NormResult rk = n_->run(batch_slice(x, k * Nk, Nk), train, affine);
        run.gpu_ms += rk.gpu_ms;
        for (std::int64_t c = 0; c < C; ++c) {
            const auto i = static_cast<std::size_t>(c);
            st.shard_mean.push_back(rk.mean[i]);
            st.shard_var.push_back(rk.var[i]);
            run.local_rstd.push_back(rk.rstd[i]);
            float* v = &shard_in[static_cast<std::size_t>(k * C + c) * 4];
            v[0] = static_cast<float>(st.shard_count);
            v[1] = static_cast<float>(rk.mean[i]);
            v[2] = static_cast<float>(rk.var[i]);
        }
        st.y_local.insert(st.y_local.end(), rk.y.data.begin(), rk.y.data.end());
    }
    return shard_in;
}

// The all-reduce's output [2][C] (mean, var, rstd) into the sync and naive statistics.
void SyncBatchNorm::unpack(const std::vector<float>& red, std::int64_t C, Run& run) {
    SyncStats& st = run.st;
    for (std::int64_t c = 0; c < C; ++c) {
        const float* s = &red[static_cast<std::size_t>(c) * 4];
        const float* nv = &red[static_cast<std::size_t>(C + c) * 4];
        st.sync_mean.push_back(s[0]);
        st.sync_var.push_back(s[1]);
        run.sync_rstd.push_back(s[2]);
        st.naive_mean.push_back(nv[0]);
        st.naive_var.push_back(nv[1]);
        run.naive_rstd.push_back(nv[2]);
    }
}

// y under sync and naive (norm_apply.comp with the reduced statistics as "running" ones); the
// device keeps the chosen mode's y, the result carries its statistics.
NormResult SyncBatchNorm::apply_modes(const Tensor& x, const NormSpec& spec, const NormParams& affine, Run& run) {
    SyncStats& st = run.st;
    NormSpec whole = spec;
    whole.sync_devices = 0;
    auto apply = [&](const std::vector<double>& mean, const std::vector<double>& var) {
        NormSpec ev = whole;
        ev.mode = Mode::Eval;
        ev.track_running_stats = true;
        NormParams p = affine;
        p.running_mean.assign(mean.begin(), mean.end());
        p.running_var.assign(var.begin(), var.end());
        NormResult r = n_->run(x, ev, p);
        run.gpu_ms += r.gpu_ms;
        return r;
    };
    const bool naive_last = spec.sync_mode == SyncMode::Naive;  // the device keeps the last run's y
    NormResult first = naive_last ? apply(st.sync_mean, st.sync_var) : apply(st.naive_mean, st.naive_var);
    NormResult last = naive_last ? apply(st.naive_mean, st.naive_var) : apply(st.sync_mean, st.sync_var);
    st.y_sync = naive_last ? std::move(first.y.data) : last.y.data;
    st.y_naive = naive_last ? last.y.data : std::move(first.y.data);
    NormResult r = std::move(last);
    r.stats_from_running = false;
    if (spec.sync_mode == SyncMode::Local) {
        r.y.data = st.y_local;
        n_->load_values(x, r.y);  // the device's y is local's
        r.mean = st.shard_mean;
        r.var = st.shard_var;
        r.rstd = run.local_rstd;
    } else {
        const bool sync = spec.sync_mode == SyncMode::Sync;
        r.mean = sync ? st.sync_mean : st.naive_mean;
        r.var = sync ? st.sync_var : st.naive_var;
        r.rstd = sync ? run.sync_rstd : run.naive_rstd;
    }
    return r;
}

NormResult SyncBatchNorm::run(const Tensor& x, const NormSpec& spec, const NormParams& params,
                              const RunOptions& options) {
    if (spec.sync_devices == 0) return n_->run(x, spec, params, options);
    const auto t0 = std::chrono::steady_clock::now();
    const StatLayout layout = make_layout(spec, x.shape);  // validates K (divisible, batch only)
    params.validate(spec, layout);
    const std::int64_t K = spec.sync_devices, C = x.shape.c;
    NormSpec whole = spec;  // BatchNorm over the whole batch
    whole.sync_devices = 0;
    NormSpec train = whole;  // each device: its shard's own statistics
    train.mode = Mode::Train;
    NormParams affine;
    affine.weight = params.weight;
    affine.bias = params.bias;

    Run run;
    SyncStats& st = run.st;
    st.devices = K;
    st.mode = spec.sync_mode;
    st.shard_count = x.shape.n / K * x.shape.hw();
    st.from_running = !spec.uses_batch_stats();
    const std::vector<float> shard_in = shard_statistics(x, train, affine, run);
    unpack(reduce(shard_in, K, C, spec.effective_eps(), run.gpu_ms), C, run);
    NormResult r;
    if (st.from_running) {  // eval with running statistics: every mode applies them
        r = n_->run(x, whole, params, options);
        run.gpu_ms += r.gpu_ms;
        st.y_sync = st.y_naive = st.y_local = r.y.data;
    } else {
        r = apply_modes(x, spec, affine, run);
    }
    r.layout = layout;
    r.gpu_ms = run.gpu_ms;
    r.dispatch_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.upload_ms = r.readback_ms = 0;
    r.sync = std::move(st);
    update_sync_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab
