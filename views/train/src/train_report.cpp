#include "normlab/views/train_report.hpp"

#include <algorithm>
#include <numeric>

namespace normlab::views {
namespace {

// The mean of v[from, to) (0 when empty).
double mean(const std::vector<float>& v, std::size_t from, std::size_t to) {
    if (to <= from) return 0.0;
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to),
                           0.0) /
           static_cast<double>(to - from);
}

}  // namespace

nlohmann::json train_report(const TrainRunSet& runs, bool shown) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : runs.runs()) {
        const auto& c = r.curves;
        const std::size_t n = c.loss.size(), k = std::min<std::size_t>(n, 10);
        list.push_back({{"norm", train::train_norm_name(r.config.norm)},
                        {"steps", r.steps_done},
                        {"of", r.config.steps},
                        {"loss_start", mean(c.loss, 0, k)},
                        {"loss_now", mean(c.loss, n - k, n)},
                        {"acc_now", mean(c.acc, n - k, n)},
                        {"recent_acc", classroom::recent_mean(c.acc)},  // as a lesson's run[i].recent_acc
                        {"val_loss", c.val_loss.empty() ? 0.0 : c.val_loss.back()},
                        {"val_acc", c.val_acc.empty() ? 0.0 : c.val_acc.back()},
                        {"device", static_cast<bool>(r.device)},
                        {"strip_every", r.strips.every},
                        {"strip_columns", r.strips.layers.empty() ? 0 : r.strips.layers.front().size()}});
    }
    return {{"shown", shown},         {"available", runs.available()},          {"playing", runs.playing()},
            {"fps", runs.mean_fps()}, {"steps_per_s", runs.steps_per_second()}, {"runs", list}};
}

}  // namespace normlab::views
