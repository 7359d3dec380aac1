// libFuzzer target: lesson_from_json on arbitrary text. Only InputError may escape.
// Built by scripts/fuzz.sh (tests/fuzz/CMakeLists.txt).
#include "normlab/core/error.hpp"
#include "normlab/classroom/lesson.hpp"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        normlab::classroom::Lesson l =
            normlab::classroom::lesson_from_json(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
        (void)l;
    } catch (const normlab::core::InputError&) {
        // the expected way to refuse a file
    }
    return 0;
}
