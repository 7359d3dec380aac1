// Session: the State the user asked for and everything the engine computed from it — the
// tensor, its StatLayout, the forward's result (every number the panels show), the
// max error against the CPU reference (for tensors over 1M elements checked on a background
// thread, so a recompute does not wait for it), and the histograms (over 1M elements, an
// even sample). It runs on one ComputeBackend (compute_backend.hpp: Vulkan on the desktop,
// WebGPU in the browser), which it does not own. x and y stay on the device in the backend's own
// buffers, which the heatmap and histogram kernels read: nothing goes GPU → CPU → GPU, and a
// change of method, G, eps or γ/β does not upload x again. It recomputes only in apply(); a
// State the engine rejects leaves the previous one in place and returns the reason. What the
// views show of it is its ShownTensors (shown(), borrowing x, the result and the backend's device
// tensors); it also fills the display objects secondary views hold (ShownValues) on the same
// backend, so the app has one Normalizer, one SyncBN and one Histogram.
#pragma once
#include "normlab/plan/adain.hpp"
#include "normlab/plan/compute_backend.hpp"
#include "normlab/session/shown_tensors.hpp"
#include "normlab/core/state.hpp"

#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace normlab::session {

// What an edit does to the tensor x. keep(): x stays as it is, on the device too — nothing is
// copied, uploaded or histogrammed again (the edit must not change the state's source);
// from_source(): x is loaded from the new state's source (a generated tensor whose source did
// not change is kept as with keep(); a file or an image is read again); given(x): this tensor.
struct TensorChange {
    enum class Kind { Keep, FromSource, Given };
    Kind kind = Kind::Keep;
    std::optional<core::Tensor> x;  // Given

    static TensorChange keep() { return {}; }
    static TensorChange from_source() { return {Kind::FromSource, std::nullopt}; }
    static TensorChange given(core::Tensor t) { return {Kind::Given, std::move(t)}; }
};

class Session : public ShownSource {
public:
    explicit Session(plan::ComputeBackend& backend);

    // An edit: normalizes `next` with the tensor `change` says and refreshes everything.
    // Returns the error message (and keeps the previous state) when the engine rejects it,
    // when it changes a part of the state the current exercise locks, or when keep() comes
    // with a changed source.
    std::optional<std::string> apply(core::State next, TensorChange change);
    // A new state as a whole (a loaded or pasted scene, a lesson step, an experiment): as
    // apply(), but `next` and its exercise replace the current ones whatever that one locks.
    std::optional<std::string> replace(core::State next, TensorChange change);
    // Selects an element (or none); only the group histograms are recomputed.
    void select(const std::optional<core::Index4>& element) override;
    // Selects the first element of statistic s.
    void select_statistic(std::int64_t s);
    void set_bins(std::uint32_t bins);
    // Off: apply() skips the float64 check and max_error() is NaN (normlab-cli --no-reference).
    void set_reference_check(bool on) { reference_check_ = on; }
    // BatchNorm: draws a fresh batch (same shape, each channel with the current tensor's
    // channel mean and std, next seed), normalizes it in train mode and keeps the updated
    // running statistics in the state. The state's source still names the original tensor.
    std::optional<std::string> train_step();
    // BatchNorm: running mean 0, running var 1, num_batches_tracked 0.
    std::optional<std::string> reset_running();

    const core::State& state() const { return state_; }
    // AdaIN (state().style_image with the method instance): the style tensor and its statistics
    // (from the shaders); nullopt without a style.
    const std::optional<core::Tensor>& style() const { return style_; }
    const plan::StyleStats& style_stats() const { return style_stats_; }
    const core::Tensor& x() const { return x_; }
    const core::NormResult& result() const { return result_; }
    const core::StatLayout& layout() const { return result_.layout; }
    std::optional<std::int64_t> selected_stat() const;
    const Histograms& histograms() const { return shown_.histograms(); }
    // The y − x histogram of the whole tensor (only the difference heatmap needs it).
    const plan::HistogramResult& difference_histogram() override;
    // What the views show of this session: x, y, their device buffers, the result, the histograms.
    const ShownTensors& shown() const override { return shown_; }
    std::uint32_t bins() const { return bins_; }
    // max |y − reference|; NaN while the check of a large tensor still runs in the background.
    double max_error() const;
    double max_error_wait() const;                         // waits for that check
    double recompute_ms() const { return recompute_ms_; }  // wall time of the last apply()
    const plan::DeviceTensor& x_device() const { return backend_->x_device(); }
    const plan::DeviceTensor& y_device() const { return backend_->y_device(); }
    // Bytes of x uploaded to the device by the last apply() (0 when x stayed there), and
    // whether that apply() histogrammed x again (false when x stayed).
    std::uint64_t last_x_upload_bytes() const { return x_upload_bytes_; }
    bool last_x_histogram_recomputed() const { return x_histogram_recomputed_; }
    // Changes whenever x, y or the statistics change, so views know when to refresh.
    std::uint64_t generation() const { return generation_; }
    // Changes only when x itself changes (a new tensor, a train step's batch).
    std::uint64_t x_generation() const { return x_generation_; }
    const plan::ComputeBackend& backend() const { return *backend_; }

    // The engine, for the display objects secondary views hold (ShownValues). Each runs on this
    // session's backend and puts this session's own x and y back on the device afterwards;
    // nothing of this session's state changes.
    // `out` shows two given tensors of one shape (its own device buffers), without statistics.
    void fill_values(ShownTensors& out, core::Tensor x, core::Tensor y, const core::StatLayout& layout,
                     core::Method method, std::uint32_t bins);
    // `out` shows `st` normalized on x (no float64 check); the engine's refusal, or nothing.
    std::optional<std::string> fill_normalized(ShownTensors& out, const core::State& st, const core::Tensor& x,
                                               std::uint32_t bins);
    // The whole tensor's, the selected statistic's and the y − x histograms of `out`.
    void fill_whole_histograms(ShownTensors& out, std::uint32_t bins);
    void fill_group_histograms(ShownTensors& out, std::uint32_t bins);
    const plan::HistogramResult& fill_difference(ShownTensors& out, std::uint32_t bins);
    // ∂L/∂x of `st` on x for dy (the backward kernels; throws InputError for what they refuse).
    core::GradResult backward(const core::State& st, const core::Tensor& x, const core::Tensor& dy);

private:
    // AdaIN's part of a recompute: the style, its statistics and the spec/params to run.
    struct Styled {
        std::optional<core::Tensor> style;
        plan::StyleStats stats;
        core::NormSpec spec;
        core::NormParams params;
        bool ran_on_device = false;  // the style's statistics were computed now (x left the device)
    };
    std::optional<std::string> recompute(core::State next, TensorChange change);
    bool keeps_x(const TensorChange& change, const core::State& next) const;
    void check_binding_limit(const core::Shape4& shape) const;
    Styled styled(const core::State& next, const core::Tensor& x);
    void check_reference(const core::Tensor& x, const core::NormSpec& spec, const core::NormParams& params,
                         const std::vector<float>& y);
    void compute_group_histograms() { fill_group_histograms(shown_, bins_); }
    void whole_histograms(Histograms& h, const plan::DeviceTensor& x, const plan::DeviceTensor& y,
                          const core::Shape4& shape, std::uint32_t bins, bool input_too);
    void fill_owned(ShownTensors& out, core::Tensor x, core::NormResult r, core::Method method, bool values_only,
                    std::uint32_t bins);
    void publish();  // shown_ borrows x_, result_ and the Normalizer's buffers again
    template <class Run>
    auto on_engine(Run&& run);  // run(), then x_ and result_.y back in the backend's x and y
    plan::ElementSet whole_set(const core::Shape4& shape, std::int64_t& stride) const;

    plan::ComputeBackend* backend_;
    core::State state_;
    core::Tensor x_;
    core::NormResult result_;
    std::optional<core::Tensor> style_;  // AdaIN's style image, as loaded for state_
    plan::StyleStats style_stats_;
    double style_eps_ = 0.0;  // the ε style_stats_ were computed with
    ShownTensors shown_;      // its histograms are the session's
    std::uint32_t bins_ = 40;
    mutable double max_error_ = 0.0;
    mutable std::future<double> max_error_pending_;  // the reference check of a large tensor
    double recompute_ms_ = 0.0;
    std::uint64_t x_upload_bytes_ = 0;
    bool x_histogram_recomputed_ = false;
    std::uint64_t generation_ = 0;
    std::uint64_t x_generation_ = 0;
    bool reference_check_ = true;
    // train_step: the tensor fresh batches imitate, and the generation it was taken at
    // (a state change made elsewhere starts a new population).
    std::optional<core::Tensor> population_;
    std::uint64_t population_generation_ = ~0ull;
    std::uint64_t batch_seed_ = 1000;
};

}  // namespace normlab::session
