#include "session.hpp"

#include "gpu_upload.hpp"
#include "normlab/batch_sampler.hpp"
#include "normlab/error.hpp"
#include "normlab/reference.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace normlab::app {

Session::Session(const VulkanContext& ctx) : ctx_(&ctx), normalizer_(ctx), histogram_(ctx) {}

void Session::upload(GpuBuffer& dst, const std::vector<float>& values) {
    upload_buffer(*ctx_, dst, values.data(), values.size() * 4);
}

void Session::whole_histograms(Histograms& h, const Shape4& shape) {
    h.input = histogram_.run(x_gpu_, ElementSet::whole(shape), bins_);
    h.output = histogram_.run(y_gpu_, ElementSet::whole(shape), bins_);
    h.difference = histogram_.run(y_gpu_, ElementSet::whole(shape), bins_, &x_gpu_);
}

std::optional<std::string> Session::apply(State next, std::optional<Tensor> x) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        Tensor nx = x ? std::move(*x) : load_tensor(next.source);
        StatLayout layout = make_layout(next.spec, nx.shape);
        // γ/β and running statistics of another shape (the method or C changed) go back to defaults.
        auto fit = [](std::vector<float>& v, std::int64_t n) {
            if (!v.empty() && static_cast<std::int64_t>(v.size()) != n) v.clear();
        };
        fit(next.params.weight, layout.param_count);
        fit(next.params.bias, layout.param_count);
        fit(next.params.running_mean, nx.shape.c);
        fit(next.params.running_var, nx.shape.c);
        if (!next.spec.has_weight()) next.params.weight.clear();
        if (!next.spec.has_bias()) next.params.bias.clear();
        if (next.selection) {
            try {
                validate_selection(next.selection, nx.shape);
            } catch (const InputError&) {
                next.selection.reset();  // the tensor shrank under the selection
            }
        }
        const bool timing = std::getenv("NORMLAB_APP_TIMING") != nullptr;
        auto lap = [&, t = std::chrono::steady_clock::now()](const char* what) mutable {
            auto now = std::chrono::steady_clock::now();
            if (timing) std::fprintf(stderr, "  %s: %.1f ms\n", what, std::chrono::duration<double, std::milli>(now - t).count());
            t = now;
        };
        lap("load tensor");
        NormResult r = normalizer_.run(nx, next.spec, next.params);
        lap("normalize (GPU + transfers)");
        ctx_->device().waitIdle();  // frames in flight may still read x and y on the GPU
        upload(x_gpu_, nx.data);
        upload(y_gpu_, r.y.data);
        lap("upload x, y");
        Histograms h;
        whole_histograms(h, nx.shape);
        if (timing) std::fprintf(stderr, "  histogram GPU ms: %.1f %.1f %.1f\n", h.input.gpu_ms, h.output.gpu_ms, h.difference.gpu_ms);
        lap("histograms");
        ReferenceResult ref = reference_normalize(nx, next.spec, next.params);
        max_error_ = max_abs_error(r.y.data, ref.y);
        lap("CPU reference");
        state_ = std::move(next);
        values_only_ = false;
        x_ = std::move(nx);
        result_ = std::move(r);
        hist_ = std::move(h);
    } catch (const InputError& e) {
        return std::string(e.what());
    }
    compute_group_histograms();
    ++generation_;
    recompute_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return std::nullopt;
}

std::optional<std::int64_t> Session::selected_stat() const {
    if (!state_.selection) return std::nullopt;
    const auto& s = *state_.selection;
    return layout().stat_of(x_.offset(s[0], s[1], s[2], s[3]));
}

void Session::compute_group_histograms() {
    auto s = selected_stat();
    hist_.has_group = s.has_value();
    if (!s) return;
    ElementSet set = ElementSet::statistic(layout(), *s);
    hist_.group_input = histogram_.run(x_gpu_, set, bins_);
    hist_.group_output = histogram_.run(y_gpu_, set, bins_);
}

void Session::select(const std::optional<Index4>& element) {
    if (element) validate_selection(element, x_.shape);
    auto before = selected_stat();
    state_.selection = element;
    if (selected_stat() != before) compute_group_histograms();
}

void Session::select_statistic(std::int64_t s) {
    if (s < 0 || s >= layout().stat_count) return;
    auto idx = unravel(x_.shape, layout().element_offset(s, 0));
    select(Index4{idx[0], idx[1], idx[2], idx[3]});
}

void Session::set_bins(std::uint32_t bins) {
    if (bins == bins_) return;
    bins_ = bins;
    whole_histograms(hist_, x_.shape);
    compute_group_histograms();
}

std::optional<std::string> Session::train_step() {
    if (state_.spec.method != Method::Batch) return std::string("train step: only BatchNorm has running statistics");
    if (!population_ || population_generation_ != generation_) population_ = x_;
    State next = state_;
    const Mode user_mode = next.spec.mode;
    next.spec.mode = Mode::Train;
    ++batch_seed_;
    Tensor batch = sample_like(*population_, batch_seed_);
    if (auto err = apply(next, std::move(batch))) return err;
    // Keep the running statistics the shader-computed batch produced.
    auto to_float = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    State kept = state_;
    kept.params.running_mean = to_float(result_.running_mean);
    kept.params.running_var = to_float(result_.running_var);
    kept.params.num_batches_tracked = result_.num_batches_tracked;
    kept.spec.mode = user_mode;
    auto err = apply(kept, x_);
    population_generation_ = generation_;
    return err;
}

void Session::show_values(Tensor x, Tensor y, const StatLayout& layout) {
    ctx_->device().waitIdle();  // frames in flight may still read x and y on the GPU
    x_ = std::move(x);
    result_ = NormResult{};
    result_.layout = layout;
    result_.y = std::move(y);
    upload(x_gpu_, x_.data);
    upload(y_gpu_, result_.y.data);
    whole_histograms(hist_, x_.shape);
    state_.selection.reset();
    hist_.has_group = false;
    values_only_ = true;
    max_error_ = 0;
    ++generation_;
}

std::optional<std::string> Session::reset_running() {
    State next = state_;
    next.params.running_mean.clear();
    next.params.running_var.clear();
    next.params.num_batches_tracked = 0;
    return apply(next, x_);
}

}  // namespace normlab::app
