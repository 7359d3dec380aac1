// libFuzzer target: preset_from_json on arbitrary text. Only InputError may escape; a preset
// that loads holds a tensor of its shape within the size limit, and its method and γ/β fit
// that shape. Built by scripts/fuzz.sh (tests/fuzz/CMakeLists.txt).
#include "normlab/core/error.hpp"
#include "normlab/io/presets.hpp"
#include "normlab/core/stat_layout.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    normlab::io::Preset p;
    try {
        p = normlab::io::preset_from_json(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
    } catch (const normlab::core::InputError&) {
        return 0;  // the expected way to refuse a file
    }
    const std::int64_t n = p.x.shape.numel();
    if (n > normlab::io::kMaxPresetElements || static_cast<std::size_t>(n) != p.x.data.size()) std::abort();
    try {
        normlab::core::StatLayout layout = normlab::core::make_layout(p.spec, p.x.shape);
        p.params.validate(p.spec, layout);
    } catch (const normlab::core::InputError& e) {
        std::fprintf(stderr, "a loaded preset does not fit its own tensor: %s\n", e.what());
        std::abort();
    }
    return 0;
}
