// Training on WebGPU in the browser (train_test.hpp).
#include "train_test.hpp"

#include "normlab/plan/backend_helpers.hpp"
#include "normlab/train/conv_layers.hpp"
#include "normlab/train/conv_model_plan.hpp"
#include "normlab/train/train_plan.hpp"
#include "normlab/webgpu/wgpu_train_runner.hpp"
#include "train/cnn_checks.hpp"
#include "train/conv_cases.hpp"
#include "train/train_checks.hpp"

#include <emscripten.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <fstream>

namespace normlab::web {
namespace {

using webgpu::WgpuTrainRunner;
using Clock = std::chrono::steady_clock;

nlohmann::json load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("no " + path + " in the test program's files");
    return nlohmann::json::parse(in);
}

class TrainSuite {
public:
    TrainSuite(webgpu::WgpuContext& ctx, nlohmann::json& report) : ctx_(ctx), report_(report) {}

    // Runs `check` for one case of `part`, recording its failures (or what it threw) and its time.
    template <typename F>
    void run(const std::string& part, const std::string& name, F&& check) {
        const auto t0 = Clock::now();
        std::vector<std::string> failures;
        try {
            failures = check();
        } catch (const std::exception& e) {
            failures = {std::string("threw: ") + e.what()};
        }
        auto& p = report_["parts"][part];
        if (p.is_null()) p = nlohmann::json::object();
        p["cases"] = p.value("cases", 0) + 1;
        p["ms"] = p.value("ms", 0.0) + plan::ms_since(t0);
        for (const auto& f : failures) report_["failures"].push_back({{"part", part}, {"case", name}, {"what", f}});
    }

    // One mlp configuration of each norm against the float64 reference, with one invocation (serial) and with
    // a workgroup per norm set; the placements, activations and optimizers spread over the norms. The plan
    // takes the device's storage-buffer limit: with 9 or more, a row norm before its activation with serial
    // sets (rms, layer) runs its Linear in the same pass (train_linear_norm, "fused"); with 10 or more, batch
    // norm with serial sets its ∂γ and ∂β in its ∂x pass (train_norm_bwd_params, "fused").
    void reference() {
        struct Case {
            train::TrainNorm norm;
            bool after;
            train::TrainActivation act;
            train::TrainOptimizer opt;
        };
        using A = train::TrainActivation;
        using O = train::TrainOptimizer;
        const Case cases[] = {
            {train::TrainNorm::None, false, A::Relu, O::Sgd},    {train::TrainNorm::Batch, false, A::Tanh, O::Adam},
            {train::TrainNorm::Layer, true, A::Sigmoid, O::Sgd}, {train::TrainNorm::Group, true, A::Relu, O::Adam},
            {train::TrainNorm::Rms, false, A::Tanh, O::Sgd},     {train::TrainNorm::Layer, false, A::Relu, O::Adam}};
        for (const Case& k : cases)
            for (std::uint32_t serial : {0u, train::TrainPlanOptions{}.serial_norm_members}) {
                const train::TrainConfig c = test::small_train_config(k.norm, k.after, k.act, k.opt);
                train::TrainPlanOptions o{serial};
                o.max_storage_buffers = ctx_.limits().max_storage_buffers;  // 9 or more: train_linear_norm
                const train::TrainProgram p = train::plan_mlp_training(c, o);
                const bool fused = std::any_of(p.passes.begin(), p.passes.end(), [](const train::TrainPass& t) {
                    return t.kernel == "train_linear_norm" || t.kernel == "train_norm_bwd_params";
                });
                const std::string name = std::string(train::train_norm_name(c.norm)) + (k.after ? " after" : "") +
                                         (serial ? " serial" : " workgroup") + (fused ? " fused" : "");
                report_["max_storage_buffers"] = o.max_storage_buffers;
                report_["fused_reference_cases"] = report_.value("fused_reference_cases", 0) + (fused ? 1 : 0);
                run("reference", name, [&] {
                    webgpu::WgpuTrainRunner r(ctx_, p, 4);
                    return test::check_against_reference(
                        c, test::run_train(r, c, train::init_mlp_params(c), train::make_train_data(c)));
                });
            }
    }

    void mlp_golden(const std::vector<std::string>& names) {
        for (const auto& name : names)
            run("mlp_golden", name, [&] {
                const auto j = load("/golden/train/" + name + ".json");
                const auto g = test::mlp_golden(j);
                webgpu::WgpuTrainRunner r(ctx_, train::plan_mlp_training(g.config), 8);
                auto lines = test::check_mlp_golden(j, g, test::run_train(r, g.config, g.init, g.data));
                if (name == "batch_adam") negative_control(j, g, test::run_train(r, g.config, g.init, g.data));
                return lines;
            });
    }

    void cnn_golden(bool all_runs) {
        const auto all = load("/golden/train_ops/cnn_runs.json");
        const train::TrainData data = test::cnn_golden_data(all);
        for (const auto& run : all.at("runs")) {
            const std::string norm = run.at("norm");
            if (!all_runs && norm != "batch" && norm != "instance") continue;
            this->run("cnn_golden", norm, [&] {
                const train::TrainConfig c = test::cnn_golden_config(all, run);
                const auto init = test::cnn_golden_init(c, run);
                webgpu::WgpuTrainRunner r(ctx_, train::plan_cnn_training(c), 2);
                return test::check_cnn_run(run, c, init, test::run_train(r, c, init, data));
            });
        }
    }

    // The cnn against its float64 reference (tests/train/cnn_checks.hpp): all 21 configurations, or 6 (each norm
    // once, both placements and optimizers); the check must see the first run with a loss and a weight off fail.
    void cnn_reference(bool all_configs) {
        const auto configs = test::cnn_reference_configs();
        for (std::size_t i = 0; i < configs.size(); ++i) {
            if (!all_configs && i != 0 && i != 3 && i != 8 && i != 11 && i != 16 && i != 19) continue;
            const train::TrainConfig& c = configs[i];
            run("cnn_reference", test::cnn_config_name(c), [&] {
                webgpu::WgpuTrainRunner r(ctx_, train::plan_cnn_training(c), 2);
                auto dev = test::run_train(r, c, train::init_cnn_params(c), train::make_train_data(c));
                auto lines = test::check_cnn_against_reference(c, dev);
                if (i == 0) {
                    dev.log[4] *= 1.001f;
                    dev.params.at("layers.1.conv.weight")[3] += 1e-3f;
                    report_["cnn_negative_control_failures"] = test::check_cnn_against_reference(c, dev).size();
                }
                return lines;
            });
        }
    }

    // The WGSL convolution and pooling kernels on the Vulkan suite's shapes (tests/train/conv_cases.hpp).
    void conv_kernels() {
        for (const auto& k : test::conv_kernel_cases())
            run("conv_kernels", k.name, [&] {
                webgpu::WgpuTrainRunner r(ctx_, k.program, 1);
                return k.check(test::run_kernel_case(r, k), test::ConvBackend::WebGPU);
            });
    }

    // Slices of 2 steps submitted whenever poll() says the last has finished (yielding to the browser
    // between polls) give the run of one submission; so do 1 and 4 steps per submission.
    void slices() {
        run("slices", "poll", [&] {
            auto c = test::small_train_config(train::TrainNorm::Layer, false, train::TrainActivation::Tanh,
                                              train::TrainOptimizer::Sgd);
            c.steps = 9;
            const auto init = train::init_mlp_params(c);
            const auto data = train::make_train_data(c);
            webgpu::WgpuTrainRunner whole_runner(ctx_, train::plan_mlp_training(c), 4);
            const auto whole = test::run_train(whole_runner, c, init, data);
            webgpu::WgpuTrainRunner one_runner(ctx_, train::plan_mlp_training(c), 1);
            const auto one = test::run_train(one_runner, c, init, data);
            webgpu::WgpuTrainRunner r(ctx_, train::plan_mlp_training(c), 4);
            test::upload_all(r, init, data);
            int polls = 0;
            while (r.steps_run() < c.steps) {
                if (!r.poll()) {
                    ++polls;
                    emscripten_sleep(1);
                    continue;
                }
                r.submit(std::min(2, c.steps - r.steps_run()), 0, r.steps_run() + 2 >= c.steps);
            }
            while (!r.poll()) {
                ++polls;
                emscripten_sleep(1);
            }
            std::vector<std::string> f;
            report_["parts"]["slices"]["polls_not_yet"] = polls;
            if (polls == 0) f.push_back("poll() never said not yet");
            if (r.log() != whole.log || r.val_log() != whole.val_log) f.push_back("sliced logs differ from one run's");
            if (one.log != whole.log) f.push_back("1 step per submission gives other logs than 4");
            for (const auto& t : init) {
                if (r.download(t.name) != whole.params.at(t.name)) f.push_back("sliced " + t.name + " differs");
                if (one.params.at(t.name) != whole.params.at(t.name)) f.push_back("1 per submission: " + t.name);
            }
            return f;
        });
    }

    // Programs WebGPU or the runner refuse, each in one error: a pass binding fewer buffers than its
    // kernel declares (a pipeline WebGPU refuses), and one binding a buffer other than "unused" twice.
    void refusals() {
        run("refusals", "bad programs", [&] {
            std::vector<std::string> f;
            const auto c = test::small_train_config(train::TrainNorm::None, false, train::TrainActivation::Relu,
                                                    train::TrainOptimizer::Sgd);
            auto expect = [&](train::TrainProgram p, const char* what, const char* want) {
                try {
                    webgpu::WgpuTrainRunner r(ctx_, std::move(p), 1);
                    f.push_back(std::string(what) + ": not refused");
                } catch (const std::exception& e) {
                    if (std::string(e.what()).find(want) == std::string::npos)
                        f.push_back(std::string(what) + ": " + e.what());
                }
            };
            train::TrainProgram short_pass = train::plan_mlp_training(c);
            short_pass.passes[1].buffers.resize(2);  // train_linear declares 5
            expect(short_pass, "a pass binding 2 of 5 buffers", "WebGPU refused it");
            train::TrainProgram twice = train::plan_mlp_training(c);
            twice.passes[1].buffers[3] = twice.passes[1].buffers[0];
            expect(twice, "a buffer bound twice", "twice");
            return f;
        });
    }

    // The golden check must see a run whose first loss is 0.1% off and one weight 0.01 off as failing.
    void negative_control(const nlohmann::json& j, const test::MlpGolden& g, test::TrainRun dev) {
        dev.log[0] *= 1.001f;
        dev.params.at("head.weight")[0] += 0.01f;
        report_["negative_control_failures"] = test::check_mlp_golden(j, g, dev).size();
    }

    // `c.steps` steps of c from its initial parameters and data, `per_submit` steps per submission and one
    // evaluation after the last, timed from the first submission to the last step's end.
    void bench(const std::string& name, const train::TrainConfig& c, bool cnn, int per_submit) {
        run("bench", name, [&] {
            webgpu::WgpuTrainRunner r(ctx_, cnn ? train::plan_cnn_training(c) : train::plan_mlp_training(c),
                                      per_submit);
            const auto data = train::make_train_data(c);
            test::upload_all(r, cnn ? train::init_cnn_params(c) : train::init_mlp_params(c), data);
            const auto t0 = Clock::now();
            r.submit(c.steps, 0, true);
            r.finish();
            const double ms = plan::ms_since(t0);
            const auto log = r.log();
            report_["bench"][name] = {{"steps", c.steps},
                                      {"ms", ms},
                                      {"steps_per_s", c.steps * 1000.0 / ms},
                                      {"first_loss", log[0]},
                                      {"last_loss", log[2 * (c.steps - 1)]},
                                      {"last_val_acc", r.val_log()[2 * (c.steps - 1) + 1]}};
            return std::vector<std::string>{};
        });
    }

    // The cnn's step split by kernel: each kernel's passes alone (on zeroed buffers), ms per step.
    void profile(const train::TrainConfig& c) {
        run("bench", "cnn profile", [&] {
            const train::TrainProgram whole = train::plan_cnn_training(c);
            std::map<std::string, int> kinds;
            for (const auto& p : whole.passes) ++kinds[p.kernel];
            for (const auto& [name, n] : kinds) {
                const std::string kernel = name;
                train::TrainProgram p = whole;
                p.eval_passes.clear();
                p.passes.erase(std::remove_if(p.passes.begin(), p.passes.end(),
                                              [&](const train::TrainPass& q) { return q.kernel != kernel; }),
                               p.passes.end());
                webgpu::WgpuTrainRunner r(ctx_, std::move(p), 4);
                r.submit(1);
                r.finish();
                const auto t0 = Clock::now();
                r.submit(4);
                r.finish();
                report_["profile"][kernel] = {{"passes", n}, {"ms_per_step", plan::ms_since(t0) / 4}};
            }
            return std::vector<std::string>{};
        });
    }

private:
    webgpu::WgpuContext& ctx_;
    nlohmann::json& report_;
};

// The cnn of the speed figures: 4 conv layers of 16 channels on 16×16 textures, 4 classes, batch 32, Adam.
train::TrainConfig bench_cnn() {
    train::TrainConfig cnn;
    cnn.model = train::TrainModel::Cnn;
    cnn.data = "textures";
    cnn.depth = 4;
    cnn.channels = 16;
    cnn.batch = 32;
    cnn.steps = 200;
    cnn.classes = 4;
    cnn.samples = 1024;
    cnn.noise = 0.2;
    cnn.data_seed = 1;
    cnn.optimizer = train::TrainOptimizer::Adam;
    cnn.lr = 0.01;
    cnn.norm = train::TrainNorm::Batch;
    train::validate_train_config(cnn);
    return cnn;
}

// The mlp of bench/train_bench.py (4 hidden layers of 32, the norm before ReLU, 2 classes, batch 32,
// SGD at 0.05 with momentum 0.9, 1,024 samples) for each norm, 64 steps per submission; the cnn (the
// BatchNorm2d step's kernels profiled one by one) for each norm, 16.
void benches(TrainSuite& s) {
    train::TrainConfig mlp;
    mlp.depth = 4;
    mlp.width = 32;
    mlp.batch = 32;
    mlp.steps = 200;
    mlp.classes = 2;
    mlp.samples = 1024;
    mlp.lr = 0.05;
    for (train::TrainNorm n : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Layer,
                               train::TrainNorm::Group, train::TrainNorm::Rms}) {
        mlp.norm = n;
        mlp.groups = n == train::TrainNorm::Group ? 4 : 1;
        train::validate_train_config(mlp);
        s.bench(std::string("mlp ") + train::train_norm_name(n), mlp, false, 64);
    }
    s.profile(bench_cnn());
    for (train::TrainNorm n : {train::TrainNorm::None, train::TrainNorm::Batch, train::TrainNorm::Layer,
                               train::TrainNorm::Instance, train::TrainNorm::Group, train::TrainNorm::Rms}) {
        train::TrainConfig cnn = bench_cnn();
        cnn.norm = n;
        cnn.groups = n == train::TrainNorm::Group ? 4 : 1;
        train::validate_train_config(cnn);
        s.bench(std::string("cnn ") + train::train_norm_name(n), cnn, true, 16);
    }
}

}  // namespace

std::string run_train_tests(webgpu::WgpuContext& ctx, const std::string& mode) {
    nlohmann::json report{{"device", ctx.device_name()}, {"mode", mode}, {"failures", nlohmann::json::array()}};
    const auto t0 = Clock::now();
    TrainSuite s(ctx, report);
    if (mode == "bench") {
        benches(s);
    } else if (mode == "profile") {
        s.profile(bench_cnn());
    } else {
        const bool full = mode == "full";
        s.reference();
        s.slices();
        s.refusals();
        if (full)
            s.mlp_golden({"batch_adam", "batch_sgd", "group_adam", "group_sgd", "layer_adam", "layer_sgd", "none_adam",
                          "none_sgd", "rms_adam", "rms_sgd"});
        else
            s.mlp_golden({"batch_adam", "group_sgd", "rms_adam"});
        s.cnn_golden(full);
        s.cnn_reference(full);
        s.conv_kernels();
    }
    report["ms"] = plan::ms_since(t0);
    return report.dump();
}

}  // namespace normlab::web
