#include "normlab/io/stats_json.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace normlab::io {

using nlohmann::json;

namespace {
// JSON has no NaN/Inf: non-finite statistics are written as null.
json numbers(const std::vector<double>& v) {
    json a = json::array();
    for (double d : v) a.push_back(std::isfinite(d) ? json(d) : json(nullptr));
    return a;
}
}  // namespace

std::string stats_json(const core::NormSpec& spec, const core::NormResult& r, const std::string& device,
                       std::optional<double> max_error) {
    const core::Shape4& shape = r.layout.shape;
    json j;
    j["norm"] = core::method_name(spec.method);
    j["torch_module"] = core::method_torch_name(spec.method, shape);
    j["shape"] = shape.dims();
    j["eps"] = spec.effective_eps();
    json params;
    params["affine"] = spec.affine;
    if (spec.method == core::Method::Group) params["groups"] = spec.groups;
    if (spec.method == core::Method::Layer || spec.method == core::Method::Rms) {
        params["normalized_shape"] = spec.effective_normalized_shape(shape);
        if (spec.method == core::Method::Layer) params["bias"] = spec.bias;
    }
    if (spec.method == core::Method::Batch) {
        params["mode"] = core::mode_name(spec.mode);
        params["momentum"] = spec.momentum ? json(*spec.momentum) : json("cumulative");
        params["track_running_stats"] = spec.track_running_stats;
    }
    j["params"] = params;
    j["stat_shape"] = r.layout.stat_shape;
    j["param_shape"] = r.layout.param_shape;
    j["reduced_axes"] = r.layout.reduced_axes;
    j["count"] = r.elements_per_stat();
    if (spec.method == core::Method::Rms) {
        j["mean_square"] = numbers(r.mean_square);
    } else {
        j["mean"] = numbers(r.mean);
        j["var"] = numbers(r.var);
        j["stats_source"] = r.stats_from_running ? "running" : "input";
    }
    j["rstd"] = numbers(r.rstd);
    if (r.sync) {  // SyncBN: mean/var/rstd are the statistics applied (local: per shard, [K, C])
        const core::SyncStats& st = *r.sync;
        const json kc = std::vector<std::int64_t>{st.devices, shape.c};
        j["sync_devices"] = st.devices;
        j["sync_mode"] = core::sync_mode_name(st.mode);
        j["shard_shape"] = kc;
        j["shard_count"] = st.shard_count;
        j["shard_mean"] = numbers(st.shard_mean);
        j["shard_var"] = numbers(st.shard_var);
        if (st.mode == core::SyncMode::Local && !st.from_running) {
            j["stat_shape"] = kc;
        }
    }
    if (spec.method == core::Method::Batch && spec.track_running_stats) {
        j["running_mean"] = numbers(r.running_mean);
        j["running_var"] = numbers(r.running_var);
        j["num_batches_tracked"] = r.num_batches_tracked;
    }
    j["nonfinite_inputs"] = r.nonfinite_inputs;
    j["device"] = device;
    j["gpu_ms"] = r.gpu_ms;
    j["max_abs_error_vs_reference"] = max_error && std::isfinite(*max_error) ? json(*max_error) : json(nullptr);
    return j.dump(2) + "\n";
}

}  // namespace normlab::io
