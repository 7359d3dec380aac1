// The one translation unit that holds Catch2's implementation (the longest compile of the tests).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_runner.hpp"

namespace normlab::test {

int run_catch(int argc, char** argv) { return Catch::Session().run(argc, argv); }

}  // namespace normlab::test
