#include "normlab/core/buffer_generation.hpp"

#include <atomic>

namespace normlab {

std::uint64_t next_buffer_generation() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
}

}  // namespace normlab
