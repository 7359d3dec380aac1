// A sweep's grid: its axes parsed, applied to a TrainConfig and validated (train_sweep.hpp).
#include "normlab/train/train_sweep.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace normlab {
namespace {

constexpr std::array<const char*, 13> kKeys{"norm",     "placement", "activation", "optimizer", "batch",
                                            "lr",       "momentum",  "groups",     "depth",     "width",
                                            "channels", "seed",      "data-seed"};

std::string bad_value(const std::string& key, const std::string& value, const char* what) {
    return "--sweep " + key + ": '" + value + "' is not " + what;
}

int parse_int(const std::string& key, const std::string& v) {
    int out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size()) throw InputError(bad_value(key, v, "an integer"));
    return out;
}

std::uint64_t parse_u64(const std::string& key, const std::string& v) {
    std::uint64_t out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
        throw InputError(bad_value(key, v, "a non-negative integer"));
    return out;
}

double parse_double(const std::string& key, const std::string& v) {
    char* end = nullptr;
    const double out = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size()) throw InputError(bad_value(key, v, "a number"));
    return out;
}

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
        throw InputError("--sweep '" + arg + "' must look like KEY=V1,V2,... (e.g. norm=none,batch)");
    SweepAxis axis{arg.substr(0, eq), split(arg.substr(eq + 1))};
    if (std::find(kKeys.begin(), kKeys.end(), std::string_view(axis.key)) == kKeys.end())
        throw InputError("unknown --sweep key '" + axis.key + "' (expected one of " + sweep_keys_text() + ")");
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
        if (axis.values[i].empty()) throw InputError("--sweep " + axis.key + " has an empty value");
        if (std::find(axis.values.begin(), axis.values.begin() + static_cast<long>(i), axis.values[i]) !=
            axis.values.begin() + static_cast<long>(i))
            throw InputError("--sweep " + axis.key + " repeats the value '" + axis.values[i] + "'");
    }
    return axis;
}

void apply_sweep_value(TrainConfig& c, const std::string& key, const std::string& v) {
    const bool mlp = c.model == TrainModel::Mlp;
    if (key == "norm")
        c.norm = parse_train_norm(v);
    else if (key == "placement") {
        if (v != "before" && v != "after") throw InputError(bad_value(key, v, "before or after"));
        c.norm_after = v == "after";
    } else if (key == "activation")
        c.activation = parse_train_activation(v);
    else if (key == "optimizer")
        c.optimizer = parse_train_optimizer(v);
    else if (key == "batch")
        c.batch = parse_int(key, v);
    else if (key == "lr")
        c.lr = parse_double(key, v);
    else if (key == "momentum")
        c.momentum = parse_double(key, v);
    else if (key == "groups")
        c.groups = parse_int(key, v);
    else if (key == "depth")
        c.depth = parse_int(key, v);
    else if (key == "seed")
        c.seed = parse_u64(key, v);
    else if (key == "data-seed")
        c.data_seed = parse_u64(key, v);
    else if (key == "width" || key == "channels") {
        if ((key == "width") != mlp)
            throw InputError("--sweep " + key + " is the " + (mlp ? "cnn" : "mlp") + "'s; the " +
                             (mlp ? "mlp" : "cnn") + " sweeps " + (mlp ? "width" : "channels"));
        (mlp ? c.width : c.channels) = parse_int(key, v);
    } else {
        throw InputError("unknown --sweep key '" + key + "' (expected one of " + sweep_keys_text() + ")");
    }
}

std::vector<SweepRun> sweep_grid(const TrainConfig& base, const std::vector<SweepAxis>& axes) {
    long long total = 1;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        for (std::size_t k = 0; k < i; ++k)
            if (axes[k].key == axes[i].key) throw InputError("--sweep " + axes[i].key + " is given twice");
        total *= static_cast<long long>(axes[i].values.size());
        if (total > kMaxSweepRuns)
            throw InputError("the sweep has more than " + std::to_string(kMaxSweepRuns) + " runs");
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
        } catch (const InputError& e) {
            throw InputError("sweep run " + sweep_run_label(axes, run) + ": " + e.what());
        }
        runs.push_back(std::move(run));
        for (std::size_t i = axes.size(); i-- > 0;) {  // the last axis varies fastest
            if (++at[i] < axes[i].values.size()) break;
            at[i] = 0;
        }
    }
    return runs;
}

std::string sweep_run_label(const std::vector<SweepAxis>& axes, const SweepRun& run) {
    std::string s;
    for (std::size_t i = 0; i < axes.size() && i < run.values.size(); ++i)
        s += (i ? ", " : "") + axes[i].key + "=" + run.values[i];
    return s;
}

}  // namespace normlab
