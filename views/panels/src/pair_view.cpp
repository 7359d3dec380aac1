#include "normlab/views/pair_view.hpp"

#include "normlab/views/i18n.hpp"
#include "normlab/views/wrapped_text.hpp"

#include "normlab/core/error.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/io/scene_file.hpp"

#include <imgui.h>

#include <cmath>
#include <tuple>
#include <utility>

namespace normlab::views {

PairView::PairView(session::Session& engine, MakeHeatmapImage make_image)
    : engine_(engine),
      make_image_(std::move(make_image)),
      right_(std::make_unique<session::ShownValues>(engine)),
      right_shown_(std::make_unique<session::ShownValues>(engine)),
      diff_(std::make_unique<session::ShownValues>(engine)),
      left_view_(std::make_unique<HeatmapPanel>(make_image_())),
      right_view_(std::make_unique<HeatmapPanel>(make_image_())),
      diff_view_(std::make_unique<HeatmapPanel>(make_image_())) {
    for (auto* v : {left_view_.get(), right_view_.get(), diff_view_.get()}) {
        v->show_controls = false;
        v->mode = plan::HeatmapMode::Output;
    }
    diff_view_->mode = plan::HeatmapMode::Difference;
}

std::optional<std::string> PairView::start(const classroom::Experiment& e, session::Session& main,
                                           std::optional<core::State> left) {
    exp_ = &e;
    core::State st = left ? *left : e.state;
    try {
        core::Tensor x = io::load_tensor(st.source, st.spec.method);
        if (e.left_samples > 0) x = classroom::first_samples(x, e.left_samples);
        if (auto err = main.replace(st, session::TensorChange::given(std::move(x)))) return err;
    } catch (const core::InputError& err) {
        return std::string(err.what());
    }
    seen_generation_ = ~0ull;
    return follow(main);
}

std::optional<std::string> PairView::follow(session::Session& main) {
    if (!exp_ || seen_generation_ == main.generation()) return std::nullopt;
    seen_generation_ = main.generation();
    const classroom::Experiment& e = *exp_;
    error_.clear();
    try {
        core::State right = e.right;
        if (e.follow_method) {
            right.spec = main.state().spec;
            right.params = main.state().params;
        }
        core::Tensor x = io::load_tensor(right.source, right.spec.method);
        if (e.right_channels_last) x = classroom::to_channels_last(x);
        if (auto err = right_->compute(right, x)) {
            error_ = *err;
            return err;
        }
        right_state_ = session::fitted_to_tensor(right, right_->shown().layout());
        if (right_state_.selection) right_->select(right_state_.selection);
        core::Tensor y_right = right_->shown().y();
        core::Tensor x_right = right_->shown().x();
        if (e.right_channels_last) {
            y_right = classroom::from_channels_last(y_right);
            x_right = classroom::from_channels_last(x_right);
        }
        // Compare on the left's samples (the far-off extra sample has no partner).
        const std::int64_t k = main.x().shape.n;
        core::Tensor yr = classroom::first_samples(y_right, k), xr = classroom::first_samples(x_right, k);
        const core::Method m = main.state().spec.method;
        right_shown_->show(xr, yr, main.layout(), m);
        diff_->show(main.result().y, yr, main.layout(), m);
        // max |Δ| over every element (the difference histogram samples large tensors and skips
        // NaN/Inf): a non-finite difference counts as infinite, so "exactly 0" is never wrong.
        max_diff_ = 0.0;
        const auto& yl = main.result().y.data;
        for (std::size_t i = 0; i < yl.size() && i < yr.data.size(); ++i) {
            const double d = std::abs(static_cast<double>(yr.data[i]) - static_cast<double>(yl[i]));
            max_diff_ = std::isfinite(d) ? std::max(max_diff_, d) : INFINITY;
        }
    } catch (const core::InputError& err) {
        error_ = err.what();
        return error_;
    }
    return std::nullopt;
}

double PairView::max_abs_difference() const { return max_diff_; }

void PairView::draw(session::Session& main, bool gradient) {
    if (!exp_) return;
    follow(main);
    if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", error_.c_str());
    if (gradient) {
        draw_gradients(main);
        return;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float w = (avail.x - 2 * gap) / 3;
    struct Pane {
        HeatmapPanel* view;
        session::ShownSource* source;
        std::string title;
    };
    const std::string diff_title = std::string(tr("difference right − left")) + ": max |Δ| = " + [&] {
        char b[32];
        std::snprintf(b, sizeof b, "%.3g", max_abs_difference());
        return std::string(b);
    }();
    // BatchNorm: both sides run in the main mode; say which, since only train couples the samples.
    const core::NormSpec& spec = main.state().spec;
    const std::string mode =
        spec.method == core::Method::Batch && exp_->follow_method
            ? std::string("  ·  ") +
                  (spec.uses_batch_stats() ? tr("this batch's statistics (train)") : tr("running statistics (eval)"))
            : "";
    Pane panes[3] = {{left_view_.get(), &main, tr(exp_->left_label) + mode},
                     {right_view_.get(), right_shown_.get(), tr(exp_->right_label) + mode},
                     {diff_view_.get(), diff_.get(), diff_title}};
    left_view_->legend_label = "y";
    right_view_->legend_label = "y";
    diff_view_->legend_label = "Δ";
    for (int i = 0; i < 3; ++i) {
        if (i) ImGui::SameLine();
        ImGui::BeginChild(static_cast<ImGuiID>(3000 + i), ImVec2(w, avail.y), true, ImGuiWindowFlags_NoScrollbar);
        if (i == 2 && max_abs_difference() == 0.0)
            ImGui::TextColored(ImVec4(0.35f, 0.85f, 0.45f, 1), "%s  (%s)", panes[i].title.c_str(), tr("exactly 0"));
        else
            wrapped_text(panes[i].title);
        panes[i].view->clicked.reset();
        panes[i].view->draw(*panes[i].source);
        ImGui::EndChild();
    }
}

// The same y_k on both sides (the right side's index permuted when it is channels-last); a
// click on either side selects it on both. The dy choice follows whichever side changed it.
void PairView::draw_gradients(session::Session& main) {
    if (!left_grad_) {
        left_grad_ = std::make_unique<GradientView>(engine_, make_image_());
        right_grad_ = std::make_unique<GradientView>(engine_, make_image_());
    }
    const bool cl = exp_->right_channels_last;
    const auto to_right = [cl](core::Index4 i) { return cl ? core::Index4{i[0], i[2], i[3], i[1]} : i; };
    const auto to_left = [cl](core::Index4 i) { return cl ? core::Index4{i[0], i[3], i[1], i[2]} : i; };
    const core::Index4 sel = main.state().selection.value_or(core::Index4{0, 0, 0, 0});
    const core::Index4 right_sel = to_right(sel);
    bool synced = true;
    try {
        if (right_->shown().selection() != std::optional<core::Index4>(right_sel)) right_->select(right_sel);
    } catch (const core::InputError&) {  // the right side has fewer samples: it keeps its own selection
        synced = false;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float w = (avail.x - ImGui::GetStyle().ItemSpacing.x) / 2;
    struct Pane {
        GradientView* view;
        const core::State* state;
        session::ShownSource* source;
        const core::LocalText* label;
    };
    const Pane panes[2] = {{left_grad_.get(), &main.state(), &main, &exp_->left_label},
                           {right_grad_.get(), &right_state_, right_.get(), &exp_->right_label}};
    const auto choice = [](const GradientView& g) { return std::make_tuple(g.jacobian, g.dy, g.seed); };
    const auto before = choice(*left_grad_);
    for (int i = 0; i < 2; ++i) {
        if (i) ImGui::SameLine();
        ImGui::BeginChild(static_cast<ImGuiID>(3100 + i), ImVec2(w, avail.y), true, ImGuiWindowFlags_NoScrollbar);
        ImGui::PushID(i);
        ImGui::TextUnformatted(tr(*panes[i].label).c_str());
        panes[i].view->draw(*panes[i].state, *panes[i].source);
        ImGui::PopID();
        ImGui::EndChild();
    }
    // A click in the right pane selected an element of the right session: select it on the left.
    if (synced && right_->shown().selection() && *right_->shown().selection() != right_sel)
        main.select(to_left(*right_->shown().selection()));
    GradientView& from = choice(*left_grad_) != before ? *left_grad_ : *right_grad_;
    GradientView& to = &from == left_grad_.get() ? *right_grad_ : *left_grad_;
    to.jacobian = from.jacobian;
    to.dy = from.dy;
    to.seed = from.seed;
}

}  // namespace normlab::views
