// normlab-cli train --sweep (train_sweep.hpp).
#include "train_sweep.hpp"

#include "train_figure.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/train/sweep_summary.hpp"
#include "normlab/core/error.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace normlab {
namespace {

// The table's columns: the swept keys, then the final numbers.
struct Table {
    std::vector<std::size_t> widths;

    explicit Table(const SweepPlan& p) {
        for (std::size_t i = 0; i < p.axes.size(); ++i) {
            std::size_t w = p.axes[i].key.size();
            for (const auto& v : p.axes[i].values) w = std::max(w, v.size());
            widths.push_back(w);
        }
    }
    void header(const SweepPlan& p) const {
        for (std::size_t i = 0; i < p.axes.size(); ++i) fmt::print("{:<{}}  ", p.axes[i].key, widths[i]);
        fmt::print("{:>10}  {:>9}  {:>8}  {:>7}  {:>8}\n", "train_loss", "train_acc", "val_loss", "val_acc", "steps/s");
    }
    void row(const train::SweepRun& r, const TrainOutcome& o) const {
        const std::size_t last = o.evaluated.size() - 1;
        for (std::size_t i = 0; i < r.values.size(); ++i) fmt::print("{:<{}}  ", r.values[i], widths[i]);
        fmt::print("{:>10.4f}  {:>9.3f}  {:>8.4f}  {:>7.3f}  {:>8.1f}\n", o.log[2 * last], o.log[2 * last + 1],
                   o.val[2 * last], o.val[2 * last + 1], o.steps_per_second());
    }
};

void check_folder(const std::string& path) {
    std::string parent = std::filesystem::path(path).parent_path().string();
    if (parent.empty()) parent = ".";
    if (!std::filesystem::is_directory(parent))
        throw core::InputError("cannot write " + path + ": the folder " + parent + " is missing or not writable");
}

}  // namespace

std::vector<train::SweepResult> sweep_results(const std::vector<TrainOutcome>& outcomes) {
    std::vector<train::SweepResult> out;
    for (const TrainOutcome& o : outcomes) {
        const std::size_t last = o.evaluated.size() - 1;
        out.push_back(
            {o.log[2 * last], o.log[2 * last + 1], o.val[2 * last], o.val[2 * last + 1], o.steps_per_second()});
    }
    return out;
}

std::string sweep_csv_path(const TrainArgs& a) {
    if (!a.sweep_csv.empty()) return a.sweep_csv;
    if (a.log.empty()) return "";
    const std::filesystem::path log(a.log);
    return (log.parent_path() / (log.stem().string() + "-sweep.csv")).string();
}

SweepPlan plan_sweep(const TrainArgs& a, const train::TrainConfig& base) {
    for (const auto& [path, flag] :
         {std::pair{&a.save_init, "--save-init"}, std::pair{&a.save_data, "--save-data"},
          std::pair{&a.save_final, "--save-final"}, std::pair{&a.pytorch_script, "--pytorch-script"}})
        if (!path->empty()) throw core::InputError(std::string(flag) + " writes one run's files: not with --sweep");
    SweepPlan p;
    for (const auto& s : a.sweep) p.axes.push_back(train::parse_sweep_axis(s));
    p.runs = train::sweep_grid(base, p.axes);
    if (!a.figure.empty() && !train::sweep_has_batch(p.axes))
        throw core::InputError(
            "--figure of a sweep draws the validation error against the batch size: add --sweep "
            "batch=...");
    if (!sweep_csv_path(a).empty()) check_folder(sweep_csv_path(a));
    return p;
}

int run_train_sweep(const gpu::VulkanContext& ctx, const TrainArgs& a, const SweepPlan& p) {
    const Table table(p);
    if (!a.quiet) {
        fmt::print("sweep of {} runs on {}\n", p.runs.size(), ctx.device_name());
        table.header(p);
    }
    std::vector<TrainOutcome> outcomes;
    for (const auto& run : p.runs) {
        outcomes.push_back(train_once(ctx, run.config, a.eval_every, a.steps_per_submit, false));
        outcomes.back().init.clear();  // a sweep keeps only the logs
        outcomes.back().data = {};
        if (!a.quiet) {
            table.row(run, outcomes.back());
            std::fflush(stdout);
        }
    }
    std::vector<std::pair<std::string, std::string>> files;
#ifdef NORMLAB_HAVE_FIGURE
    if (!a.figure.empty()) files.emplace_back(a.figure, sweep_figure_png(ctx, p, outcomes, a));
#endif
    if (const std::string csv = sweep_csv_path(a); !csv.empty())
        files.emplace_back(csv, train::sweep_summary_csv(p.axes, p.runs, sweep_results(outcomes)));
    if (!a.log.empty()) {
        std::string log = log_csv_header(train::sweep_keys_prefix(p.axes));
        for (std::size_t r = 0; r < outcomes.size(); ++r)
            log += log_csv_rows(outcomes[r], train::sweep_values_prefix(p.runs[r]));
        files.emplace_back(a.log, log);
    }
    for (const auto& [path, bytes] : files) io::write_file_atomic(path, bytes);
    return core::validation_status(ctx.validation_messages());
}

}  // namespace normlab
