#include "normlab/cpu/cpu_backend.hpp"

#include "normlab/core/error.hpp"
#include "normlab/cpu/cpu_histogram.hpp"

#include <algorithm>
#include <string>

namespace normlab::cpu {

const CpuBuffer& cpu_values(const plan::DeviceTensor& t) {
    const auto* c = dynamic_cast<const CpuTensor*>(&t);
    if (!c) throw core::InternalError("a device tensor of another backend reached the CPU backend");
    return c->buffer();
}

CpuBackend::CpuBackend(std::string name, std::int64_t max_elements)
    : name_(std::move(name)),
      normalizer_(max_elements),
      sync_(normalizer_),
      backward_(normalizer_),
      x_(normalizer_.buffers().x),
      y_(normalizer_.buffers().y) {}

void CpuBackend::upload(const std::vector<plan::TensorUpload>& copies) {
    for (const plan::TensorUpload& c : copies) {
        auto* t = dynamic_cast<CpuTensor*>(c.dst);
        if (!t || &t->buffer() != &t->own())
            throw core::InternalError("an upload to a device tensor this backend did not make");
        const auto n = static_cast<std::int64_t>(c.values->size());
        if (n > normalizer_.max_elements())
            throw core::InputError("a tensor of " + std::to_string(n) + " values is more than the CPU backend takes (" +
                                   std::to_string(normalizer_.max_elements()) + ")");
        t->own().ensure(c.values->size());
        std::copy(c.values->begin(), c.values->end(), t->own().data());
    }
}

plan::HistogramResult CpuBackend::histogram(const plan::DeviceTensor& values, const plan::ElementSet& set,
                                            std::uint32_t bins, const plan::DeviceTensor* subtract) {
    const CpuBuffer& v = cpu_values(values);
    const CpuBuffer* s = subtract ? &cpu_values(*subtract) : nullptr;
    return cpu_histogram(v.data(), v.size(), set, bins, s ? s->data() : nullptr, s ? s->size() : 0);
}

core::GradResult CpuBackend::backward(const core::Tensor& x, const core::Tensor& dy, const core::NormSpec& spec,
                                      const core::NormParams& params) {
    core::check_grad_shape(x.shape, dy.shape.dims());
    normalizer_.run(x, spec, params, plan::RunOptions{.reuse_x = false, .read_y = false});
    return backward_.run(dy);
}

}  // namespace normlab::cpu
