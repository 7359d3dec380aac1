#include "normlab/session/session.hpp"

#include "normlab/classroom/batch_sampler.hpp"
#include "normlab/core/error.hpp"
#include "normlab/io/image_file.hpp"
#include "normlab/reference/reference.hpp"
#include "normlab/session/state_edits.hpp"
#include "normlab/io/scene_file.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace normlab::session {

Session::Session(plan::ComputeBackend& backend) : backend_(&backend) {}

namespace {
// Whole-tensor histograms of larger tensors use every k-th element (at most this many), so a
// recompute of a 4M-element tensor stays within a frame budget; the view says so.
constexpr std::int64_t kHistogramSample = std::int64_t{1} << 20;
// Larger tensors are checked against the float64 reference on a background thread — where
// there are threads: a browser page without cross-origin isolation has none, and checks at once.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr std::int64_t kSyncReference = std::numeric_limits<std::int64_t>::max();
#else
constexpr std::int64_t kSyncReference = std::int64_t{1} << 20;
#endif
}  // namespace

plan::ElementSet Session::whole_set(const core::Shape4& shape, std::int64_t& stride) const {
    const std::int64_t n = shape.numel();
    stride = n > kHistogramSample ? (n + kHistogramSample - 1) / kHistogramSample : 1;
    if (stride == 1) return plan::ElementSet::whole(shape);
    plan::ElementSet set;
    set.segments = (n + stride - 1) / stride;
    set.segment_len = 1;
    set.segment_stride = stride;
    return set;
}

void Session::whole_histograms(Histograms& h, const plan::DeviceTensor& x, const plan::DeviceTensor& y,
                               const core::Shape4& shape, std::uint32_t bins, bool input_too) {
    const plan::ElementSet set = whole_set(shape, h.whole_stride);
    if (input_too) h.input = backend_->histogram(x, set, bins);
    h.output = backend_->histogram(y, set, bins);
    h.has_difference = false;
}

const plan::HistogramResult& Session::difference_histogram() { return fill_difference(shown_, bins_); }

const plan::HistogramResult& Session::fill_difference(ShownTensors& out, std::uint32_t bins) {
    Histograms& h = out.histograms();
    if (!h.has_difference) {
        std::int64_t stride = 1;
        h.difference = backend_->histogram(out.y_device(), whole_set(out.x().shape, stride), bins, &out.x_device());
        h.has_difference = true;
    }
    return h.difference;
}

void Session::fill_whole_histograms(ShownTensors& out, std::uint32_t bins) {
    whole_histograms(out.histograms(), out.x_device(), out.y_device(), out.x().shape, bins, true);
}

void Session::fill_group_histograms(ShownTensors& out, std::uint32_t bins) {
    Histograms& h = out.histograms();
    auto s = out.selected_stat();
    h.has_group = s.has_value();
    if (!s) return;
    plan::ElementSet set = plan::ElementSet::statistic(out.layout(), *s);
    h.group_input = backend_->histogram(out.x_device(), set, bins);
    h.group_output = backend_->histogram(out.y_device(), set, bins);
}

double Session::max_error() const {
    if (max_error_pending_.valid()) {
        if (max_error_pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nan("");
        max_error_ = max_error_pending_.get();
    }
    return max_error_;
}

double Session::max_error_wait() const {
    if (max_error_pending_.valid()) max_error_ = max_error_pending_.get();
    return max_error_;
}

std::optional<std::string> Session::apply(core::State next, TensorChange change) {
    // A handed-out exercise: an edit may not change what it locks (the exercise itself, which
    // the teacher's Exercise window edits, is not one of the parts it locks).
    if (auto c = core::locked_change(state_, next))
        return std::string(core::control_name(*c)) + " is locked in this exercise";
    return recompute(std::move(next), std::move(change));
}

std::optional<std::string> Session::replace(core::State next, TensorChange change) {
    return recompute(std::move(next), std::move(change));
}

// Whether x stays as it is (and where it is): keep(), or the same generated source again (not a
// file, which may have changed on disk) instead of drawing 4M random numbers again.
bool Session::keeps_x(const TensorChange& change, const core::State& next) const {
    if (generation_ == 0) return false;  // no x yet
    if (change.kind == TensorChange::Kind::Keep) return true;
    return change.kind == TensorChange::Kind::FromSource && core::same_source(next.source, state_.source) &&
           next.source.kind != core::TensorSource::Kind::File && next.source.kind != core::TensorSource::Kind::Image;
}

// The heatmap and histogram shaders bind x and y whole: the app shows tensors up to one
// storage-buffer binding (normlab-cli goes further, in slabs).
void Session::check_binding_limit(const core::Shape4& shape) const {
    const std::uint64_t limit = backend_->max_binding_bytes();
    if (static_cast<std::uint64_t>(shape.numel()) * 4 > limit)
        throw core::InputError("the app shows tensors of at most " + std::to_string(limit / 4) +
                               " elements (one storage buffer of " + std::to_string(limit >> 20) + " MiB); " +
                               shape.str() + " has " + std::to_string(shape.numel()) +
                               " - use normlab-cli for larger tensors");
}

// AdaIN: the style's statistics from the shaders, then an affine InstanceNorm with γ = σ_s,
// β = μ_s (the state keeps its own γ/β). The statistics of the style already shown are reused:
// computing them runs the normalizer on the style, which replaces x on the device.
Session::Styled Session::styled(const core::State& next, const core::Tensor& x) {
    Styled out{std::nullopt, {}, next.spec, next.params, false};
    if (next.style_image.empty()) return out;
    const double eps = next.spec.effective_eps();
    if (next.style_image == state_.style_image && style_ && style_eps_ == eps) {
        out.style = *style_;
        out.stats = style_stats_;
    } else {
        out.style = io::load_image(next.style_image);
    }
    io::check_style_channels(x.shape, out.style->shape,
                             next.source.kind == core::TensorSource::Kind::Image ? "the content image" : "the input");
    if (out.stats.mean.empty()) {
        out.stats = plan::style_statistics(*backend_, *out.style, next.spec);
        out.ran_on_device = true;
    }
    plan::apply_style(out.stats, out.spec, out.params);
    return out;
}

// The float64 check: at once for small tensors, on a background thread for large ones.
void Session::check_reference(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                              const std::vector<float>& y) {
    if (max_error_pending_.valid()) max_error_pending_.get();  // finish (and drop) the previous tensor's check
    if (!reference_check_) {
        max_error_ = std::nan("");
    } else if (x.shape.numel() <= kSyncReference) {
        max_error_ = reference::reference_error(x, spec, params, y);
    } else {
        max_error_pending_ = std::async(std::launch::async, [x = x, spec = spec, params = params, y = y]() {
            return reference::reference_error(x, spec, params, y);
        });
    }
}

std::optional<std::string> Session::recompute(core::State next, TensorChange change) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool timing = std::getenv("NORMLAB_APP_TIMING") != nullptr;
    auto lap = [&, t = t0](const char* what) mutable {
        auto now = std::chrono::steady_clock::now();
        if (timing)
            std::fprintf(stderr, "  %s: %.1f ms\n", what, std::chrono::duration<double, std::milli>(now - t).count());
        t = now;
    };
    try {
        if (change.kind == TensorChange::Kind::Keep && generation_ > 0 &&
            !core::same_source(next.source, state_.source))
            throw core::InternalError("an edit that keeps the tensor changed its source");
        if (next.spec.method != core::Method::Instance) next.style_image.clear();  // AdaIN is InstanceNorm's
        const bool keep = keeps_x(change, next);
        std::optional<core::Tensor> loaded;  // the new x; none: x_ stays, on the device too
        if (!keep) loaded = change.x ? std::move(*change.x) : io::load_tensor(next.source, next.spec.method);
        const core::Tensor& nx = loaded ? *loaded : x_;
        check_binding_limit(nx.shape);
        const core::StatLayout layout = core::make_layout(next.spec, nx.shape);  // throws what the engine refuses
        next = fitted_to_tensor(std::move(next), layout);
        lap("load tensor");
        backend_->wait_idle();  // frames in flight may still read x and y on the GPU
        Styled st = styled(next, nx);
        // The same x as now stays on the device; y is read back once for the numbers the
        // panels print (hover, explain, exports) and the float64 check, never uploaded again.
        // (SyncBN: the Vulkan backend runs the shards, the all-reduce and each mode's apply.)
        const bool reuse_x = keep && !st.ran_on_device;
        core::NormResult r =
            backend_->normalize(nx, st.spec, st.params, plan::RunOptions{.reuse_x = reuse_x, .read_y = true});
        const std::uint64_t upload = reuse_x ? 0 : static_cast<std::uint64_t>(nx.data.size()) * 4;
        lap("normalize (GPU + transfers)");
        Histograms h;
        if (keep) {
            h.input = histograms().input;
            h.whole_stride = histograms().whole_stride;
        }
        whole_histograms(h, x_device(), y_device(), nx.shape, bins_, !keep);
        if (timing)
            std::fprintf(stderr, "  x upload: %llu bytes (x histogram %s)\n  histogram GPU ms: %.1f %.1f\n",
                         static_cast<unsigned long long>(upload), keep ? "kept" : "recomputed", h.input.gpu_ms,
                         h.output.gpu_ms);
        lap("histograms");
        check_reference(nx, st.spec, st.params, r.y.data);
        lap("CPU reference (started)");
        state_ = std::move(next);
        if (loaded) x_ = std::move(*loaded);
        result_ = std::move(r);
        style_ = std::move(st.style);
        style_stats_ = std::move(st.stats);
        style_eps_ = state_.spec.effective_eps();
        shown_.histograms() = std::move(h);
        x_upload_bytes_ = upload;
        x_histogram_recomputed_ = !keep;
        if (!keep) ++x_generation_;
    } catch (const core::InputError& e) {
        return std::string(e.what());
    }
    ++generation_;
    publish();
    compute_group_histograms();
    recompute_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return std::nullopt;
}

std::optional<std::int64_t> Session::selected_stat() const { return shown_.selected_stat(); }

void Session::select(const std::optional<core::Index4>& element) {
    if (element) validate_selection(element, x_.shape);
    auto before = selected_stat();
    state_.selection = element;
    shown_.set_selection(element);
    if (selected_stat() != before) compute_group_histograms();
}

void Session::select_statistic(std::int64_t s) {
    if (s < 0 || s >= layout().stat_count) return;
    auto idx = core::unravel(x_.shape, layout().element_offset(s, 0));
    select(core::Index4{idx[0], idx[1], idx[2], idx[3]});
}

void Session::set_bins(std::uint32_t bins) {
    if (bins == bins_) return;
    bins_ = bins;
    fill_whole_histograms(shown_, bins_);
    compute_group_histograms();
}

std::optional<std::string> Session::train_step() {
    if (state_.spec.method != core::Method::Batch)
        return std::string("train step: only BatchNorm has running statistics");
    if (state_.exercise.locks(core::Control::RunningStats))
        return std::string("running_stats is locked in this exercise");
    if (!population_ || population_generation_ != generation_) population_ = x_;
    core::State next = state_;
    const core::Mode user_mode = next.spec.mode;
    next.spec.mode = core::Mode::Train;
    ++batch_seed_;
    core::Tensor batch = classroom::sample_like(*population_, batch_seed_);
    if (auto err = recompute(next, TensorChange::given(std::move(batch)))) return err;
    // Keep the running statistics the shader-computed batch produced.
    auto to_float = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
    core::State kept = state_;
    kept.params.running_mean = to_float(result_.running_mean);
    kept.params.running_var = to_float(result_.running_var);
    kept.params.num_batches_tracked = result_.num_batches_tracked;
    kept.spec.mode = user_mode;
    auto err = recompute(kept, TensorChange::keep());
    population_generation_ = generation_;
    return err;
}

void Session::publish() {
    shown_.borrow(x_, result_, x_device(), y_device(), state_.spec.method, false);
    shown_.set_selection(state_.selection);
    shown_.set_generation(generation_);
}

// The engine's runs for display objects leave their own tensors in the backend's x and y
// (re-created when larger): this session's x and y go back there afterwards, and views binding
// the buffers bind them again when they were re-created.
template <class Run>
auto Session::on_engine(Run&& run) {
    backend_->wait_idle();  // frames in flight may still read the buffers the run replaces
    const std::uint64_t x_before = x_device().identity(), y_before = y_device().identity();
    auto restore = [&] {
        if (generation_ == 0) return;
        backend_->load_values(x_, result_.y);
        if (x_device().identity() != x_before || y_device().identity() != y_before) shown_.new_buffer_epoch();
    };
    try {
        auto out = run();
        restore();
        return out;
    } catch (...) {
        restore();
        throw;
    }
}

void Session::fill_owned(ShownTensors& out, core::Tensor x, core::NormResult r, core::Method method, bool values_only,
                         std::uint32_t bins) {
    if (x.shape != r.y.shape || x.data.size() != r.y.data.size())
        throw core::InputError("shown values: x " + x.shape.str() + " and y " + r.y.shape.str() + " differ in shape");
    check_binding_limit(x.shape);
    backend_->wait_idle();  // frames in flight may still read out's buffers
    for (auto* t : {&out.own_x_device(), &out.own_y_device()})
        if (!*t) *t = backend_->make_tensor();
    backend_->upload({{out.own_x_device().get(), &x.data}, {out.own_y_device().get(), &r.y.data}});
    out.own(std::move(x), std::move(r), method, values_only);
    out.set_selection(std::nullopt);
    out.histograms() = Histograms{};
    fill_whole_histograms(out, bins);
    out.set_generation(out.generation() + 1);
}

void Session::fill_values(ShownTensors& out, core::Tensor x, core::Tensor y, const core::StatLayout& layout,
                          core::Method method, std::uint32_t bins) {
    core::NormResult r;
    r.layout = layout;
    r.y = std::move(y);
    fill_owned(out, std::move(x), std::move(r), method, true, bins);
}

std::optional<std::string> Session::fill_normalized(ShownTensors& out, const core::State& st, const core::Tensor& x,
                                                    std::uint32_t bins) {
    try {
        check_binding_limit(x.shape);
        const core::State fitted =
            fitted_to_tensor(st, core::make_layout(st.spec, x.shape));  // throws what the engine refuses
        core::NormResult r = on_engine([&] {
            return backend_->normalize(x, fitted.spec, fitted.params,
                                       plan::RunOptions{.reuse_x = false, .read_y = true});
        });
        fill_owned(out, x, std::move(r), fitted.spec.method, false, bins);
    } catch (const core::InputError& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

core::GradResult Session::backward(const core::State& st, const core::Tensor& x, const core::Tensor& dy) {
    return on_engine([&] { return backend_->backward(x, dy, st.spec, st.params); });
}

std::optional<std::string> Session::reset_running() { return apply(with_running_reset(state_), TensorChange::keep()); }

}  // namespace normlab::session
