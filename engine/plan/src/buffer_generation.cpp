#include "normlab/plan/buffer_generation.hpp"

#include <atomic>

namespace normlab::plan {

std::uint64_t next_buffer_generation() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
}

}  // namespace normlab::plan
