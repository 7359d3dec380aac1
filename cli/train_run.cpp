// One training run on the device and its log (train_run.hpp).
#include "train_run.hpp"

#include "normlab/ops/train_runner.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "normlab/train/train_plan.hpp"

#include <fmt/core.h>

#include <chrono>

namespace normlab {

TrainOutcome train_once(const gpu::VulkanContext& ctx, const train::TrainConfig& c, int eval_every,
                        int steps_per_submit, bool final) {
    const bool cnn = c.model == train::TrainModel::Cnn;
    TrainOutcome o;
    o.init = cnn ? train::init_cnn_params(c) : train::init_mlp_params(c);
    o.data = train::make_train_data(c);
    train::TrainPlanOptions po;
    po.max_storage_buffers = ctx.limits().maxPerStageDescriptorStorageBuffers;
    ops::TrainRunner runner(ctx, cnn ? train::plan_cnn_training(c) : train::plan_mlp_training(c, po), steps_per_submit);
    runner.upload("x_train", o.data.train.x.data(), o.data.train.x.size() * 4);
    runner.upload("y_train", o.data.train.y.data(), o.data.train.y.size() * 4);
    runner.upload("x_val", o.data.val.x.data(), o.data.val.x.size() * 4);
    runner.upload("y_val", o.data.val.y.data(), o.data.val.y.size() * 4);
    runner.upload("batches", o.data.batches.data(), o.data.batches.size() * 4);
    for (const auto& t : o.init) runner.upload(t.name, t.values.data(), t.values.size() * 4);

    const auto start = std::chrono::steady_clock::now();
    runner.submit(c.steps, eval_every, true);
    runner.finish();
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    o.log = runner.log();
    o.val = runner.val_log();
    o.evaluated.assign(static_cast<std::size_t>(c.steps), false);
    for (int t = 0; t < c.steps; ++t)
        o.evaluated[t] = t == c.steps - 1 || (eval_every > 0 && (t + 1) % eval_every == 0);
    if (final) {
        o.final = o.init;
        for (auto& t : o.final) t.values = runner.download(t.name);
    }
    return o;
}

std::string log_csv_header(const std::string& prefix_header) {
    return prefix_header + "step,train_loss,train_acc,val_loss,val_acc\n";
}

std::string log_csv_rows(const TrainOutcome& o, const std::string& prefix) {
    std::string s;
    for (std::size_t t = 0; t < o.evaluated.size(); ++t) {
        s += prefix + fmt::format("{},{:.9g},{:.9g}", t, o.log[2 * t], o.log[2 * t + 1]);
        s += o.evaluated[t] ? fmt::format(",{:.9g},{:.9g}\n", o.val[2 * t], o.val[2 * t + 1]) : std::string(",,\n");
    }
    return s;
}

}  // namespace normlab
