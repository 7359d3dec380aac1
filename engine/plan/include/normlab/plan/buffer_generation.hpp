// Buffer generations: every device buffer a backend creates takes a new number, never reused in
// the process, so "was this buffer re-created?" is a comparison of numbers. A handle value cannot
// answer it: a driver may hand a freed buffer's handle to the next one it creates.
#pragma once
#include <cstdint>

namespace normlab::plan {

// A number no buffer of this process had before (1, 2, 3, …; 0 is "no buffer"). Thread-safe.
std::uint64_t next_buffer_generation();

}  // namespace normlab::plan
