// normlab-cli train (train_command.hpp): options → TrainConfig (or a sweep's grid, train_sweep.cpp) → one
// run on the device (train_run.cpp); the log, data, parameters, figure and PyTorch script are written after
// the run (a bad option: one line, exit 2, nothing written).
#include "train_command.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/train/torch_script.hpp"
#include "normlab/train/train_sweep.hpp"
#include "state_options.hpp"
#include "train_figure.hpp"
#include "train_run.hpp"
#include "train_sweep.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>
#include <unistd.h>

namespace normlab {
namespace {

void add_options(CLI::App& app, TrainArgs& a, train::TrainConfig& c) {
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
    app.add_option("--pytorch-script", a.pytorch_script,
                   "write a Python script that replays the run in PyTorch from --save-init and --save-data");
    app.add_option(
        "--sweep", a.sweep,
        "KEY=V1,V2,...: run the grid over KEY's values (repeatable; keys: " + train::sweep_keys_text() + ")");
    app.add_option("--sweep-csv", a.sweep_csv, "the sweep's summary CSV (default: NAME-sweep.csv beside --log)");
#ifdef NORMLAB_HAVE_FIGURE
    app.add_option("--figure", a.figure,
                   "PNG: the loss and accuracy curves, or a sweep's validation error against batch size");
    app.add_option("--figure-size", a.figure_size, "figure size WxH in pixels (default 1400x700)");
#endif
}

// The options' names parsed into c; validated unless a sweep sets keys (then each run is).
train::TrainConfig resolve(TrainArgs& a, train::TrainConfig c) {
    c.model = train::parse_train_model(a.model);
    c.activation = train::parse_train_activation(a.activation);
    c.norm = train::parse_train_norm(a.norm);
    c.optimizer = train::parse_train_optimizer(a.optimizer);
    if (a.placement != "before" && a.placement != "after")
        throw core::InputError("unknown --norm-placement '" + a.placement + "' (expected before or after)");
    c.norm_after = a.placement == "after";
    if (a.sweep.empty()) validate_train_config(c);
    if (a.eval_every < 0) throw core::InputError("--eval-every must not be negative");
    if (a.steps_per_submit < 1 || a.steps_per_submit > 1024)
        throw core::InputError("--steps-per-submit must be between 1 and 1024");
    if (!a.sweep_csv.empty() && a.sweep.empty()) throw core::InputError("--sweep-csv needs --sweep");
    if (!a.pytorch_script.empty() && a.sweep.empty() && (a.save_init.empty() || a.save_data.empty()))
        throw core::InputError("--pytorch-script loads the run's files: give --save-init DIR and --save-data DIR");
#ifdef NORMLAB_HAVE_FIGURE
    if (!a.figure.empty()) train_figure_size(a.figure_size);
#endif
    for (const std::string* path :
         {&a.save_init, &a.save_data, &a.save_final, &a.log, &a.figure, &a.pytorch_script, &a.sweep_csv}) {
        if (path->empty()) continue;
        const bool dir = path == &a.save_init || path == &a.save_data || path == &a.save_final;
        std::filesystem::path p(*path);
        std::string parent = dir && std::filesystem::is_directory(p) ? p.string() : p.parent_path().string();
        if (parent.empty()) parent = ".";
        if (::access(parent.c_str(), W_OK) != 0)
            throw core::InputError("cannot write " + *path + ": the folder " + parent + " is missing or not writable");
        if (dir && std::filesystem::exists(p) && !std::filesystem::is_directory(p))
            throw core::InputError("cannot write into " + *path + ": it is a file, not a folder");
    }
    return c;
}

using Files = std::vector<std::pair<std::string, std::string>>;

void add_tensors(Files& files, const std::string& dir, const std::vector<train::TrainTensor>& ts,
                 std::int64_t batches) {
    for (const auto& t : ts) {
        files.emplace_back(dir + "/" + t.name + ".npy", io::npy_bytes_f32(t.shape, t.values.data()));
        const auto pos = t.name.find(".running_mean");
        if (pos != std::string::npos) {  // BatchNorm's counter, as in PyTorch's state_dict
            files.emplace_back(dir + "/" + t.name.substr(0, pos) + ".num_batches_tracked.npy",
                               io::npy_bytes_i64({}, &batches));
        }
    }
}

void add_data(Files& files, const std::string& dir, const train::TrainConfig& c, const train::TrainData& d) {
    auto labels = [](const std::vector<std::int32_t>& y) { return std::vector<std::int64_t>(y.begin(), y.end()); };
    const auto ytr = labels(d.train.y), yv = labels(d.val.y);
    const std::int64_t n = d.train.samples(), nv = d.val.samples();
    auto shape = [&](std::int64_t m) {  // N×2 points or N×1×16×16 images
        return d.train.features == 2 ? std::vector<std::int64_t>{m, 2} : std::vector<std::int64_t>{m, 1, 16, 16};
    };
    files.emplace_back(dir + "/x_train.npy", io::npy_bytes_f32(shape(n), d.train.x.data()));
    files.emplace_back(dir + "/y_train.npy", io::npy_bytes_i64({n}, ytr.data()));
    files.emplace_back(dir + "/x_val.npy", io::npy_bytes_f32(shape(nv), d.val.x.data()));
    files.emplace_back(dir + "/y_val.npy", io::npy_bytes_i64({nv}, yv.data()));
    files.emplace_back(dir + "/batches.npy", io::npy_bytes_i32({c.steps, c.batch}, d.batches.data()));
}

// `target` as the script at `script` finds it: relative to the script's folder where possible.
std::string relative_to_script(const std::string& target, const std::string& script) {
    const auto abs = [](const std::string& p) { return std::filesystem::absolute(p).lexically_normal(); };
    const std::filesystem::path rel = abs(target).lexically_relative(abs(script).parent_path());
    return rel.empty() ? abs(target).string() : rel.string();
}

std::string script_text(const train::TrainConfig& c, const TrainArgs& a) {
    train::TorchScriptPaths paths{relative_to_script(a.save_init, a.pytorch_script),
                                  relative_to_script(a.save_data, a.pytorch_script),
                                  a.log.empty() ? std::string() : relative_to_script(a.log, a.pytorch_script)};
    return train::pytorch_script(c, paths);
}

int run_single(const gpu::VulkanContext& ctx, const train::TrainConfig& c, const TrainArgs& a) {
    const TrainOutcome o = train_once(ctx, c, a.eval_every, a.steps_per_submit, !a.save_final.empty());
    Files files;
#ifdef NORMLAB_HAVE_FIGURE
    if (!a.figure.empty()) files.emplace_back(a.figure, run_figure_png(ctx, c, o, a));
#endif
    if (!a.save_init.empty()) add_tensors(files, a.save_init, o.init, 0);
    if (!a.save_data.empty()) add_data(files, a.save_data, c, o.data);
    if (!a.save_final.empty()) add_tensors(files, a.save_final, o.final, c.steps);
    if (!a.log.empty()) files.emplace_back(a.log, log_csv_header() + log_csv_rows(o));
    if (!a.pytorch_script.empty()) files.emplace_back(a.pytorch_script, script_text(c, a));
    for (const std::string* dir : {&a.save_init, &a.save_data, &a.save_final})
        if (!dir->empty()) std::filesystem::create_directories(*dir);
    for (const auto& [path, bytes] : files) io::write_file_atomic(path, bytes);

    const int last = c.steps - 1;
    if (!a.quiet)
        fmt::print(
            "{}: {:.3f} s ({:.1f} steps/s) on {}; last step loss {:.4f} acc {:.3f}, validation "
            "loss {:.4f} acc {:.3f}\n",
            describe_run(c), o.seconds, o.steps_per_second(), ctx.device_name(), o.log[2 * last], o.log[2 * last + 1],
            o.val[2 * last], o.val[2 * last + 1]);
    if (a.bench) fmt::print("bench: {:.1f} steps/s\n", o.steps_per_second());
    return core::validation_status(ctx.validation_messages());
}

}  // namespace

int run_train_command(int argc, char** argv) {
    CLI::App app{"normlab-cli train: a small network trained on the Vulkan device, step by step as PyTorch"};
    TrainArgs a;
    train::TrainConfig base;
    add_options(app, a, base);
    if (auto help = parse_command_line(app, argc, argv)) return *help;
    const train::TrainConfig c = resolve(a, base);
    const SweepPlan plan = a.sweep.empty() ? SweepPlan{} : plan_sweep(a, c);

    gpu::ContextOptions copt = gpu::ContextOptions::from_env();
    if (!a.device.empty()) copt.device = a.device;
    if (!a.figure.empty()) copt.need_graphics = true;  // the figure is drawn with the same queue
    gpu::VulkanContext ctx(copt);
    return a.sweep.empty() ? run_single(ctx, c, a) : run_train_sweep(ctx, a, plan);
}

}  // namespace normlab
