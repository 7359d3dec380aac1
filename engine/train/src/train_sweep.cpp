// A sweep's grid: its axes parsed, applied to a TrainConfig and validated (train_sweep.hpp).
#include "normlab/train/train_sweep.hpp"

#include "normlab/core/error.hpp"
#include "normlab/train/train_options.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace normlab::train {
namespace {

constexpr std::array<const char*, 13> kKeys{"norm",     "placement", "activation", "optimizer", "batch",
                                            "lr",       "momentum",  "groups",     "depth",     "width",
                                            "channels", "seed",      "data-seed"};

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = s.find(',', start);
        out.push_back(s.substr(start, comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

}  // namespace

std::string sweep_keys_text() {
    std::string all;
    for (const char* k : kKeys) all += std::string(all.empty() ? "" : ", ") + k;
    return all;
}

SweepAxis parse_sweep_axis(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos)
        throw core::InputError("--sweep '" + arg + "' must look like KEY=V1,V2,... (e.g. norm=none,batch)");
    SweepAxis axis{arg.substr(0, eq), split(arg.substr(eq + 1))};
    if (std::find(kKeys.begin(), kKeys.end(), std::string_view(axis.key)) == kKeys.end())
        throw core::InputError("unknown --sweep key '" + axis.key + "' (expected one of " + sweep_keys_text() + ")");
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
        if (axis.values[i].empty()) throw core::InputError("--sweep " + axis.key + " has an empty value");
        if (std::find(axis.values.begin(), axis.values.begin() + static_cast<long>(i), axis.values[i]) !=
            axis.values.begin() + static_cast<long>(i))
            throw core::InputError("--sweep " + axis.key + " repeats the value '" + axis.values[i] + "'");
    }
    return axis;
}

void apply_sweep_value(TrainConfig& c, const std::string& key, const std::string& v) {
    if (std::find(kKeys.begin(), kKeys.end(), std::string_view(key)) == kKeys.end())
        throw core::InputError("unknown --sweep key '" + key + "' (expected one of " + sweep_keys_text() + ")");
    const bool mlp = c.model == TrainModel::Mlp;
    if ((key == "width" || key == "channels") && (key == "width") != mlp)
        throw core::InputError("--sweep " + key + " is the " + (mlp ? "cnn" : "mlp") + "'s; the " +
                               (mlp ? "mlp" : "cnn") + " sweeps " + (mlp ? "width" : "channels"));
    try {  // the one parser of a named field (train_options.hpp); "placement" is the CLI's --norm-placement
        apply_train_option(c, key == "placement" ? "norm-placement" : key, v);
    } catch (const core::InputError& e) {
        throw core::InputError(std::string("--sweep ") + e.what());
    }
}

std::vector<SweepRun> sweep_grid(const TrainConfig& base, const std::vector<SweepAxis>& axes) {
    long long total = 1;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        for (std::size_t k = 0; k < i; ++k)
            if (axes[k].key == axes[i].key) throw core::InputError("--sweep " + axes[i].key + " is given twice");
        total *= static_cast<long long>(axes[i].values.size());
        if (total > kMaxSweepRuns)
            throw core::InputError("the sweep has more than " + std::to_string(kMaxSweepRuns) + " runs");
    }
    std::vector<SweepRun> runs;
    std::vector<std::size_t> at(axes.size(), 0);
    for (long long r = 0; r < total; ++r) {
        SweepRun run{base, {}};
        for (std::size_t i = 0; i < axes.size(); ++i) {
            run.values.push_back(axes[i].values[at[i]]);
            apply_sweep_value(run.config, axes[i].key, axes[i].values[at[i]]);
        }
        try {
            validate_train_config(run.config);
        } catch (const core::InputError& e) {
            throw core::InputError("sweep run " + sweep_run_label(axes, run) + ": " + e.what());
        }
        runs.push_back(std::move(run));
        for (std::size_t i = axes.size(); i-- > 0;) {  // the last axis varies fastest
            if (++at[i] < axes[i].values.size()) break;
            at[i] = 0;
        }
    }
    return runs;
}

std::vector<SweepAxis> sweep_axes(std::vector<std::string> norms, const std::string& batches, const std::string& lrs) {
    std::vector<SweepAxis> axes;
    const auto rank = [](const std::string& n) {  // an unknown name last: sweep_grid refuses it
        for (std::size_t i = 0; i < kViewNorms.size(); ++i)
            if (n == train_norm_name(kViewNorms[i])) return i;
        return kViewNorms.size();
    };
    std::stable_sort(norms.begin(), norms.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    if (!norms.empty()) {
        std::string list;
        for (const auto& n : norms) list += (list.empty() ? "" : ",") + n;
        axes.push_back(parse_sweep_axis("norm=" + list));
    }
    const auto add = [&](const char* key, std::string s) {
        s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
        if (s.size() > kSweepListChars)
            throw core::InputError(std::string("--sweep ") + key + " is longer than the Sweep tab's " +
                                   std::to_string(kSweepListChars) + " characters");
        if (!s.empty()) axes.push_back(parse_sweep_axis(key + ("=" + s)));
    };
    add("batch", batches);
    add("lr", lrs);
    if (axes.empty()) throw core::InputError("a sweep needs a norm checked, batch sizes or learning rates");
    return axes;
}

int default_train_groups(const TrainConfig& c) {
    const int w = c.model == TrainModel::Mlp ? c.width : c.channels;
    for (int g = 4; g > 1; --g)
        if (w % g == 0) return g;
    return 1;
}

TrainConfig sweep_base(TrainConfig c) {
    if (c.norm != TrainNorm::Group) c.groups = default_train_groups(c);
    return c;
}

std::string sweep_run_label(const std::vector<SweepAxis>& axes, const SweepRun& run) {
    std::string s;
    for (std::size_t i = 0; i < axes.size() && i < run.values.size(); ++i)
        s += (i ? ", " : "") + axes[i].key + "=" + run.values[i];
    return s;
}

}  // namespace normlab::train
