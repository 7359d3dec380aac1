// Writes files so that readers only ever see the old or the complete new content: the data
// goes to a temporary file in the same folder, is flushed, then renamed over the target.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace normlab::io {

// Throws InputError("cannot write <path>: <reason>") and leaves any existing file intact.
void write_file_atomic(const std::string& path, std::string_view content);

// Reads a whole file; throws InputError("cannot read <path>: <reason>") or when it is larger
// than max_bytes.
std::string read_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace normlab::io
