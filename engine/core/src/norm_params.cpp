#include "normlab/core/norm_params.hpp"

#include "normlab/core/error.hpp"

namespace normlab::core {
namespace {

void check_size(const std::vector<float>& v, const std::vector<std::int64_t>& shape, std::int64_t count,
                const char* what) {
    if (!v.empty() && static_cast<std::int64_t>(v.size()) != count)
        throw InputError(std::string(what) + " has " + std::to_string(v.size()) + " elements, expected shape " +
                         dims_str(shape) + " (" + std::to_string(count) + " elements)");
}

}  // namespace

void NormParams::validate(const NormSpec& spec, const StatLayout& layout) const {
    check_size(weight, layout.param_shape, layout.param_count, "weight");
    check_size(bias, layout.param_shape, layout.param_count, "bias");
    if (!weight.empty() && !spec.has_weight()) throw InputError("a weight was given but affine is off");
    if (!bias.empty() && !spec.has_bias())
        throw InputError(spec.method == Method::Rms ? "RMSNorm has no bias"
                                                    : "a bias was given but this configuration has none");
    if (spec.method != Method::Batch) {
        if (!running_mean.empty() || !running_var.empty())
            throw InputError("running statistics are only used by batch normalization");
        return;
    }
    check_size(running_mean, {layout.shape.c}, layout.shape.c, "running_mean");
    check_size(running_var, {layout.shape.c}, layout.shape.c, "running_var");
    if (num_batches_tracked < 0) throw InputError("num_batches_tracked must be >= 0");
}

void unpack_stats(NormResult& r, const float* packed, bool rms) {
    const std::int64_t S = r.layout.stat_count;
    r.rstd.resize(static_cast<std::size_t>(S));
    if (rms)
        r.mean_square.resize(static_cast<std::size_t>(S));
    else {
        r.mean.resize(static_cast<std::size_t>(S));
        r.var.resize(static_cast<std::size_t>(S));
    }
    for (std::int64_t s = 0; s < S; ++s) {
        const float* v = packed + s * 4;
        const auto i = static_cast<std::size_t>(s);
        if (rms) {
            r.mean_square[i] = v[2];
        } else {
            r.mean[i] = static_cast<double>(v[0]) + static_cast<double>(v[1]);
            r.var[i] = v[2];
        }
        r.rstd[i] = v[3];
    }
}

void update_running_stats(const NormSpec& spec, const NormParams& params, NormResult& r) {
    if (spec.method != Method::Batch || !spec.track_running_stats) return;
    const auto C = static_cast<std::size_t>(r.layout.shape.c);
    r.running_mean.assign(C, 0.0);
    r.running_var.assign(C, 1.0);
    for (std::size_t c = 0; c < C; ++c) {
        if (!params.running_mean.empty()) r.running_mean[c] = params.running_mean[c];
        if (!params.running_var.empty()) r.running_var[c] = params.running_var[c];
    }
    r.num_batches_tracked = params.num_batches_tracked;
    if (spec.mode != Mode::Train) return;  // eval: running statistics are used, not changed
    r.num_batches_tracked += 1;
    const double m = spec.momentum ? *spec.momentum : 1.0 / static_cast<double>(r.num_batches_tracked);
    for (std::size_t c = 0; c < C; ++c) {
        const double unbiased = r.unbiased_var(c);  // running_var takes the unbiased variance
        r.running_mean[c] = (1.0 - m) * r.running_mean[c] + m * r.mean[c];
        r.running_var[c] = (1.0 - m) * r.running_var[c] + m * unbiased;
    }
    r.running_updated = true;
}

void update_sync_running_stats(const NormSpec& spec, const NormParams& params, NormResult& r) {
    if (!r.sync) return;
    const SyncStats& st = *r.sync;
    const auto C = static_cast<std::size_t>(r.layout.shape.c);
    NormResult kept;  // the statistics this mode's running statistics follow
    kept.layout = r.layout;
    if (st.mode == SyncMode::Local) {
        kept.layout.segments = r.layout.segments / st.devices;  // shard 0's count: (N/K)·H·W
        kept.mean.assign(st.shard_mean.begin(), st.shard_mean.begin() + static_cast<std::ptrdiff_t>(C));
        kept.var.assign(st.shard_var.begin(), st.shard_var.begin() + static_cast<std::ptrdiff_t>(C));
    } else {
        kept.mean = st.mode == SyncMode::Sync ? st.sync_mean : st.naive_mean;
        kept.var = st.mode == SyncMode::Sync ? st.sync_var : st.naive_var;
    }
    update_running_stats(spec, params, kept);
    r.running_mean = kept.running_mean;
    r.running_var = kept.running_var;
    r.num_batches_tracked = kept.num_batches_tracked;
    r.running_updated = kept.running_updated;
}

}  // namespace normlab::core
