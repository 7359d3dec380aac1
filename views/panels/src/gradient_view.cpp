#include "normlab/views/gradient_view.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/tensor_init.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <utility>

namespace normlab::views {

GradientView::GradientView(session::Session& engine, std::unique_ptr<HeatmapImage> image)
    : engine_(&engine), shown_(engine), view_(std::move(image)) {
    view_.mode = plan::HeatmapMode::Output;
    view_.colormap = Colormap::Diverging;
    view_.show_controls = false;
}

std::int64_t GradientView::selected_offset(const session::ShownTensors& of) {
    const auto& sel = of.selection();
    if (!sel) return 0;
    return of.x().offset((*sel)[0], (*sel)[1], (*sel)[2], (*sel)[3]);
}

std::optional<std::string> GradientView::follow(const core::State& st, const session::ShownTensors& main) {
    if (main.empty() || main.values_only() || main.x().data.empty()) return std::nullopt;
    const std::int64_t k = selected_offset(main);
    const int choice = (jacobian ? 1000 : static_cast<int>(dy) * 100) + (dy == GradDy::Random ? seed % 97 : 0);
    if (seen_generation_ == main.generation() && seen_offset_ == k && seen_choice_ == choice) return std::nullopt;
    seen_generation_ = main.generation();
    seen_offset_ = k;
    seen_choice_ = choice;
    error_.clear();
    const core::Shape4& shape = main.x().shape;
    if (jacobian || dy == GradDy::OneHot) {
        dy_ = core::Tensor(shape, 0.0f);
        dy_.data[static_cast<std::size_t>(k)] = 1.0f;
    } else if (dy == GradDy::Ones) {
        dy_ = core::Tensor(shape, 1.0f);
    } else {
        dy_ = make_tensor(shape, core::Init::Randn, static_cast<std::uint64_t>(seed));
    }
    try {
        grad_ = engine_->backward(st, main.x(), dy_);
    } catch (const core::InputError& e) {
        error_ = e.what();
        return error_;
    }
    nonzero_ = 0;
    off_diagonal_ = 0;
    for (std::size_t i = 0; i < grad_.dx.data.size(); ++i) {
        const float v = grad_.dx.data[i];
        nonzero_ += v != 0.0f;
        if (static_cast<std::int64_t>(i) != k && std::isfinite(v)) off_diagonal_ = std::max(off_diagonal_, std::abs(v));
    }
    shown_.show(dy_, grad_.dx, main.layout(), st.spec.method);
    shown_.select(main.selection() ? main.selection() : std::optional<core::Index4>(core::Index4{0, 0, 0, 0}));
    return std::nullopt;
}

std::string gradient_support_text(const core::NormSpec& spec, const core::StatLayout& l) {
    const std::string k = std::to_string(l.count());
    std::string axes;  // the reduced axes as a product, e.g. N·H·W, or N for a 2-D tensor
    for (const auto& a : l.reduced_axes) axes += (axes.empty() ? "" : "·") + a;
    const char* ax = axes.c_str();
    char buf[512];
    switch (spec.method) {
        case core::Method::Batch:
            if (!spec.uses_batch_stats())
                return tr(
                    "BatchNorm in eval mode: the running statistics are constants, so ∂y_k/∂x is non-zero "
                    "only at x_k itself. No coupling.");
            std::snprintf(buf, sizeof buf,
                          tr("BatchNorm (train): the support is y_k's whole channel across every sample of the batch "
                             "(%s = %s elements). A change in any other sample changes y_k: BatchNorm couples "
                             "the samples."),
                          ax, k.c_str());
            return buf;
        case core::Method::Layer:
            std::snprintf(buf, sizeof buf,
                          tr("LayerNorm: the support is y_k's own sample, the normalized_shape slice (%s elements). "
                             "Every other sample has gradient 0."),
                          k.c_str());
            return buf;
        case core::Method::Instance:
            std::snprintf(buf, sizeof buf,
                          tr("InstanceNorm: the support is y_k's channel within its own sample (%s = %s elements)."),
                          ax, k.c_str());
            return buf;
        case core::Method::Group:
            std::snprintf(buf, sizeof buf,
                          tr("GroupNorm: the support is y_k's group of channels within its own sample (%s = %s "
                             "elements)."),
                          ax, k.c_str());
            return buf;
        case core::Method::Rms:
            std::snprintf(buf, sizeof buf,
                          tr("RMSNorm: the support is y_k's normalized_shape slice (%s elements); no centering, so "
                             "the entries do not sum to 0."),
                          k.c_str());
            return buf;
    }
    return {};
}

void GradientView::draw(const core::State& st, session::ShownSource& of) {
    const session::ShownTensors& main = of.shown();
    follow(st, main);
    int mode = jacobian ? 0 : 1;
    ImGui::RadioButton(tr("∂y_k/∂x (one Jacobian row)"), &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton(tr("∂L/∂x for a chosen dy"), &mode, 1);
    jacobian = mode == 0;
    if (!jacobian) {
        int d = static_cast<int>(dy);
        ImGui::SameLine();
        ImGui::TextUnformatted("dy:");
        const char* names[] = {"one-hot", "ones", "random"};
        for (int i = 0; i < 3; ++i) {
            ImGui::SameLine();
            ImGui::RadioButton(tr(names[i]), &d, i);
        }
        dy = static_cast<GradDy>(d);
        if (dy == GradDy::Random) {
            ImGui::SameLine();
            ImGui::SetNextItemWidth(90);
            ImGui::InputInt(tr("seed"), &seed);
        }
    }
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", error_.c_str());
    if (jacobian) {
        wrapped_text(gradient_support_text(st.spec, main.layout()));
        wrapped_text(strf(tr("Non-zero entries of this row (%s): %lld of %lld; the statistic group holds %lld."),
                          compute_unit(engine_->backend().on_cpu()), static_cast<long long>(nonzero_),
                          static_cast<long long>(main.x().shape.numel()),
                          static_cast<long long>(main.layout().count())));
    } else {
        wrapped_text(
            tr("L = Σ dy ⊙ y: the heatmap shows ∂L/∂x; the histograms below show dy (input) and "
               "∂L/∂x (output)."));
    }
    view_.legend_label = jacobian ? "∂y_k/∂x" : "∂L/∂x";
    // The self term ∂y_k/∂x_k dwarfs the coupling terms: the colormap spans ±max over i ≠ k and
    // the selected element saturates (when every other entry is 0, the data's own range).
    view_.fixed_range.reset();
    if (jacobian && off_diagonal_ > 0) {
        view_.fixed_range = std::make_pair(-off_diagonal_, off_diagonal_);
        ImGui::TextDisabled("%s", tr("Colors span ± the largest entry off the selected element, which saturates."));
    }
    view_.clicked.reset();
    view_.draw(shown_);
    if (view_.clicked) of.select(view_.clicked);
}

void GradientView::draw_histograms(session::Session& main, bool presenter) {
    follow(main.state(), main.shown());
    ImGui::TextUnformatted(strf(tr("dy (as input) and ∂L/∂x (as output), from the backward kernels on the %s"),
                                compute_unit(main.backend().on_cpu()))
                               .c_str());
    if (shown_.shown().empty()) return;
    histograms_.on_cpu = main.backend().on_cpu();
    if (auto bins = histograms_.draw(shown_.shown().histograms(), shown_.bins(), presenter)) shown_.set_bins(*bins);
}

std::string GradientView::explain(session::Session& main) {
    follow(main.state(), main.shown());
    const core::NormResult& r = main.result();
    if (grad_.dx.data.empty() || r.rstd.empty()) return {};
    const std::int64_t i = selected_offset(main.shown());
    const core::StatLayout& l = main.layout();
    const auto s = static_cast<std::size_t>(l.stat_of(i));
    const auto p = static_cast<std::size_t>(l.param_of(i));
    const core::NormSpec& spec = main.state().spec;
    const double gamma = spec.has_weight() && !main.state().params.weight.empty() ? main.state().params.weight[p] : 1.0;
    const double x = main.x().data[static_cast<std::size_t>(i)], d = dy_.data[static_cast<std::size_t>(i)];
    const bool rms = spec.method == core::Method::Rms;
    const double rstd = r.rstd[s], xhat = rms ? x * rstd : (x - r.mean[s]) * rstd, g = d * gamma;
    const double dx = grad_.dx.data[static_cast<std::size_t>(i)];
    char buf[1024];
    if (grad_.mean_g.empty()) {  // BatchNorm eval
        std::snprintf(buf, sizeof buf, "%s\n∂L/∂x_i = rstd·γ·dy_i\n= %.4g · %.4g · %.4g = %.6g",
                      tr("Backward (running statistics):"), rstd, gamma, d, dx);
    } else if (rms) {
        std::snprintf(buf, sizeof buf,
                      "%s\n∂L/∂x_i = rstd·(g_i − x̂_i·mean(g·x̂)),  g = dy·γ\n= %.4g·(%.4g − %.4g·%.4g) = %.6g",
                      tr("Backward (RMSNorm, no centering):"), rstd, g, xhat, grad_.mean_gxhat[s], dx);
    } else {
        std::snprintf(buf, sizeof buf,
                      "%s\n∂L/∂x_i = rstd·(g_i − mean(g) − x̂_i·mean(g·x̂)),  g = dy·γ\n"
                      "= %.4g·(%.4g − %.4g − %.4g·%.4g) = %.6g\n%s %lld",
                      tr("Backward through μ and σ²:"), rstd, g, grad_.mean_g[s], xhat, grad_.mean_gxhat[s], dx,
                      tr("means over the statistic's elements, count"), static_cast<long long>(l.count()));
    }
    return buf;
}

}  // namespace normlab::views
