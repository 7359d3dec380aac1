#include "normlab/train/texture_rng.hpp"

#include <cmath>
#include <numbers>

namespace normlab {

double TrainRng::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u1 = uniform(), u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(1.0 - u1));  // 1 − u1 ∈ (0, 1]: log never sees 0
    spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace normlab
