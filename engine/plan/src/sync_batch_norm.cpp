#include "normlab/plan/sync_batch_norm.hpp"

#include "normlab/core/stat_layout.hpp"

#include <chrono>
#include <utility>

namespace normlab::plan {
namespace {

// What one run collects on the way: the statistics, the rstd of each mode, the GPU time.
struct Run {
    core::SyncStats st;
    std::vector<double> local_rstd, sync_rstd, naive_rstd;
    double gpu_ms = 0;
};

// Each device's statistics of its own shard; returns the all-reduce's input (count, mean, var) [K][C].
std::vector<float> shard_statistics(SyncDevices& dev, const core::Tensor& x, const core::NormSpec& train,
                                    const core::NormParams& affine, Run& run) {
    core::SyncStats& st = run.st;
    const std::int64_t K = st.devices, Nk = x.shape.n / K, C = x.shape.c;
    std::vector<float> shard_in(static_cast<std::size_t>(K * C) * 4);
    st.y_local.reserve(x.data.size());
    for (std::int64_t k = 0; k < K; ++k) {
        const core::NormResult rk = dev.forward(core::batch_slice(x, k * Nk, Nk), train, affine, {});
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
void unpack(const std::vector<float>& red, std::int64_t C, Run& run) {
    core::SyncStats& st = run.st;
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

// y under sync and naive (the forward in eval with the reduced statistics as running ones); the
// device keeps the chosen mode's y, the result carries its statistics.
core::NormResult apply_modes(SyncDevices& dev, const core::Tensor& x, const core::NormSpec& spec,
                             const core::NormParams& affine, Run& run) {
    core::SyncStats& st = run.st;
    core::NormSpec whole = spec;
    whole.sync_devices = 0;
    auto apply = [&](const std::vector<double>& mean, const std::vector<double>& var) {
        core::NormSpec ev = whole;
        ev.mode = core::Mode::Eval;
        ev.track_running_stats = true;
        core::NormParams p = affine;
        p.running_mean.assign(mean.begin(), mean.end());
        p.running_var.assign(var.begin(), var.end());
        core::NormResult r = dev.forward(x, ev, p, {});
        run.gpu_ms += r.gpu_ms;
        return r;
    };
    const bool naive_last = spec.sync_mode == core::SyncMode::Naive;  // the device keeps the last run's y
    core::NormResult first = naive_last ? apply(st.sync_mean, st.sync_var) : apply(st.naive_mean, st.naive_var);
    core::NormResult last = naive_last ? apply(st.naive_mean, st.naive_var) : apply(st.sync_mean, st.sync_var);
    st.y_sync = naive_last ? std::move(first.y.data) : last.y.data;
    st.y_naive = naive_last ? last.y.data : std::move(first.y.data);
    core::NormResult r = std::move(last);
    r.stats_from_running = false;
    if (spec.sync_mode == core::SyncMode::Local) {
        r.y.data = st.y_local;
        dev.load_values(x, r.y);  // the device's y is local's
        r.mean = st.shard_mean;
        r.var = st.shard_var;
        r.rstd = run.local_rstd;
    } else {
        const bool sync = spec.sync_mode == core::SyncMode::Sync;
        r.mean = sync ? st.sync_mean : st.naive_mean;
        r.var = sync ? st.sync_var : st.naive_var;
        r.rstd = sync ? run.sync_rstd : run.naive_rstd;
    }
    return r;
}

}  // namespace

core::NormResult run_sync_batch_norm(SyncDevices& dev, const core::Tensor& x, const core::NormSpec& spec,
                                     const core::NormParams& params, const RunOptions& options) {
    if (spec.sync_devices == 0) return dev.forward(x, spec, params, options);
    const auto t0 = std::chrono::steady_clock::now();
    const core::StatLayout layout = core::make_layout(spec, x.shape);  // validates K (divisible, batch only)
    params.validate(spec, layout);
    const std::int64_t K = spec.sync_devices, C = x.shape.c;
    core::NormSpec whole = spec;  // BatchNorm over the whole batch
    whole.sync_devices = 0;
    core::NormSpec train = whole;  // each device: its shard's own statistics
    train.mode = core::Mode::Train;
    core::NormParams affine;
    affine.weight = params.weight;
    affine.bias = params.bias;

    Run run;
    core::SyncStats& st = run.st;
    st.devices = K;
    st.mode = spec.sync_mode;
    st.shard_count = x.shape.n / K * x.shape.hw();
    st.from_running = !spec.uses_batch_stats();
    const std::vector<float> shard_in = shard_statistics(dev, x, train, affine, run);
    unpack(dev.all_reduce(shard_in, K, C, spec.effective_eps(), run.gpu_ms), C, run);
    core::NormResult r;
    if (st.from_running) {  // eval with running statistics: every mode applies them
        r = dev.forward(x, whole, params, options);
        run.gpu_ms += r.gpu_ms;
        st.y_sync = st.y_naive = st.y_local = r.y.data;
    } else {
        r = apply_modes(dev, x, spec, affine, run);
    }
    r.layout = layout;
    r.gpu_ms = run.gpu_ms;
    r.dispatch_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.upload_ms = r.readback_ms = 0;
    r.sync = std::move(st);
    core::update_sync_running_stats(spec, params, r);
    return r;
}

}  // namespace normlab::plan
