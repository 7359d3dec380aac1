#include "normlab/session/shown_tensors.hpp"

namespace normlab::session {

std::optional<std::int64_t> ShownTensors::selected_stat() const {
    if (!selection_ || empty()) return std::nullopt;
    const auto& s = *selection_;
    return layout().stat_of(x().offset(s[0], s[1], s[2], s[3]));
}

void ShownTensors::borrow(const core::Tensor& x, const core::NormResult& r, const plan::DeviceTensor& x_dev,
                          const plan::DeviceTensor& y_dev, core::Method m, bool values_only) {
    x_ = &x;
    result_ = &r;
    x_dev_ = &x_dev;
    y_dev_ = &y_dev;
    method_ = m;
    values_only_ = values_only;
}

void ShownTensors::own(core::Tensor x, core::NormResult r, core::Method m, bool values_only) {
    own_x_ = std::move(x);
    own_result_ = std::move(r);
    borrow(own_x_, own_result_, *own_x_dev_, *own_y_dev_, m, values_only);
}

}  // namespace normlab::session
