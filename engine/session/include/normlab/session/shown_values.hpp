// ShownValues: a display object a secondary view holds (the gradient's dy and ∂L/∂x, one of the
// compared methods, a side of a pair), filled on the main Session's engine — its Normalizer,
// SyncBN and Histogram — so the app has one of each. The engine's own x and y stay as they are.
#pragma once
#include "normlab/session/session.hpp"

namespace normlab::session {

class ShownValues : public ShownSource {
public:
    explicit ShownValues(Session& engine) : engine_(&engine) {}

    const ShownTensors& shown() const override { return shown_; }
    // Selects an element of the shown tensor (throws InputError outside it); the selected
    // statistic's histograms are computed again.
    void select(const std::optional<core::Index4>& element) override;
    const plan::HistogramResult& difference_histogram() override;
    std::uint32_t bins() const { return bins_; }
    void set_bins(std::uint32_t bins);

    // Two given tensors of one shape as x and y, without normalizing; `layout` colors the groups.
    void show(core::Tensor x, core::Tensor y, const core::StatLayout& layout, core::Method method);
    // `st` normalized on x by the engine (no float64 check); the engine's refusal, or nothing.
    std::optional<std::string> compute(const core::State& st, const core::Tensor& x);

private:
    Session* engine_;
    ShownTensors shown_;
    std::uint32_t bins_ = 40;
};

}  // namespace normlab::session
