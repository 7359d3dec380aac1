#include "normlab/reference/reference.hpp"

#include "normlab/core/error.hpp"

#include <cmath>

namespace normlab::reference {

ReferenceResult reference_sync(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params) {
    if (spec.sync_devices < 1) throw core::InputError("reference_sync needs sync devices");
    spec.validate(x.shape);
    const std::int64_t K = spec.sync_devices, Nk = x.shape.n / K, C = x.shape.c, hw = x.shape.hw();
    core::NormSpec whole = spec;  // BatchNorm over the whole batch, no shards
    whole.sync_devices = 0;
    core::NormSpec train = whole;  // the batch's own statistics, whatever spec's mode
    train.mode = core::Mode::Train;
    core::NormParams affine;
    affine.weight = params.weight;
    affine.bias = params.bias;

    core::SyncStats st;
    st.devices = K;
    st.mode = spec.sync_mode;
    st.shard_count = Nk * hw;
    std::vector<double> y_local;
    for (std::int64_t k = 0; k < K; ++k) {
        const core::Tensor shard = core::batch_slice(x, k * Nk, Nk);
        const Reference ref(shard, train, affine);
        for (std::int64_t c = 0; c < C; ++c) {
            st.shard_mean.push_back(ref.stats().mean[static_cast<std::size_t>(c)]);
            st.shard_var.push_back(ref.stats().var[static_cast<std::size_t>(c)]);
        }
        const auto y = ref.y_all();
        y_local.insert(y_local.end(), y.begin(), y.end());
    }
    const Reference global(x, train, affine);
    st.sync_mean = global.stats().mean;
    st.sync_var = global.stats().var;
    st.naive_mean.assign(static_cast<std::size_t>(C), 0.0);
    st.naive_var.assign(static_cast<std::size_t>(C), 0.0);
    for (std::int64_t k = 0; k < K; ++k)
        for (std::int64_t c = 0; c < C; ++c) {
            st.naive_mean[static_cast<std::size_t>(c)] += st.shard_mean[static_cast<std::size_t>(k * C + c)] / K;
            st.naive_var[static_cast<std::size_t>(c)] += st.shard_var[static_cast<std::size_t>(k * C + c)] / K;
        }

    ReferenceResult out;
    const double eps = spec.effective_eps();
    if (!spec.uses_batch_stats()) {  // eval with running statistics: every mode is plain eval
        const Reference ref(x, whole, params);
        out.stats = ref.stats();
        out.y = ref.y_all();
        st.from_running = true;
        out.stats.sync = st;
        return out;
    }
    out.stats.layout = global.stats().layout;
    if (st.mode == core::SyncMode::Local) {
        out.y = y_local;
        out.stats.mean = st.shard_mean;
        out.stats.var = st.shard_var;
    } else {
        const auto& mean = st.mode == core::SyncMode::Sync ? st.sync_mean : st.naive_mean;
        const auto& var = st.mode == core::SyncMode::Sync ? st.sync_var : st.naive_var;
        out.y.resize(x.data.size());
        for (std::size_t i = 0; i < x.data.size(); ++i) {
            const auto c = static_cast<std::size_t>((static_cast<std::int64_t>(i) / hw) % C);
            const double g = spec.has_weight() && !params.weight.empty() ? params.weight[c] : 1.0;
            const double b = spec.has_bias() && !params.bias.empty() ? params.bias[c] : 0.0;
            out.y[i] = (static_cast<double>(x.data[i]) - mean[c]) / std::sqrt(var[c] + eps) * g + b;
        }
        out.stats.mean = mean;
        out.stats.var = var;
    }
    for (double v : out.stats.var) out.stats.rstd.push_back(1.0 / std::sqrt(v + eps));
    out.stats.nonfinite_inputs = core::count_nonfinite(x.data);
    out.stats.sync = st;
    core::update_sync_running_stats(spec, params, out.stats);
    return out;
}

double reference_error(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                       const std::vector<float>& y) {
    if (spec.sync_devices > 0) return max_abs_error(y, reference_sync(x, spec, params).y);
    return Reference(x, spec, params).max_abs_error(y);
}

}  // namespace normlab::reference
