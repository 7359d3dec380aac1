// The training suites' runs and comparisons on any TrainDevice (train_checks.hpp).
#include "train_checks.hpp"

#include "normlab/train/conv_layers.hpp"
#include "normlab/train/train_reference.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::test {
namespace {

train::TrainDataSet set_of(const nlohmann::json& x, const nlohmann::json& y, int features) {
    train::TrainDataSet s;
    s.x = x.get<std::vector<float>>();
    s.y = y.get<std::vector<std::int32_t>>();
    s.features = features;
    return s;
}

std::vector<float> floats(const nlohmann::json& j) {
    auto d = j.get<std::vector<double>>();
    return {d.begin(), d.end()};
}

// Worst |a − b| / max(1, |b|) over the elements not flagged by `skip`.
template <typename A>
double worst_error(const A& a, const std::vector<float>& b, const std::vector<bool>& skip) {
    double worst = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        if (skip.empty() || !skip[i])
            worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(1.0 * b[i])));
    return worst;
}

// BatchNorm with Adam is ill-conditioned in float32: a Linear bias whose gradient is zero in exact
// arithmetic (before BatchNorm, or before a ReLU that passes a whole channel) gets float noise,
// which Adam turns into steps of ±lr. The loss barely feels it; those biases, the running means
// that follow them and the eval-mode scores (which use the running means) are not compared there.
bool adam_noise(const train::TrainConfig& c) {
    return c.norm == train::TrainNorm::Batch && c.optimizer == train::TrainOptimizer::Adam;
}
bool noise_sensitive(const train::TrainConfig& c, const std::string& name) {
    return adam_noise(c) && name.starts_with("layers.") &&
           (name.ends_with("linear.bias") || name.ends_with("running_mean"));
}

}  // namespace

// A conv bias right before a norm that subtracts each channel's mean (batch, instance; group: its channels
// are whole) has an exact gradient of 0: under Adam, whose first steps move a parameter by about lr whatever
// its gradient's size, it follows the sign of rounding noise in any run, PyTorch's float64 included.
bool cnn_noise_bound(const train::TrainConfig& c, const std::string& name) {
    const bool centred =
        c.norm == train::TrainNorm::Batch || c.norm == train::TrainNorm::Instance || c.norm == train::TrainNorm::Group;
    return centred && !c.norm_after && c.optimizer == train::TrainOptimizer::Adam && name.ends_with("conv.bias");
}

void upload_all(train::TrainDevice& r, const std::vector<train::TrainTensor>& init, const train::TrainData& data) {
    auto up_u32 = [&](const char* name, const std::vector<std::int32_t>& v) { r.upload(name, v.data(), v.size() * 4); };
    r.upload("x_train", data.train.x.data(), data.train.x.size() * 4);
    r.upload("x_val", data.val.x.data(), data.val.x.size() * 4);
    up_u32("y_train", data.train.y);
    up_u32("y_val", data.val.y);
    up_u32("batches", data.batches);
    for (const auto& t : init) r.upload(t.name, t.values.data(), t.values.size() * 4);
}

TrainRun run_train(train::TrainDevice& device, const train::TrainConfig& c, const std::vector<train::TrainTensor>& init,
                   const train::TrainData& data) {
    upload_all(device, init, data);
    device.submit(c.steps, 0, true);
    device.finish();
    TrainRun out{device.log(), device.val_log(), {}};
    for (const auto& t : init) out.params[t.name] = device.download(t.name);
    return out;
}

double rel_err(double a, double b, double floor) { return std::abs(a - b) / std::max(std::abs(b), floor); }

train::TrainConfig small_train_config(train::TrainNorm norm, bool after, train::TrainActivation act,
                                      train::TrainOptimizer opt) {
    train::TrainConfig c;
    c.depth = 2;
    c.width = 8;
    c.norm = norm;
    c.groups = 2;
    c.norm_after = after;
    c.activation = act;
    c.optimizer = opt;
    c.lr = opt == train::TrainOptimizer::Adam ? 0.01 : 0.1;
    c.samples = 64;
    c.batch = 16;
    c.steps = 6;
    c.classes = 3;
    c.data = "spirals";
    c.seed = 7;
    c.data_seed = 3;
    return c;
}

std::vector<std::string> check_against_reference(const train::TrainConfig& c, const TrainRun& dev) {
    Failures f;
    const auto data = train::make_train_data(c);
    train::MlpReference ref(c, train::init_mlp_params(c));
    for (int t = 0; t < c.steps; ++t) {
        std::vector<std::int32_t> batch(data.batches.begin() + t * c.batch, data.batches.begin() + (t + 1) * c.batch);
        const auto s = ref.step(data.train, batch);
        const double loss_tol = adam_noise(c) ? 1e-3 : 1e-4;
        NL_CHECK(f, rel_err(dev.log[2 * t], s.loss) < loss_tol,
                 "step " << t << ": loss " << dev.log[2 * t] << ", reference " << s.loss);
        NL_CHECK(f, std::abs(dev.log[2 * t + 1] - s.accuracy) < 1e-6,
                 "step " << t << ": accuracy " << dev.log[2 * t + 1] << ", reference " << s.accuracy);
    }
    const auto v = ref.evaluate(data.val);
    const int last = c.steps - 1;
    if (!adam_noise(c)) {
        NL_CHECK(f, rel_err(dev.val_log[2 * last], v.loss) < 1e-4,
                 "validation loss " << dev.val_log[2 * last] << ", reference " << v.loss);
        NL_CHECK(f, std::abs(dev.val_log[2 * last + 1] - v.accuracy) < 1e-6,
                 "validation accuracy " << dev.val_log[2 * last + 1] << ", reference " << v.accuracy);
    }
    for (const auto& [name, values] : dev.params) {
        if (noise_sensitive(c, name)) continue;
        const auto& r = ref.tensor(name);
        const auto noise = ref.noise_bound(name);
        double worst = 0;
        std::size_t at = 0;
        for (std::size_t i = 0; i < r.size(); ++i)
            if ((noise.empty() || !noise[i]) && std::abs(values[i] - r[i]) > worst)
                worst = std::abs(values[i] - r[at = i]);
        // the bound for the final parameters (Adam + BN after a ReLU drifts ~4e-4)
        NL_CHECK(f, worst < 1e-3, name << "[" << at << "]: " << values[at] << ", reference " << r[at]);
    }
    return f.lines();
}

train::TrainConfig golden_cli_config(const nlohmann::json& k) {
    train::TrainConfig c;
    c.model = k.contains("model") ? train::parse_train_model(k.at("model")) : train::TrainModel::Mlp;
    c.depth = k.at("depth");
    if (k.contains("width")) c.width = k.at("width");
    if (k.contains("channels")) c.channels = k.at("channels");
    c.activation = train::parse_train_activation(k.at("activation"));
    c.norm = train::parse_train_norm(k.at("norm"));
    c.groups = k.at("groups");
    c.norm_after = k.at("placement") == "after";
    c.data = k.at("data");
    c.classes = k.at("classes");
    c.samples = k.at("samples");
    c.noise = k.at("noise");
    c.data_seed = k.at("data_seed");
    c.batch = k.at("batch");
    c.steps = k.at("steps");
    c.lr = k.at("lr");
    c.optimizer = train::parse_train_optimizer(k.at("optimizer"));
    c.momentum = k.at("momentum");
    c.seed = k.at("seed");
    train::validate_train_config(c);
    return c;
}

MlpGolden mlp_golden(const nlohmann::json& j) {
    const train::TrainConfig c = golden_cli_config(j.at("config"));
    const auto& d = j.at("data");
    MlpGolden g{c,
                {set_of(d.at("x_train"), d.at("y_train"), 2), set_of(d.at("x_val"), d.at("y_val"), 2),
                 d.at("batches").get<std::vector<std::int32_t>>()},
                train::init_mlp_params(c)};
    for (auto& t : g.init) t.values = j.at("init").at(t.name).get<std::vector<float>>();
    return g;
}

std::vector<std::string> check_mlp_golden(const nlohmann::json& j, const MlpGolden& g, const TrainRun& dev) {
    Failures f;
    const train::TrainConfig& c = g.config;
    const auto drawn = train::make_train_data(c);  // engine/train still draws what PyTorch trained on
    NL_CHECK(f, drawn.train.x == g.data.train.x && drawn.train.y == g.data.train.y && drawn.batches == g.data.batches,
             "engine/train draws other data than the golden run's");
    for (const auto& t : train::init_mlp_params(c))
        NL_CHECK(f, t.values == j.at("init").at(t.name).get<std::vector<float>>(),
                 "engine/train draws another initial " << t.name << " than the golden run's");
    train::MlpReference ref(c, g.init);
    const auto loss = j.at("loss").get<std::vector<double>>();
    for (int t = 0; t < c.steps; ++t) {
        const std::vector<std::int32_t> batch(g.data.batches.begin() + t * c.batch,
                                              g.data.batches.begin() + (t + 1) * c.batch);
        const auto s = ref.step(g.data.train, batch);
        NL_CHECK(f, rel_err(dev.log[2 * t], loss[t]) < 1e-4 && rel_err(s.loss, loss[t]) < 1e-4,
                 "step " << t << ": golden " << loss[t] << ", device " << dev.log[2 * t] << ", reference " << s.loss);
    }
    bool noisy = false;
    for (const auto& [pname, values] : dev.params) {
        const auto golden = j.at("final").at(pname).get<std::vector<float>>();
        const auto skip = ref.noise_bound(pname);
        noisy = noisy || std::find(skip.begin(), skip.end(), true) != skip.end();
        const double e_dev = worst_error(values, golden, skip), e_ref = worst_error(ref.tensor(pname), golden, skip);
        NL_CHECK(f, e_dev < 1e-3 && e_ref < 1e-3, pname << ": device error " << e_dev << ", reference " << e_ref);
    }
    if (!noisy) {  // the eval-mode forward uses the running means: not where they follow noise
        const int last = c.steps - 1;
        const double val_loss = j.at("val_loss");
        const double ref_val = ref.evaluate(g.data.val).loss;
        NL_CHECK(f, rel_err(dev.val_log[2 * last], val_loss) < 1e-4 && rel_err(ref_val, val_loss) < 1e-4,
                 "validation loss: golden " << val_loss << ", device " << dev.val_log[2 * last] << ", reference "
                                            << ref_val);
    }
    return f.lines();
}

train::TrainData cnn_golden_data(const nlohmann::json& all) {
    const auto& d = all.at("data");
    train::TrainData data;
    data.train = {floats(d.at("x_train")), d.at("y_train").get<std::vector<std::int32_t>>(), 256};
    data.val = {floats(d.at("x_val")), d.at("y_val").get<std::vector<std::int32_t>>(), 256};
    data.batches = d.at("batches").get<std::vector<std::int32_t>>();
    return data;
}

train::TrainConfig cnn_golden_config(const nlohmann::json& all, const nlohmann::json& run) {
    train::TrainConfig c;
    c.model = train::TrainModel::Cnn;
    c.data = "textures";
    c.depth = all.at("depth");
    c.channels = all.at("channels");
    c.classes = all.at("classes");
    c.batch = all.at("batch");
    c.steps = all.at("steps");
    c.samples = all.at("samples");
    c.norm = train::parse_train_norm(run.at("norm"));
    c.activation = train::parse_train_activation(run.at("activation"));
    c.optimizer = train::parse_train_optimizer(run.at("optimizer"));
    c.lr = run.at("lr");
    c.momentum = run.at("momentum");
    c.groups = run.at("groups");
    c.norm_after = run.value("placement", std::string("before")) == "after";
    train::validate_train_config(c);
    return c;
}

std::vector<train::TrainTensor> cnn_golden_init(const train::TrainConfig& c, const nlohmann::json& run) {
    auto init = train::init_cnn_params(c);
    for (auto& t : init) t.values = floats(run.at("init").at(t.name));
    return init;
}

std::vector<std::string> check_cnn_run(const nlohmann::json& run, const train::TrainConfig& c,
                                       const std::vector<train::TrainTensor>& init, const TrainRun& dev) {
    Failures f;
    NL_CHECK(f, init.size() == run.at("init").size(),
             init.size() << " parameters, the golden run has " << run.at("init").size());
    for (int s = 0; s < c.steps; ++s) {
        const double loss = run.at("losses")[s], acc = run.at("accs")[s];
        NL_CHECK(f, rel_err(dev.log[2 * s], loss) < 1e-4,
                 "step " << s << ": loss " << dev.log[2 * s] << ", golden " << loss);
        NL_CHECK(f, std::abs(dev.log[2 * s + 1] - acc) < 1e-6,
                 "step " << s << ": accuracy " << dev.log[2 * s + 1] << ", golden " << acc);
    }
    const double val = run.at("val_loss");
    NL_CHECK(f, rel_err(dev.val_log[2 * (c.steps - 1)], val) < 1e-4,
             "validation loss " << dev.val_log[2 * (c.steps - 1)] << ", golden " << val);
    for (const auto& t : init) {
        const auto& got = dev.params.at(t.name);
        const auto want = run.at("final").at(t.name).get<std::vector<double>>();
        NL_CHECK(f, got.size() == want.size() && t.values.size() == want.size(), t.name << ": sizes differ");
        if (got.size() != want.size() || t.values.size() != want.size()) continue;
        if (cnn_noise_bound(c, t.name)) {  // Adam moves it by at most about lr a step, whatever the sign
            for (std::size_t i = 0; i < got.size(); ++i)
                NL_CHECK(f, std::abs(got[i] - t.values[i]) <= 1.01 * c.lr * c.steps,
                         t.name << "[" << i << "] moved " << got[i] - t.values[i]);
            continue;
        }
        double worst = 0;
        for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, rel_err(got[i], want[i], 1e-2));
        NL_CHECK(f, worst < 1e-3, t.name << ": worst error " << worst);
    }
    return f.lines();
}

}  // namespace normlab::test
