// A TrainConfig's fields by their CLI names: parsed one at a time and written back (train_options.hpp).
#include "normlab/train/train_options.hpp"

#include "normlab/core/error.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace normlab::train {
namespace {

constexpr std::array<const char*, 19> kKeys{
    "model",   "depth", "width",     "channels", "activation", "norm", "groups",    "norm-placement", "data", "classes",
    "samples", "noise", "data-seed", "batch",    "steps",      "lr",   "optimizer", "momentum",       "seed"};

std::string bad_value(const std::string& key, const std::string& value, const char* what) {
    return key + ": '" + value + "' is not " + what;
}

int parse_int(const std::string& key, const std::string& v) {
    int out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
        throw core::InputError(bad_value(key, v, "an integer"));
    return out;
}

std::uint64_t parse_u64(const std::string& key, const std::string& v) {
    std::uint64_t out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
        throw core::InputError(bad_value(key, v, "a non-negative integer"));
    return out;
}

double parse_double(const std::string& key, const std::string& v) {
    char* end = nullptr;
    const double out = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size()) throw core::InputError(bad_value(key, v, "a number"));
    return out;
}

// The shortest of %.15g and %.17g that reads back as v.
std::string number_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

std::string train_option_keys_text() {
    std::string all;
    for (const char* k : kKeys) all += std::string(all.empty() ? "" : ", ") + k;
    return all;
}

void apply_train_option(TrainConfig& c, const std::string& key, const std::string& v) {
    const bool mlp = c.model == TrainModel::Mlp;
    if (key == "model")
        c.model = parse_train_model(v);
    else if (key == "norm")
        c.norm = parse_train_norm(v);
    else if (key == "norm-placement") {
        if (v != "before" && v != "after") throw core::InputError(bad_value(key, v, "before or after"));
        c.norm_after = v == "after";
    } else if (key == "activation")
        c.activation = parse_train_activation(v);
    else if (key == "optimizer")
        c.optimizer = parse_train_optimizer(v);
    else if (key == "data")
        c.data = v;
    else if (key == "batch")
        c.batch = parse_int(key, v);
    else if (key == "steps")
        c.steps = parse_int(key, v);
    else if (key == "classes")
        c.classes = parse_int(key, v);
    else if (key == "samples")
        c.samples = parse_int(key, v);
    else if (key == "noise")
        c.noise = parse_double(key, v);
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
            throw core::InputError(key + " is the " + (mlp ? "cnn" : "mlp") + "'s; the " + (mlp ? "mlp" : "cnn") +
                                   " has " + (mlp ? "width" : "channels"));
        (mlp ? c.width : c.channels) = parse_int(key, v);
    } else {
        throw core::InputError("unknown training option '" + key + "' (expected one of " + train_option_keys_text() +
                               ")");
    }
}

std::vector<std::pair<std::string, std::string>> train_options(const TrainConfig& c) {
    const bool mlp = c.model == TrainModel::Mlp;
    return {{"model", mlp ? "mlp" : "cnn"},
            {"depth", std::to_string(c.depth)},
            {mlp ? "width" : "channels", std::to_string(mlp ? c.width : c.channels)},
            {"activation", train_activation_name(c.activation)},
            {"norm", train_norm_name(c.norm)},
            {"groups", std::to_string(c.groups)},
            {"norm-placement", c.norm_after ? "after" : "before"},
            {"data", c.data},
            {"classes", std::to_string(c.classes)},
            {"samples", std::to_string(c.samples)},
            {"noise", number_text(c.noise)},
            {"data-seed", std::to_string(c.data_seed)},
            {"batch", std::to_string(c.batch)},
            {"steps", std::to_string(c.steps)},
            {"lr", number_text(c.lr)},
            {"optimizer", train_optimizer_name(c.optimizer)},
            {"momentum", number_text(c.momentum)},
            {"seed", std::to_string(c.seed)}};
}

bool same_data_fields(const TrainConfig& a, const TrainConfig& b) {
    return a.model == b.model && a.data == b.data && a.classes == b.classes && a.samples == b.samples &&
           a.noise == b.noise && a.data_seed == b.data_seed && a.batch == b.batch && a.steps == b.steps &&
           a.seed == b.seed;
}

}  // namespace normlab::train
