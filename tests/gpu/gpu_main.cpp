// Catch2 runner for the GPU tests: fails the run when the Vulkan validation layer
// (NORMLAB_VALIDATION=1, set by ctest) reported any message.
#include "../catch_runner.hpp"
#include "../support.hpp"

#include <cstdio>

int main(int argc, char** argv) {
    int result = normlab::test::run_catch(argc, argv);
    if (normlab::test::context_created()) {
        auto& ctx = normlab::test::context();
        if (ctx.validation_messages() > 0) {
            std::fprintf(stderr, "FAILED: %llu Vulkan validation messages\n",
                         static_cast<unsigned long long>(ctx.validation_messages()));
            result = 1;
        }
    }
    normlab::test::shutdown();
    return result;
}
