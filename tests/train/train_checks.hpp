// The training suites' runs and comparisons on any TrainDevice, shared by the Vulkan tests (tests/train,
// Catch) and the in-browser tests (tests/web/wasm, WebGPU): a run from given parameters and data, PyTorch's
// golden files (tests/golden/train/*.json, tests/golden/train_ops/cnn_runs.json) read into configurations
// and data, and the checks against PyTorch and the float64 reference with their tolerances. A check returns
// one line per failure (empty: passed).
#pragma once
#include "normlab/train/train_config.hpp"
#include "normlab/train/train_data.hpp"
#include "normlab/train/train_device.hpp"
#include "normlab/train/train_params.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace normlab::test {

// Collects failure lines: NL_CHECK(failures, ok, what << …).
class Failures {
public:
    std::ostringstream* check(bool ok) {
        if (ok) return nullptr;
        lines_.emplace_back();
        return &lines_.back();
    }
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        for (const auto& l : lines_) out.push_back(l.str());
        return out;
    }

private:
    std::vector<std::ostringstream> lines_;
};
#define NL_CHECK(f, ok, what) \
    if (auto* os_ = (f).check(ok)) *os_ << what

struct TrainRun {
    std::vector<float> log;      // 2 per step
    std::vector<float> val_log;  // 2 per step
    std::map<std::string, std::vector<float>> params;
};

// Uploads the data and parameters of a program into a runner.
void upload_all(train::TrainDevice& r, const std::vector<train::TrainTensor>& init, const train::TrainData& data);
// Runs c.steps steps on `device` from `init` and `data` (evaluating after the last step) and reads the
// logs and every tensor of `init` back.
TrainRun run_train(train::TrainDevice& device, const train::TrainConfig& c, const std::vector<train::TrainTensor>& init,
                   const train::TrainData& data);

// |a − b| / max(|b|, floor)
double rel_err(double a, double b, double floor = 1e-6);

// The small mlp the reference checks train: depth 2, width 8, 3 spirals, batch 16, 6 steps.
train::TrainConfig small_train_config(train::TrainNorm norm, bool after, train::TrainActivation act,
                                      train::TrainOptimizer opt);
// A device run of c from init_mlp_params(c) and make_train_data(c) against the float64 reference
// (MlpReference): the loss at every step within 1e-4 relative (1e-3 for BatchNorm under Adam), the
// accuracy exactly, the final parameters within 1e-3 (elements flagged noise_bound left out).
std::vector<std::string> check_against_reference(const train::TrainConfig& c, const TrainRun& dev);

// The configuration of a golden CLI run (the "config" object of tests/golden/train/*.json and
// tests/golden/train_cnn/*.json: normlab-cli train's options), validated.
train::TrainConfig golden_cli_config(const nlohmann::json& config);
// A conv bias right before a norm that subtracts each channel's mean, under Adam: its exact gradient is 0,
// so rounding noise moves it by about lr a step in any run; compared by how far it moved, not its value.
bool cnn_noise_bound(const train::TrainConfig& c, const std::string& name);

// One mlp golden case (tests/golden/train/NAME.json): its configuration, data and initial parameters.
struct MlpGolden {
    train::TrainConfig config;
    train::TrainData data;
    std::vector<train::TrainTensor> init;
};
MlpGolden mlp_golden(const nlohmann::json& j);
// PyTorch's run against engine/train's data and initial parameters, the float64 reference and the device
// run `dev`: the loss at every step within 1e-4 relative, the final parameters within 1e-3 (relative above
// 1; elements that Adam drives from rounding noise, MlpReference::noise_bound, left out), the final
// validation loss within 1e-4 where no element is so flagged.
std::vector<std::string> check_mlp_golden(const nlohmann::json& j, const MlpGolden& g, const TrainRun& dev);

// The cnn's golden runs (tests/golden/train_ops/cnn_runs.json, and cnn_after_runs.json on the same data):
// their shared data, each run's configuration (its "placement", when given, "after") and initial parameters.
train::TrainData cnn_golden_data(const nlohmann::json& all);
train::TrainConfig cnn_golden_config(const nlohmann::json& all, const nlohmann::json& run);
std::vector<train::TrainTensor> cnn_golden_init(const train::TrainConfig& c, const nlohmann::json& run);
// A device run against PyTorch's: every step's loss within 1e-4 relative and its accuracy exact, the
// validation loss within 1e-4, the final parameters within 1e-3 (relative, floor 1e-2); a conv bias right
// before a centring norm under Adam only within lr per step of its start.
std::vector<std::string> check_cnn_run(const nlohmann::json& run, const train::TrainConfig& c,
                                       const std::vector<train::TrainTensor>& init, const TrainRun& dev);

}  // namespace normlab::test
