// Catch2 runner for the tests that need no Vulkan device.
#include "../catch_runner.hpp"

int main(int argc, char** argv) { return normlab::test::run_catch(argc, argv); }
