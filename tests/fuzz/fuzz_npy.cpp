// libFuzzer target: parse_npy on arbitrary bytes. Any exception other than InputError, any
// crash, leak or sanitizer report is a finding. Built by scripts/fuzz.sh.
#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"
#include "normlab/core/shape.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        normlab::io::NpyArray a = normlab::io::parse_npy(bytes, "fuzz.npy");
        // What the reader promises: the element count matches the shape and the data.
        std::int64_t n = 1;
        for (auto d : a.shape) {
            if (d <= 0) std::abort();
            n *= d;
        }
        if (static_cast<std::size_t>(n) != a.data.size()) std::abort();
        if (a.shape.size() == 4) (void)normlab::core::Shape4::from_dims(a.shape);  // what load_tensor does next
    } catch (const normlab::core::InputError&) {
        // the expected way to refuse a file
    }
    return 0;
}
