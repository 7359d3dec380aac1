// normlab-cli train (train_command.hpp): options → TrainConfig → data, initial parameters, program;
// the runner replays the recorded step; the log, data and parameters are written after the run (a bad
// option: one line, exit 2, nothing written).
#include "train_command.hpp"

#include "normlab/core/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/core/npy.hpp"
#include "normlab/ops/train_runner.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "normlab/train/train_plan.hpp"
#include "state_options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <unistd.h>

namespace normlab {
namespace {

struct TrainArgs {
    std::string model = "mlp", activation = "relu", norm = "none", placement = "before", optimizer = "sgd";
    std::string save_init, save_data, save_final, log, device;
    int eval_every = 10, steps_per_submit = 16;
    bool bench = false, quiet = false;
};

void add_options(CLI::App& app, TrainArgs& a, TrainConfig& c) {
    app.add_option("--model", a.model, "mlp | cnn (the cnn takes --data textures)");
    app.add_option("--depth", c.depth, "hidden layers L (default 2)");
    app.add_option("--width", c.width, "mlp: features per hidden layer W (default 32)");
    app.add_option("--channels", c.channels, "cnn: channels per conv layer C");
    app.add_option("--activation", a.activation, "relu | tanh | sigmoid (default relu)");
    app.add_option("--norm", a.norm, "none | batch | layer | instance | group | rms (default none)");
    app.add_option("--groups", c.groups, "GroupNorm's G (default 1)");
    app.add_option("--norm-placement", a.placement,
                   "before (Linear → Norm → Act, default) | after (Linear → Act → Norm)");
    app.add_option("--data", c.data, "spirals | circles | xor | blobs (mlp; default spirals) | textures (cnn)");
    app.add_option("--classes", c.classes, "K, 2–4 (the cnn: 2–6; default 2)");
    app.add_option("--samples", c.samples, "training samples N (default 512; validation: N/4, at least 16)");
    app.add_option("--noise", c.noise, "the points' Gaussian noise σ (default 0.1)");
    app.add_option("--data-seed", c.data_seed, "seed of the data and the batch order (default 0)");
    app.add_option("--batch", c.batch, "batch size B (default 32)");
    app.add_option("--steps", c.steps, "training steps T (default 100)");
    app.add_option("--lr", c.lr, "learning rate (default 0.01)");
    app.add_option("--optimizer", a.optimizer, "sgd | adam (default sgd)");
    app.add_option("--momentum", c.momentum, "SGD's momentum (default 0.9)");
    app.add_option("--seed", c.seed, "seed of the initial parameters (default 0)");
    app.add_option("--save-init", a.save_init, "write the initial parameters and buffers as DIR/NAME.npy");
    app.add_option("--save-data", a.save_data, "write x_train, y_train, x_val, y_val and batches .npy into DIR");
    app.add_option("--save-final", a.save_final, "write the final parameters and buffers as DIR/NAME.npy");
    app.add_option("--log", a.log, "write step,train_loss,train_acc,val_loss,val_acc as CSV");
    app.add_option("--eval-every", a.eval_every,
                   "evaluate the validation set after every N-th step and the last "
                   "(default 10; 0: after the last only)");
    app.add_option("--steps-per-submit", a.steps_per_submit, "steps recorded in one command buffer (default 16)");
    app.add_option("--device", a.device, "Vulkan device index or name substring (also NORMLAB_DEVICE)");
    app.add_flag("--bench", a.bench, "print the device's steps per second (setup and compilation excluded)");
    app.add_flag("-q,--quiet", a.quiet, "print nothing on success");
}

TrainConfig resolve(TrainArgs& a, TrainConfig c) {
    c.model = parse_train_model(a.model);
    c.activation = parse_train_activation(a.activation);
    c.norm = parse_train_norm(a.norm);
    c.optimizer = parse_train_optimizer(a.optimizer);
    if (a.placement != "before" && a.placement != "after")
        throw InputError("unknown --norm-placement '" + a.placement + "' (expected before or after)");
    c.norm_after = a.placement == "after";
    validate_train_config(c);
    if (a.eval_every < 0) throw InputError("--eval-every must not be negative");
    if (a.steps_per_submit < 1 || a.steps_per_submit > 1024)
        throw InputError("--steps-per-submit must be between 1 and 1024");
    for (const std::string* path : {&a.save_init, &a.save_data, &a.save_final, &a.log}) {
        if (path->empty()) continue;
        const bool dir = path != &a.log;
        std::filesystem::path p(*path);
        std::string parent = dir && std::filesystem::is_directory(p) ? p.string() : p.parent_path().string();
        if (parent.empty()) parent = ".";
        if (::access(parent.c_str(), W_OK) != 0)
            throw InputError("cannot write " + *path + ": the folder " + parent + " is missing or not writable");
        if (dir && std::filesystem::exists(p) && !std::filesystem::is_directory(p))
            throw InputError("cannot write into " + *path + ": it is a file, not a folder");
    }
    return c;
}

using Files = std::vector<std::pair<std::string, std::string>>;

void add_tensors(Files& files, const std::string& dir, const std::vector<TrainTensor>& ts, std::int64_t batches) {
    for (const auto& t : ts) {
        files.emplace_back(dir + "/" + t.name + ".npy", npy_bytes_f32(t.shape, t.values.data()));
        const auto pos = t.name.find(".running_mean");
        if (pos != std::string::npos) {  // BatchNorm's counter, as in PyTorch's state_dict
            files.emplace_back(dir + "/" + t.name.substr(0, pos) + ".num_batches_tracked.npy",
                               npy_bytes_i64({}, &batches));
        }
    }
}

void add_data(Files& files, const std::string& dir, const TrainConfig& c, const TrainData& d) {
    auto labels = [](const std::vector<std::int32_t>& y) { return std::vector<std::int64_t>(y.begin(), y.end()); };
    const auto ytr = labels(d.train.y), yv = labels(d.val.y);
    const std::int64_t n = d.train.samples(), nv = d.val.samples();
    auto shape = [&](std::int64_t m) {  // N×2 points or N×1×16×16 images
        return d.train.features == 2 ? std::vector<std::int64_t>{m, 2} : std::vector<std::int64_t>{m, 1, 16, 16};
    };
    files.emplace_back(dir + "/x_train.npy", npy_bytes_f32(shape(n), d.train.x.data()));
    files.emplace_back(dir + "/y_train.npy", npy_bytes_i64({n}, ytr.data()));
    files.emplace_back(dir + "/x_val.npy", npy_bytes_f32(shape(nv), d.val.x.data()));
    files.emplace_back(dir + "/y_val.npy", npy_bytes_i64({nv}, yv.data()));
    files.emplace_back(dir + "/batches.npy", npy_bytes_i32({c.steps, c.batch}, d.batches.data()));
}

std::string log_csv(const std::vector<float>& log, const std::vector<float>& val, const std::vector<bool>& evaluated) {
    std::string s = "step,train_loss,train_acc,val_loss,val_acc\n";
    for (std::size_t t = 0; t < evaluated.size(); ++t) {
        s += fmt::format("{},{:.9g},{:.9g}", t, log[2 * t], log[2 * t + 1]);
        s += evaluated[t] ? fmt::format(",{:.9g},{:.9g}\n", val[2 * t], val[2 * t + 1]) : std::string(",,\n");
    }
    return s;
}

}  // namespace

int run_train_command(int argc, char** argv) {
    CLI::App app{"normlab-cli train: a small network trained on the Vulkan device, step by step as PyTorch"};
    TrainArgs a;
    TrainConfig base;
    add_options(app, a, base);
    if (auto help = parse_command_line(app, argc, argv)) return *help;
    const TrainConfig c = resolve(a, base);

    ContextOptions copt = ContextOptions::from_env();
    if (!a.device.empty()) copt.device = a.device;
    VulkanContext ctx(copt);
    const bool cnn = c.model == TrainModel::Cnn;
    const auto init = cnn ? init_cnn_params(c) : init_mlp_params(c);
    const auto data = make_train_data(c);
    TrainRunner runner(ctx, cnn ? plan_cnn_training(c) : plan_mlp_training(c), a.steps_per_submit);
    runner.upload("x_train", data.train.x.data(), data.train.x.size() * 4);
    runner.upload("y_train", data.train.y.data(), data.train.y.size() * 4);
    runner.upload("x_val", data.val.x.data(), data.val.x.size() * 4);
    runner.upload("y_val", data.val.y.data(), data.val.y.size() * 4);
    runner.upload("batches", data.batches.data(), data.batches.size() * 4);
    for (const auto& t : init) runner.upload(t.name, t.values.data(), t.values.size() * 4);

    const auto start = std::chrono::steady_clock::now();
    runner.submit(c.steps, a.eval_every, true);
    runner.finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto log = runner.log(), val = runner.val_log();
    std::vector<bool> evaluated(c.steps, false);
    for (int t = 0; t < c.steps; ++t)
        evaluated[t] = t == c.steps - 1 || (a.eval_every > 0 && (t + 1) % a.eval_every == 0);

    Files files;
    if (!a.save_init.empty()) add_tensors(files, a.save_init, init, 0);
    if (!a.save_data.empty()) add_data(files, a.save_data, c, data);
    if (!a.save_final.empty()) {
        auto final = init;
        for (auto& t : final) t.values = runner.download(t.name);
        add_tensors(files, a.save_final, final, c.steps);
    }
    if (!a.log.empty()) files.emplace_back(a.log, log_csv(log, val, evaluated));
    for (const std::string* dir : {&a.save_init, &a.save_data, &a.save_final})
        if (!dir->empty()) std::filesystem::create_directories(*dir);
    for (const auto& [path, bytes] : files) write_file_atomic(path, bytes);

    const int last = c.steps - 1;
    if (!a.quiet)
        fmt::print(
            "{} {}×{} {} norm {} ({}), {} {} lr {}: {} steps in {:.3f} s ({:.1f} steps/s) on {}; "
            "last step loss {:.4f} acc {:.3f}, validation loss {:.4f} acc {:.3f}\n",
            cnn ? "cnn" : "mlp", c.depth, cnn ? c.channels : c.width, train_activation_name(c.activation),
            train_norm_name(c.norm), c.norm_after ? "after" : "before", c.data, train_optimizer_name(c.optimizer), c.lr,
            c.steps, seconds, c.steps / seconds, ctx.device_name(), log[2 * last], log[2 * last + 1], val[2 * last],
            val[2 * last + 1]);
    if (a.bench) fmt::print("bench: {:.1f} steps/s\n", c.steps / seconds);
    return validation_status(ctx.validation_messages());
}

}  // namespace normlab
