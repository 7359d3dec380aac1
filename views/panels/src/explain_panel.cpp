#include "normlab/views/explain_panel.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/core/partition_set.hpp"
#include "normlab/core/stat_layout.hpp"
#include "normlab/views/wrapped_text.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>

namespace normlab::views {
namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), f, v);
    return buf;
}
std::string num(double v) { return fmt("%.4g", v); }
std::string ll(std::int64_t v) { return std::to_string(v); }

const char* why(core::Method m) {
    switch (m) {
        case core::Method::Batch:
            return "In train mode every sample of the batch contributes to each channel's μ and σ², so the samples "
                   "are coupled: change one sample and every output of its channel changes. Eval mode uses the "
                   "running statistics instead, and each sample is normalized on its own.";
        case core::Method::Layer:
            return "Each sample (or each leading index) is normalized on its own, over the trailing normalized_shape "
                   "dims; "
                   "the batch does not matter, and train and eval give the same result.";
        case core::Method::Instance:
            return "Each channel of each sample is normalized on its own over its H×W image: per-image contrast is "
                   "removed.";
        case core::Method::Group:
            return "The C channels are split into G groups of C/G consecutive channels; each (sample, group) has its "
                   "own "
                   "statistics. G = 1 gives LayerNorm([C,H,W])'s statistics, G = C gives InstanceNorm's.";
        case core::Method::Rms:
            return "Like LayerNorm over normalized_shape, but nothing is subtracted: x is divided by its root mean "
                   "square.";
    }
    return "";
}

}  // namespace

std::string reduction_summary(const core::NormSpec& spec, const core::StatLayout& l) {
    const core::Shape4& s = l.shape;
    const auto dims = s.dims();
    const auto names = core::axis_names(spec.method, s);
    std::string name = core::method_torch_name(spec.method, s), per, axes, sizes;
    std::vector<std::int64_t> reduced;  // the size of each of l.reduced_axes
    const std::size_t spatial = s.rank == 2 && spec.method == core::Method::Instance ? 1 : 2;
    for (std::size_t i = spatial; i < dims.size(); ++i) reduced.push_back(dims[i]);
    switch (spec.method) {
        case core::Method::Batch:
            per = tr("channel c");
            reduced.insert(reduced.begin(), s.n);
            break;
        case core::Method::Instance: per = core::axis_tuple(names, spatial); break;
        case core::Method::Group:
            name = "GroupNorm, G=" + ll(spec.groups);
            per = "(n, g)";
            reduced.insert(reduced.begin(), s.c / std::max<std::int64_t>(1, spec.groups));
            break;
        case core::Method::Layer:
        case core::Method::Rms: {
            reduced = spec.effective_normalized_shape(s);
            name += "(normalized_shape=" + core::dims_str(reduced) + ")";
            const std::size_t lead = dims.size() - reduced.size();
            per = s.rank == 3 && lead == 2 ? tr("token (n, l)") : core::axis_tuple(names, lead);
            break;
        }
    }
    for (std::size_t i = 0; i < reduced.size(); ++i) {
        axes += (i ? "·" : "") + l.reduced_axes[i];
        sizes += (i ? "·" : "") + ll(reduced[i]);
    }
    char buf[512];
    if (l.stat_shape.empty())  // layer/rms over every dim: F.layer_norm(x, x.shape)
        std::snprintf(buf, sizeof buf, tr("%s: one statistic for the whole tensor, over %s = %s = %lld elements"),
                      name.c_str(), axes.c_str(), sizes.c_str(), static_cast<long long>(l.count()));
    else
        std::snprintf(buf, sizeof buf, tr("%s: one statistic per %s (%lld) over %s = %s = %lld elements"), name.c_str(),
                      per.c_str(), static_cast<long long>(l.stat_count), axes.c_str(), sizes.c_str(),
                      static_cast<long long>(l.count()));
    return buf;
}

namespace {

// "Selected element (n, c, h, w) = …, statistic #s" and the GN paper's S_i (Wu & He 2018): the
// elements that share this element's μ and σ², with its size and the axes it spans.
void selected_element(const session::Session& session, const core::Index4& e, std::size_t si) {
    const core::NormSpec& spec = session.state().spec;
    wrapped_text(strf(tr("Selected element %s, statistic #%zu"),
                      core::element_text(spec.method, session.x().shape, e).c_str(), si));
    const core::PartitionSet ps = core::partition_set(spec, session.x().shape, e);
    // The one rule in words (every dim normalized, N included): "every k" in the UI's language.
    const auto words = [](std::string t) {
        const auto at = t.find("every k");
        return at == std::string::npos ? t : t.replace(at, 7, tr("every k"));
    };
    wrapped_text(words(ps.rule));
    wrapped_text(words(ps.filled));
    std::string spans;
    for (const auto& a : ps.spanned_axes) spans += (spans.empty() ? "" : tr(", ")) + a;
    wrapped_text(strf(tr("|S_i| = %lld, over %s."), static_cast<long long>(ps.size), spans.c_str()));
    if (ps.note == core::PartitionSet::Note::RunningStats)
        wrapped_text_disabled(tr("Eval mode: μ, σ² are the running statistics; S_i is not used for them."));
    else if (ps.note == core::PartitionSet::Note::NaiveShards)
        wrapped_text_disabled(tr("Naive mode: μ, σ² average the devices' statistics; no one S_i gives them."));
}

// A number substituted into a formula: a negative one in parentheses, so "x − μ" with μ = −0.45
// reads "x − (−0.45)", not "x − -0.45".
std::string term(double v) { return v < 0 ? "(" + num(v) + ")" : num(v); }

// The element's formula, then the same with its numbers (x, μ, σ² or mean(x²) from the GPU, ε,
// γ and β, AdaIN's style statistics as γ and β), then y as the shader wrote it.
void formula(const session::Session& session, std::int64_t i, std::size_t si, std::size_t pi) {
    const core::State& st = session.state();
    const core::NormSpec& spec = st.spec;
    const core::NormResult& r = session.result();
    const double x = session.x().data[static_cast<std::size_t>(i)];
    const double y = r.y.data[static_cast<std::size_t>(i)];
    const double eps = spec.effective_eps();
    bool w = spec.has_weight(), b = spec.has_bias();
    double gamma = w && !st.params.weight.empty() ? st.params.weight[pi] : 1.0;
    double beta = b && !st.params.bias.empty() ? st.params.bias[pi] : 0.0;
    const bool adain = session.style().has_value();
    if (adain) {  // AdaIN: γ = σ_s and β = μ_s of the style image's channel (the run's affine parameters)
        w = b = true;
        gamma = static_cast<float>(session.style_stats().stdev[pi]);
        beta = static_cast<float>(session.style_stats().mean[pi]);
    }
    std::string formula, numbers;
    const std::string g = w ? term(gamma) + "·" : "", bb = b ? " + " + term(beta) : "";
    if (spec.method == core::Method::Rms) {
        formula = std::string("y = ") + (w ? "γ·" : "") + "x / √(mean(x²) + ε)";
        numbers = "  = " + g + term(x) + " / √(" + num(r.mean_square[si]) + " + " + fmt("%.3g", eps) + ")";
    } else {
        formula = std::string("y = ") + (w ? "γ·" : "") + "(x − μ) / √(σ² + ε)" + (b ? " + β" : "");
        numbers = "  = " + g + "(" + num(x) + " − " + term(r.mean[si]) + ") / √(" + num(r.var[si]) + " + " +
                  fmt("%.3g", eps) + ")" + bb;
    }
    wrapped_text(formula);
    wrapped_text(numbers);
    wrapped_text(strf("  = %.6g", y));
    if (spec.method != core::Method::Rms && r.stats_from_running)
        wrapped_text_disabled(
            tr("μ, σ² are running_mean and running_var (eval mode): moving averages of the "
               "training batches' means and unbiased variances. Nothing is computed from "
               "this batch."));
    else if (spec.method != core::Method::Rms)
        wrapped_text_disabled(
            strf(tr("μ, σ² are this statistic's, from the %s; σ² is the biased variance (divide by %lld)."),
                 compute_unit(session.backend().on_cpu()), static_cast<long long>(r.layout.count())));
    if (adain)
        wrapped_text_disabled(strf(tr("AdaIN: γ = σ_s = √(var_s + ε) and β = μ_s, the style image's statistics of this "
                                      "channel, computed on the %s by InstanceNorm of the style image."),
                                   compute_unit(session.backend().on_cpu())));
    else if (w || b)
        wrapped_text_disabled(strf(tr("%s index %zu of the affine parameters (shape %s)."),
                                   b ? tr("γ, β are") : tr("γ is"), pi, core::dims_str(r.layout.param_shape).c_str()));
}

}  // namespace

void ExplainPanel::draw(const session::Session& session) {
    const core::State& st = session.state();
    const core::NormSpec& spec = st.spec;
    const core::NormResult& r = session.result();
    const core::StatLayout& l = r.layout;
    wrapped_text(reduction_summary(spec, l));
    std::string axes;
    for (const auto& a : l.reduced_axes) axes += (axes.empty() ? "" : tr(", ")) + a;  // 中文: "、"
    if (r.stats_from_running)  // BatchNorm eval: nothing is pooled from this batch
        wrapped_text(tr("Eval mode: nothing is reduced; channel c uses running_mean[c] and running_var[c]."));
    else
        wrapped_text(strf(tr("Reduced axes: %s."), axes.c_str()));
    if (l.stat_shape.empty() && l.shape.rank > 1)  // layer/rms over every dim, N included
        wrapped_text_disabled(
            tr("normalized_shape spans every dim, N included: one statistic for the whole tensor, "
               "so every output depends on every sample, as under BatchNorm in train mode; train "
               "and eval still give the same result."));
    else
        wrapped_text_disabled(tr(why(spec.method)));
    ImGui::Separator();
    if (!st.selection) {
        wrapped_text(
            tr("Click an element in the heatmap (or a row of the statistics table) to see its formula with numbers."));
        return;
    }
    const core::Index4& e = *st.selection;
    const std::int64_t i = session.x().offset(e[0], e[1], e[2], e[3]);
    const auto si = static_cast<std::size_t>(l.stat_of(i));
    selected_element(session, e, si);
    formula(session, i, si, static_cast<std::size_t>(l.param_of(i)));
}

}  // namespace normlab::views
