// check_grad_shape: the grad-output shape check every backward and the CLI make.
#include "normlab/core/grad.hpp"

#include "normlab/core/error.hpp"

namespace normlab::core {

void check_grad_shape(const Shape4& input, const std::vector<std::int64_t>& grad_dims) {
    const auto d = input.dims();
    const std::vector<std::int64_t> want(d.begin(), d.end());
    if (grad_dims != want)
        throw InputError("--grad-output has shape " + dims_str(grad_dims) + ", the input has shape " + dims_str(want) +
                         "; they must be equal");
}

}  // namespace normlab::core
