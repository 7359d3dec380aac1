#include "normlab/plan/dispatch_grid.hpp"

#include "normlab/core/error.hpp"

#include <algorithm>
#include <string>

namespace normlab::plan {

DispatchGrid dispatch_grid(std::uint64_t groups, std::uint64_t max_x, std::uint64_t max_y) {
    max_x = std::max<std::uint64_t>(max_x, 1);
    max_y = std::max<std::uint64_t>(max_y, 1);
    groups = std::max<std::uint64_t>(groups, 1);
    DispatchGrid g;
    if (groups <= max_x) {
        g.x = static_cast<std::uint32_t>(groups);
        return g;
    }
    const std::uint64_t y = (groups + max_x - 1) / max_x;
    if (y > max_y)
        throw core::InputError("the tensor needs " + std::to_string(groups) +
                               " workgroups, more than the device can launch (" + std::to_string(max_x * max_y) + ")");
    g.x = static_cast<std::uint32_t>((groups + y - 1) / y);
    g.y = static_cast<std::uint32_t>(y);
    return g;
}

}  // namespace normlab::plan
