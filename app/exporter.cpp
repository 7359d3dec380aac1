#include "exporter.hpp"

#include "normlab/atomic_file.hpp"
#include "normlab/error.hpp"
#include "normlab/npy.hpp"
#include "normlab/torch_code.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <filesystem>

namespace normlab::app {
namespace {

std::string g(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

nlohmann::json numbers(const std::vector<double>& v) {
    auto a = nlohmann::json::array();
    for (double d : v) a.push_back(std::isfinite(d) ? nlohmann::json(d) : nlohmann::json(nullptr));
    return a;
}

}  // namespace

std::string stats_csv(const Session& s) {
    const NormResult& r = s.result();
    const StatLayout& l = r.layout;
    const bool rms = s.state().spec.method == Method::Rms;
    const double n = static_cast<double>(l.count());
    std::string out = rms ? "statistic,count,mean_square,rstd\n" : "statistic,count,mean,var_biased,var_unbiased,rstd\n";
    for (std::size_t i = 0; i < r.rstd.size(); ++i) {
        out += std::to_string(i) + "," + std::to_string(l.count()) + ",";
        if (rms) {
            out += g(r.mean_square[i]) + "," + g(r.rstd[i]) + "\n";
        } else {
            out += g(r.mean[i]) + "," + g(r.var[i]) + "," + (n > 1 ? g(r.var[i] * n / (n - 1)) : "") + "," + g(r.rstd[i]) + "\n";
        }
    }
    return out;
}

std::string stats_json(const Session& s) {
    const NormResult& r = s.result();
    const NormSpec& spec = s.state().spec;
    nlohmann::json j;
    j["norm"] = method_name(spec.method);
    j["torch_module"] = method_torch_name(spec.method);
    j["shape"] = s.x().shape.dims();
    j["eps"] = spec.effective_eps();
    j["stat_shape"] = r.layout.stat_shape;
    j["param_shape"] = r.layout.param_shape;
    j["reduced_axes"] = r.layout.reduced_axes;
    j["count"] = r.layout.count();
    if (spec.method == Method::Rms) {
        j["mean_square"] = numbers(r.mean_square);
    } else {
        j["mean"] = numbers(r.mean);
        j["var"] = numbers(r.var);
        j["stats_source"] = r.stats_from_running ? "running" : "input";
    }
    j["rstd"] = numbers(r.rstd);
    if (spec.method == Method::Batch && spec.track_running_stats) {
        j["mode"] = mode_name(spec.mode);
        j["running_mean"] = numbers(r.running_mean);
        j["running_var"] = numbers(r.running_var);
        j["num_batches_tracked"] = r.num_batches_tracked;
    }
    j["device"] = s.context().device_name();
    j["max_abs_error_vs_reference"] = s.max_error_wait();
    return j.dump(2) + "\n";
}

std::string export_stem(const Session& s) {
    std::time_t t = std::time(nullptr);
    char b[32];
    std::strftime(b, sizeof b, "%Y%m%d-%H%M%S", std::localtime(&t));
    return std::string(method_name(s.state().spec.method)) + "-" + b;
}

std::vector<std::string> export_all(const Session& s, const std::string& dir, const std::string& stem) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError("cannot create the export folder " + dir + ": " + ec.message());
    const auto d = s.x().shape.dims();
    const std::vector<std::int64_t> shape(d.begin(), d.end());
    const std::string base = (std::filesystem::path(dir) / stem).string();
    std::vector<std::pair<std::string, std::string>> files{
        {base + "-x.npy", npy_bytes_f32(shape, s.x().data.data())},
        {base + "-y.npy", npy_bytes_f32(shape, s.result().y.data.data())},
        {base + "-stats.csv", stats_csv(s)},
        {base + "-stats.json", stats_json(s)},
        {base + "-scene.json", scene_to_json(s.state())},
        {base + "-torch.py", torch_code(s.state(), s.x().shape)}};
    auto map = s.layout().group_map();
    files.emplace_back(base + "-groups.npy", npy_bytes_i32(shape, map.data()));
    std::vector<std::string> written;
    for (const auto& [path, bytes] : files) {
        write_file_atomic(path, bytes);
        written.push_back(path);
    }
    return written;
}

}  // namespace normlab::app
