// Catch2's implementation, compiled once (tests/catch_runner.cpp) for both test runners: the
// plain one (unit/unit_main.cpp) and the GPU one (gpu/gpu_main.cpp).
#pragma once

namespace normlab::test {

// Runs the Catch2 session on the command line; returns its exit status.
int run_catch(int argc, char** argv);

}  // namespace normlab::test
