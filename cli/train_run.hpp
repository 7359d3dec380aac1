// One training run on the Vulkan device as normlab-cli train does it (train_command.cpp, train_sweep.cpp):
// the data and initial parameters from the config, the program on the TrainRunner, the logs and the steps
// per second; its log as CSV rows; and the options both the single run and the sweep read.
#pragma once
#include "normlab/gpu/vk_context.hpp"
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_params.hpp"

#include <string>
#include <vector>

namespace normlab {

struct TrainArgs {
    std::string model = "mlp", activation = "relu", norm = "none", placement = "before", optimizer = "sgd";
    std::string save_init, save_data, save_final, log, device, pytorch_script;
    std::vector<std::string> sweep;
    std::string sweep_csv, figure, figure_size = "1400x700";
    int eval_every = 10, steps_per_submit = 16;
    bool bench = false, quiet = false;
};

struct TrainOutcome {
    std::vector<train::TrainTensor> init, final;  // final: only when asked for
    train::TrainData data;
    std::vector<float> log, val;  // loss and accuracy per step (val: where evaluated)
    std::vector<bool> evaluated;  // per step
    double seconds = 0;           // from the first submission to the last step's end

    int steps() const { return static_cast<int>(evaluated.size()); }
    double steps_per_second() const { return steps() / seconds; }
};

// Runs c (valid) on ctx: evaluates after every `eval_every`-th step and the last; downloads the final
// parameters when `final`.
TrainOutcome train_once(const gpu::VulkanContext& ctx, const train::TrainConfig& c, int eval_every,
                        int steps_per_submit, bool final);

// "step,train_loss,train_acc,val_loss,val_acc\n" (after `prefix_header`, e.g. "norm,batch,").
std::string log_csv_header(const std::string& prefix_header = "");
// One row per step (after `prefix`, e.g. "batch,16,"); empty validation cells where not evaluated.
std::string log_csv_rows(const TrainOutcome& o, const std::string& prefix = "");

}  // namespace normlab
