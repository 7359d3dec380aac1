// ShownTensors: what a heatmap or histogram view shows — host x and y (the numbers tooltips and
// cell labels print), the device buffers the heatmap and histogram shaders read, the StatLayout,
// the NormResult (statistics; values_only() for two given tensors shown without any), the method
// whose words describe it, the histograms, the selection and a generation that changes whenever
// the tensors or statistics do. A Session fills them: its own one borrows its x, its result and
// the backend's device tensors (no copy); one a secondary view holds (ShownValues) owns its tensors
// and device buffers. ShownSource is what a view may ask of whoever fills one.
#pragma once
#include "normlab/plan/compute_backend.hpp"
#include "normlab/core/norm_params.hpp"
#include "normlab/core/state.hpp"

#include <cstdint>
#include <memory>
#include <optional>

namespace normlab::session {

struct Histograms {
    plan::HistogramResult input, output;  // whole tensor (every whole_stride-th element)
    plan::HistogramResult difference;     // whole tensor, y − x (computed when first asked for)
    bool has_difference = false;
    std::int64_t whole_stride = 1;                    // > 1: large tensors are sampled evenly
    plan::HistogramResult group_input, group_output;  // the selected statistic's elements
    bool has_group = false;
};

class ShownTensors {
public:
    ShownTensors() = default;
    ShownTensors(const ShownTensors&) = delete;  // a borrowed one points into its owner
    ShownTensors& operator=(const ShownTensors&) = delete;

    bool empty() const { return x_ == nullptr; }
    const core::Tensor& x() const { return *x_; }
    const core::Tensor& y() const { return result_->y; }
    const core::NormResult& result() const { return *result_; }
    const core::StatLayout& layout() const { return result_->layout; }
    bool values_only() const { return values_only_; }
    core::Method method() const { return method_; }
    const plan::DeviceTensor& x_device() const { return *x_dev_; }
    const plan::DeviceTensor& y_device() const { return *y_dev_; }
    const Histograms& histograms() const { return hist_; }
    const std::optional<core::Index4>& selection() const { return selection_; }
    std::optional<std::int64_t> selected_stat() const;
    std::uint64_t generation() const { return generation_; }
    // Changes when the device buffers were re-created with the same contents (a view binding
    // them binds them again).
    std::uint64_t buffer_epoch() const { return buffer_epoch_; }

    // Filling (Session): what is shown is the owner's (kept alive and unmoved by it) or this
    // object's own; own_x_device()/own_y_device() are the device tensors an owned one is uploaded
    // to (made by the backend when first needed).
    void borrow(const core::Tensor& x, const core::NormResult& r, const plan::DeviceTensor& x_dev,
                const plan::DeviceTensor& y_dev, core::Method m, bool values_only);
    void own(core::Tensor x, core::NormResult r, core::Method m, bool values_only);
    std::unique_ptr<plan::DeviceTensor>& own_x_device() { return own_x_dev_; }
    std::unique_ptr<plan::DeviceTensor>& own_y_device() { return own_y_dev_; }
    Histograms& histograms() { return hist_; }
    void set_selection(const std::optional<core::Index4>& s) { selection_ = s; }
    void set_generation(std::uint64_t g) { generation_ = g; }
    void new_buffer_epoch() { ++buffer_epoch_; }

private:
    const core::Tensor* x_ = nullptr;
    const core::NormResult* result_ = nullptr;
    const plan::DeviceTensor *x_dev_ = nullptr, *y_dev_ = nullptr;
    core::Method method_ = core::Method::Batch;
    bool values_only_ = false;
    Histograms hist_;
    std::optional<core::Index4> selection_;
    std::uint64_t generation_ = 0, buffer_epoch_ = 0;
    core::Tensor own_x_;
    core::NormResult own_result_;
    std::unique_ptr<plan::DeviceTensor> own_x_dev_, own_y_dev_;
};

// What a view may ask of whoever fills the ShownTensors it shows: another selection (nullopt:
// none; the selected statistic's histograms follow), and the y − x histogram of the whole tensor,
// computed the first time a difference heatmap needs its range.
class ShownSource {
public:
    virtual ~ShownSource() = default;
    virtual const ShownTensors& shown() const = 0;
    virtual void select(const std::optional<core::Index4>& element) = 0;
    virtual const plan::HistogramResult& difference_histogram() = 0;
};

}  // namespace normlab::session
