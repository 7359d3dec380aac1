// Files that normlab keeps between runs to start faster (compiled SPIR-V, the Vulkan pipeline
// cache): where they live, and the frame around each one, so that a missing, truncated, corrupt
// or foreign file is recognised and rebuilt instead of used. Only an optimization: every
// failure here means "no cache", never an error.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace normlab::gpu {

// $XDG_CACHE_HOME/normlab (an absolute XDG_CACHE_HOME), else $HOME/.cache/normlab, created if
// needed; nullopt when NORMLAB_NO_CACHE is set (and not "0"), HOME is unset or the folder cannot
// be created. Read from the environment on every call.
std::optional<std::string> cache_directory();

// A 128-bit digest of a sequence of fields (not cryptographic; it names cache entries and checks
// their bytes). Each field is length-prefixed, so ("ab", "c") and ("a", "bc") differ.
struct Digest {
    std::uint64_t a = 0, b = 0;
    std::string hex() const;
    bool operator==(const Digest&) const = default;
};

class Hasher {
public:
    Hasher& add(std::string_view bytes);
    Hasher& add(std::uint64_t value);
    Digest digest() const { return {a_, b_}; }

private:
    void mix(std::string_view bytes);
    std::uint64_t a_ = 0xcbf29ce484222325ull, b_ = 0x9e3779b97f4a7c15ull;
};

// The file's bytes: an 8-character magic (the kind of entry and its format version), the key the
// entry was made for, the payload's length and digest, then the payload.
std::string frame_cache_entry(std::string_view magic, const Digest& key, std::string_view payload);
// The payload of a framed entry, or nullopt when the magic, key, length or digest differ.
std::optional<std::string> unframe_cache_entry(std::string_view file, std::string_view magic, const Digest& key);

// read_file + unframe_cache_entry; nullopt for a missing, unreadable or invalid file.
std::optional<std::string> read_cache_entry(const std::string& path, std::string_view magic, const Digest& key);
// Frames the payload and writes it with write_file_atomic (readers in other processes see the
// old file or the whole new one); a failed write is ignored.
void write_cache_entry(const std::string& path, std::string_view magic, const Digest& key,
                       std::string_view payload) noexcept;

}  // namespace normlab::gpu
