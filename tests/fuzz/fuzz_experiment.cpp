// libFuzzer target: experiment_from_json on arbitrary text. Only InputError may escape; an
// experiment that loads carries its id in its view and has labels when it is a pair.
// Built by scripts/fuzz.sh (tests/fuzz/CMakeLists.txt).
#include "normlab/core/error.hpp"
#include "normlab/classroom/experiments.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    normlab::classroom::Experiment e;
    try {
        e = normlab::classroom::experiment_from_json(std::string(reinterpret_cast<const char*>(data), size),
                                                     "fuzz.json");
    } catch (const normlab::core::InputError&) {
        return 0;  // the expected way to refuse a file
    }
    if (e.id.empty() || e.view.experiment != e.id || e.title.en.empty()) std::abort();
    if (e.kind == normlab::classroom::ExperimentKind::Pair && (e.left_label.en.empty() || e.right_label.en.empty()))
        std::abort();
    return 0;
}
