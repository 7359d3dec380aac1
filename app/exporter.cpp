#include "exporter.hpp"

#include "normlab/io/stats_json.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/classroom/torch_code.hpp"
#include "normlab/io/scene_file.hpp"

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

}  // namespace

std::string stats_csv(const session::Session& s) {
    const core::NormResult& r = s.result();
    const bool rms = s.state().spec.method == core::Method::Rms;
    const std::int64_t count = r.elements_per_stat();  // SyncBN's local mode: a shard's elements
    std::string out =
        rms ? "statistic,count,mean_square,rstd\n" : "statistic,count,mean,var_biased,var_unbiased,rstd\n";
    for (std::size_t i = 0; i < r.rstd.size(); ++i) {
        out += std::to_string(i) + "," + std::to_string(count) + ",";
        if (rms) {
            out += g(r.mean_square[i]) + "," + g(r.rstd[i]) + "\n";
        } else {
            out += g(r.mean[i]) + "," + g(r.var[i]) + "," + (count > 1 ? g(r.unbiased_var(i)) : "") + "," +
                   g(r.rstd[i]) + "\n";
        }
    }
    return out;
}

std::string stats_json(const session::Session& s) {
    return normlab::io::stats_json(s.state().spec, s.result(), s.backend().device_name(), s.max_error_wait());
}

std::string export_stem(const session::Session& s) {
    std::time_t t = std::time(nullptr);
    char b[32];
    std::strftime(b, sizeof b, "%Y%m%d-%H%M%S", std::localtime(&t));
    return std::string(core::method_name(s.state().spec.method)) + "-" + b;
}

std::vector<std::string> export_all(const session::Session& s, const std::string& dir, const std::string& stem) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw core::InputError("cannot create the export folder " + dir + ": " + ec.message());
    const auto d = s.x().shape.dims();
    const std::vector<std::int64_t> shape(d.begin(), d.end());
    const std::string base = (std::filesystem::path(dir) / stem).string();
    std::vector<std::pair<std::string, std::string>> files{
        {base + "-x.npy", io::npy_bytes_f32(shape, s.x().data.data())},
        {base + "-y.npy", io::npy_bytes_f32(shape, s.result().y.data.data())},
        {base + "-stats.csv", stats_csv(s)},
        {base + "-stats.json", stats_json(s)},
        {base + "-scene.normlab.json", io::scene_to_json(s.state())},
        {base + "-torch.py", classroom::torch_code(s.state(), s.x().shape)}};
    auto map = s.layout().group_map();
    files.emplace_back(base + "-groups.npy", io::npy_bytes_i32(shape, map.data()));
    std::vector<std::string> written;
    for (const auto& [path, bytes] : files) {
        io::write_file_atomic(path, bytes);
        written.push_back(path);
    }
    return written;
}

}  // namespace normlab::app
