// engine/train's sweep grid and PyTorch script text, without a device (label train): the grid's order
// (the first axis slowest), each key applied, a bad axis or run refused with the run named; the script's
// modules for each model and norm, and paths written as Python string literals.
#include "normlab/core/error.hpp"
#include "normlab/train/torch_script.hpp"
#include "normlab/train/train_sweep.hpp"

#include <catch2/catch.hpp>

#include <functional>

using namespace normlab;

namespace {

std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("train sweep grid: the first axis varies slowest, every key applies", "[train]") {
    train::TrainConfig base;
    base.width = 8;
    const std::vector<train::SweepAxis> axes{train::parse_sweep_axis("norm=none,group"),
                                             train::parse_sweep_axis("batch=4,8,16"),
                                             train::parse_sweep_axis("lr=0.5")};
    const auto runs = train::sweep_grid(base, axes);
    REQUIRE(runs.size() == 6);
    CHECK(train::sweep_run_label(axes, runs[0]) == "norm=none, batch=4, lr=0.5");
    CHECK(train::sweep_run_label(axes, runs[5]) == "norm=group, batch=16, lr=0.5");
    CHECK(runs[4].config.norm == train::TrainNorm::Group);
    CHECK(runs[4].config.batch == 8);
    CHECK(runs[4].config.lr == 0.5);
    CHECK(runs[4].config.width == 8);

    train::TrainConfig c;
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{{"placement", "after"},
                                                                                     {"activation", "tanh"},
                                                                                     {"optimizer", "adam"},
                                                                                     {"momentum", "0.5"},
                                                                                     {"groups", "4"},
                                                                                     {"depth", "3"},
                                                                                     {"width", "12"},
                                                                                     {"seed", "7"},
                                                                                     {"data-seed", "9"}})
        apply_sweep_value(c, key, value);
    CHECK(c.norm_after);
    CHECK(c.activation == train::TrainActivation::Tanh);
    CHECK(c.optimizer == train::TrainOptimizer::Adam);
    CHECK(c.momentum == 0.5);
    CHECK(c.groups == 4);
    CHECK(c.depth == 3);
    CHECK(c.width == 12);
    CHECK(c.seed == 7);
    CHECK(c.data_seed == 9);
    c.model = train::TrainModel::Cnn;
    train::apply_sweep_value(c, "channels", "6");
    CHECK(c.channels == 6);
}

TEST_CASE("train sweep grid: bad axes and runs are refused with one line", "[train]") {
    train::TrainConfig base;
    CHECK(has(refusal([] { train::parse_sweep_axis("speed=1,2"); }), "unknown --sweep key 'speed'"));
    CHECK(has(refusal([] { train::parse_sweep_axis("batch=4,,8"); }), "empty value"));
    CHECK(has(refusal([&] { train::apply_sweep_value(base, "depth", "2.5"); }), "'2.5' is not an integer"));
    CHECK(has(refusal([&] { train::apply_sweep_value(base, "seed", "-1"); }), "not a non-negative integer"));
    CHECK(has(refusal([&] { train::apply_sweep_value(base, "lr", "fast"); }), "'fast' is not a number"));
    CHECK(has(refusal([&] { train::apply_sweep_value(base, "placement", "middle"); }), "before or after"));
    base.norm = train::TrainNorm::Group;
    base.groups = 3;
    const auto bad = refusal([&] { train::sweep_grid(base, {train::parse_sweep_axis("width=6,8")}); });
    CHECK(has(bad, "sweep run width=8: num_channels must be divisible"));
    CHECK(bad.find('\n') == std::string::npos);
}

TEST_CASE("train PyTorch script: the modules of each model and norm, paths as Python strings", "[train]") {
    train::TrainConfig c;
    c.width = 12;
    c.norm = train::TrainNorm::Group;
    c.groups = 3;
    c.activation = train::TrainActivation::Sigmoid;
    std::string s = train::pytorch_script(c, {"in it", "da\"ta", ""});
    CHECK(has(s, "self.linear = nn.Linear(in_features, 12)"));
    CHECK(has(s, "self.norm = nn.GroupNorm(3, 12)"));
    CHECK(has(s, "return torch.sigmoid(self.norm(self.linear(x)))"));
    CHECK(has(s, "INIT_DIR = os.path.join(HERE, \"in it\")"));
    CHECK(has(s, "DATA_DIR = os.path.join(HERE, \"da\\\"ta\")"));
    CHECK(has(s, "LOG_CSV = None"));
    CHECK(has(s, "torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)"));
    CHECK_FALSE(has(s, "class RMSNorm"));

    c.model = train::TrainModel::Cnn;
    c.data = "textures";
    c.channels = 6;
    c.norm = train::TrainNorm::Instance;
    c.norm_after = true;
    c.optimizer = train::TrainOptimizer::Adam;
    s = train::pytorch_script(c, {"i", "d", "log.csv"});
    CHECK(has(s, "self.conv = nn.Conv2d(in_channels, 6, 3, padding=1)"));
    CHECK(has(s, "self.norm = nn.InstanceNorm2d(6, affine=True)"));
    CHECK(has(s, "return self.norm(torch.sigmoid(self.conv(x)))"));
    CHECK(has(s, "torch.optim.Adam(model.parameters(), lr=0.01)"));
    CHECK(has(s, "LOG_CSV = os.path.join(HERE, \"log.csv\")"));
    c.norm = train::TrainNorm::Rms;
    CHECK(has(train::pytorch_script(c, {"i", "d", ""}), "self.norm = RMSNorm([6, side, side])"));
    c.norm = train::TrainNorm::None;
    CHECK(has(train::pytorch_script(c, {"i", "d", ""}), "return torch.sigmoid(self.conv(x))"));
    CHECK(train::python_string("a\\b\n") == "\"a\\\\b\\x0a\"");
}
