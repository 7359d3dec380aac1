// The one mapping from an error to an exit status and its `error:` line (normlab/core/error.hpp).
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"

#include <cstdio>
#include <new>
#include <string>
#include <unistd.h>

using namespace normlab;

namespace {

// report_exception's status and what it wrote on stderr.
std::pair<int, std::string> reported(std::exception_ptr e) {
    std::fflush(stderr);
    std::FILE* tmp = std::tmpfile();
    REQUIRE(tmp);
    const int saved = dup(fileno(stderr));
    dup2(fileno(tmp), fileno(stderr));
    const int status = core::report_exception(e);
    std::fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    std::string text(256, '\0');
    std::rewind(tmp);
    text.resize(std::fread(text.data(), 1, text.size(), tmp));
    std::fclose(tmp);
    return {status, text};
}

template <class E>
std::pair<int, std::string> reported(const E& e) {
    return reported(std::make_exception_ptr(e));
}

}  // namespace

TEST_CASE("each kind of error has its exit status and one error: line", "[error]") {
    CHECK(reported(core::InputError("bad")) == std::pair<int, std::string>{core::kExitInput, "error: bad\n"});
    CHECK(reported(core::DeviceError("gone")) == std::pair<int, std::string>{core::kExitDevice, "error: gone\n"});
    CHECK(reported(std::bad_alloc()) == std::pair<int, std::string>{core::kExitInput, "error: out of memory\n"});
    CHECK(reported(std::runtime_error("odd")) == std::pair<int, std::string>{core::kExitFailure, "error: odd\n"});
    // A broken invariant is normlab's bug, not the user's input: exit 1 and a request to report it.
    CHECK(reported(core::InternalError("a slab exceeds the storage-buffer range")) ==
          std::pair<int, std::string>{
              core::kExitFailure, "error: internal error: a slab exceeds the storage-buffer range, please report\n"});
    CHECK(reported(std::exception_ptr()).first == core::kExitOk);
}
