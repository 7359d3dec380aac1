// A sweep's summary CSV and figure lines (sweep_summary.hpp).
#include "normlab/train/sweep_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

namespace normlab::train {

std::string sweep_keys_prefix(const std::vector<SweepAxis>& axes) {
    std::string s;
    for (const auto& axis : axes) s += axis.key + ",";
    return s;
}

std::string sweep_values_prefix(const SweepRun& run) {
    std::string s;
    for (const auto& v : run.values) s += v + ",";
    return s;
}

std::string sweep_summary_csv(const std::vector<SweepAxis>& axes, const std::vector<SweepRun>& runs,
                              const std::vector<SweepResult>& results) {
    std::string s = sweep_keys_prefix(axes) + "train_loss,train_acc,val_loss,val_acc,steps_per_s\n";
    for (std::size_t r = 0; r < results.size() && r < runs.size(); ++r) {
        const SweepResult& x = results[r];
        char row[160];
        std::snprintf(row, sizeof row, "%.9g,%.9g,%.9g,%.9g,%.6g\n", static_cast<double>(x.train_loss),
                      static_cast<double>(x.train_acc), static_cast<double>(x.val_loss), static_cast<double>(x.val_acc),
                      x.steps_per_second);
        s += sweep_values_prefix(runs[r]) + row;
    }
    return s;
}

bool sweep_has_batch(const std::vector<SweepAxis>& axes) {
    return std::any_of(axes.begin(), axes.end(), [](const SweepAxis& a) { return a.key == "batch"; });
}

std::vector<SweepSeries> sweep_error_series(const std::vector<SweepAxis>& axes, const std::vector<SweepRun>& runs,
                                            const std::vector<SweepResult>& results) {
    std::vector<SweepSeries> out;
    if (!sweep_has_batch(axes)) return out;
    std::map<std::string, std::size_t> line_of;  // the other axes' values → its line
    for (std::size_t r = 0; r < results.size() && r < runs.size(); ++r) {
        std::string label;
        for (std::size_t i = 0; i < axes.size() && i < runs[r].values.size(); ++i)
            if (axes[i].key != "batch") label += (label.empty() ? "" : ", ") + axes[i].key + "=" + runs[r].values[i];
        if (label.empty()) label = "final validation error";
        auto [it, added] = line_of.emplace(label, out.size());
        if (added) out.push_back({label, {}, {}});
        out[it->second].batch.push_back(runs[r].config.batch);
        out[it->second].error.push_back(100.0 * (1.0 - static_cast<double>(results[r].val_acc)));
    }
    for (auto& s : out) {  // in the order of the batch size, whatever the order given
        std::vector<std::pair<double, double>> xy;
        for (std::size_t i = 0; i < s.batch.size(); ++i) xy.emplace_back(s.batch[i], s.error[i]);
        std::sort(xy.begin(), xy.end());
        for (std::size_t i = 0; i < xy.size(); ++i) std::tie(s.batch[i], s.error[i]) = xy[i];
    }
    return out;
}

}  // namespace normlab::train
