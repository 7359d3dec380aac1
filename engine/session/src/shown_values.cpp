#include "normlab/session/shown_values.hpp"

namespace normlab::session {

void ShownValues::select(const std::optional<core::Index4>& element) {
    if (shown_.empty()) return;
    if (element) validate_selection(element, shown_.x().shape);
    shown_.set_selection(element);
    engine_->fill_group_histograms(shown_, bins_);
}

const plan::HistogramResult& ShownValues::difference_histogram() { return engine_->fill_difference(shown_, bins_); }

void ShownValues::set_bins(std::uint32_t bins) {
    if (bins == bins_) return;
    bins_ = bins;
    if (shown_.empty()) return;
    engine_->fill_whole_histograms(shown_, bins_);
    engine_->fill_group_histograms(shown_, bins_);
}

void ShownValues::show(core::Tensor x, core::Tensor y, const core::StatLayout& layout, core::Method method) {
    engine_->fill_values(shown_, std::move(x), std::move(y), layout, method, bins_);
}

std::optional<std::string> ShownValues::compute(const core::State& st, const core::Tensor& x) {
    return engine_->fill_normalized(shown_, st, x, bins_);
}

}  // namespace normlab::session
