// normlab-cli train's figures (train_figure.hpp).
#include "train_figure.hpp"

#include "normlab/core/error.hpp"

#ifdef NORMLAB_HAVE_FIGURE
#include "normlab/views/chart_figure.hpp"
#include "normlab/views/figure.hpp"
#endif

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace normlab {

std::string describe_run(const train::TrainConfig& c, const std::vector<std::string>& swept) {
    auto is_swept = [&](const char* key) { return std::find(swept.begin(), swept.end(), key) != swept.end(); };
    auto shown = [&](const char* key, const std::string& value) { return is_swept(key) ? std::string("*") : value; };
    const bool cnn = c.model == train::TrainModel::Cnn;
    std::string norm = shown("norm", train::train_norm_name(c.norm));
    if (c.norm == train::TrainNorm::Group || is_swept("norm") || is_swept("groups"))
        norm += " G=" + shown("groups", std::to_string(c.groups));
    std::string opt = shown("optimizer", train::train_optimizer_name(c.optimizer));
    if (is_swept("optimizer") || c.optimizer == train::TrainOptimizer::Sgd)
        opt += " (momentum " + shown("momentum", fmt::format("{}", c.momentum)) + ")";
    return fmt::format("{} {}×{} {}, norm {} ({}), {} K={}, batch {}, {} lr {}, {} steps, seed {}", cnn ? "cnn" : "mlp",
                       shown("depth", std::to_string(c.depth)),
                       cnn ? shown("channels", std::to_string(c.channels)) : shown("width", std::to_string(c.width)),
                       shown("activation", train::train_activation_name(c.activation)), norm,
                       shown("placement", c.norm_after ? "after" : "before"), c.data, c.classes,
                       shown("batch", std::to_string(c.batch)), opt, shown("lr", fmt::format("{}", c.lr)), c.steps,
                       shown("seed", std::to_string(c.seed)));
}

#ifdef NORMLAB_HAVE_FIGURE
namespace {

std::string png_of(const views::ChartFigure& f, const gpu::VulkanContext& ctx, const std::string& path) {
    const views::RgbaImage img = views::render_chart_figure(ctx, f);
    return views::png_bytes(path, img.width, img.height, img.rgba);
}

views::ChartFigure sized(const TrainArgs& a) {
    views::ChartFigure f;
    std::tie(f.width, f.height) = train_figure_size(a.figure_size);
    return f;
}

}  // namespace

std::pair<int, int> train_figure_size(const std::string& size) {
    int w = 0, h = 0;
    char rest = 0;
    if (std::sscanf(size.c_str(), "%dx%d%c", &w, &h, &rest) != 2 || !views::figure_size_ok(w, h))
        throw core::InputError(std::string("--figure-size must look like 1400x700 (") + views::kFigureSizeRule +
                               "), got '" + size + "'");
    return {w, h};
}

std::string run_figure_png(const gpu::VulkanContext& ctx, const train::TrainConfig& c, const TrainOutcome& o,
                           const TrainArgs& a) {
    views::LineChart loss{"loss (cross-entropy)", "step", false, 0.0, NAN, {}};
    views::LineChart acc{"accuracy", "step", false, 0.0, 1.0, {}};
    views::ChartSeries tl{"training (the step's batch)", {}, {}, 0, false}, vl{"validation", {}, {}, 1, true};
    views::ChartSeries ta{"training (the step's batch)", {}, {}, 0, false}, va{"validation", {}, {}, 1, true};
    for (int t = 0; t < o.steps(); ++t) {
        tl.x.push_back(t + 1);
        tl.y.push_back(o.log[2 * t]);
        ta.x.push_back(t + 1);
        ta.y.push_back(o.log[2 * t + 1]);
        if (!o.evaluated[t]) continue;
        vl.x.push_back(t + 1);
        vl.y.push_back(o.val[2 * t]);
        va.x.push_back(t + 1);
        va.y.push_back(o.val[2 * t + 1]);
    }
    loss.series = {tl, vl};
    acc.series = {ta, va};
    views::ChartFigure f = sized(a);
    f.title = describe_run(c);
    f.caption = fmt::format(
        "trained on {}: validation (eval mode) after every {} steps and the last; final "
        "validation loss {:.4f}, accuracy {:.3f}",
        ctx.device_name(), a.eval_every, vl.y.back(), va.y.back());
    f.charts = {loss, acc};
    return png_of(f, ctx, a.figure);
}

std::string sweep_figure_png(const gpu::VulkanContext& ctx, const SweepPlan& p,
                             const std::vector<TrainOutcome>& outcomes, const TrainArgs& a) {
    views::LineChart chart{
        "final validation error (%) against batch size", "batch size (log2 axis)", true, 0.0, NAN, {}};
    for (const auto& line : train::sweep_error_series(p.axes, p.runs, sweep_results(outcomes)))
        chart.series.push_back({line.label, line.batch, line.error, static_cast<int>(chart.series.size()), true});
    views::ChartFigure f = sized(a);
    std::vector<std::string> keys;
    for (const auto& axis : p.axes) keys.push_back(axis.key);
    f.title = "sweep: " + describe_run(p.runs.front().config, keys);
    f.caption = fmt::format(
        "{} runs (* : the swept keys) on {}; error = 1 − validation accuracy after the last step "
        "(eval mode)",
        p.runs.size(), ctx.device_name());
    f.charts = {chart};
    return png_of(f, ctx, a.figure);
}
#endif

}  // namespace normlab
