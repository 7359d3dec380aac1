// The cache folder and the frame of every cache entry (cache_file.hpp).
#include "normlab/gpu/cache_file.hpp"

#include "normlab/io/atomic_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace normlab::gpu {
namespace {

constexpr std::size_t kMagicBytes = 8;
constexpr std::size_t kHeaderBytes = kMagicBytes + 16 + 8 + 16;
constexpr std::uint64_t kMaxEntryBytes = 256ull << 20;  // a larger file is not one of ours

bool env_set(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0;
}

// mkdir -p with mode 0700 (the XDG spec's mode for folders it creates); true when path is a folder.
bool make_dirs(const std::string& path) {
    for (std::size_t i = 1; i <= path.size(); ++i) {
        if (i < path.size() && path[i] != '/') continue;
        const std::string part = path.substr(0, i);
        if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
    }
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void put_u64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_u64(std::string_view in, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
    return v;
}

void put_digest(std::string& out, const Digest& d) {
    put_u64(out, d.a);
    put_u64(out, d.b);
}

}  // namespace

std::optional<std::string> cache_directory() {
    if (env_set("NORMLAB_NO_CACHE")) return std::nullopt;
    std::string base;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/') {
        base = x;
    } else if (const char* h = std::getenv("HOME"); h && *h) {
        base = std::string(h) + "/.cache";
    } else {
        return std::nullopt;
    }
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    std::string dir = base + "/normlab";
    if (!make_dirs(dir)) return std::nullopt;
    return dir;
}

std::string Digest::hex() const {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (std::uint64_t v : {a, b})
        for (int i = 15; i >= 0; --i) out.push_back(digits[(v >> (4 * i)) & 0xf]);
    return out;
}

void Hasher::mix(std::string_view bytes) {
    // Lane a: FNV-1a; lane b: a multiply-xorshift over the same bytes (independent enough for
    // naming cache entries; a collision would need both to collide).
    for (unsigned char c : bytes) {
        a_ = (a_ ^ c) * 0x100000001b3ull;
        b_ = (b_ ^ c) * 0xff51afd7ed558ccdull;
        b_ ^= b_ >> 31;
    }
}

Hasher& Hasher::add(std::string_view bytes) {
    add(static_cast<std::uint64_t>(bytes.size()));
    mix(bytes);
    return *this;
}

Hasher& Hasher::add(std::uint64_t value) {
    char buf[8];
    for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((value >> (8 * i)) & 0xff);
    mix(std::string_view(buf, 8));
    return *this;
}

std::string frame_cache_entry(std::string_view magic, const Digest& key, std::string_view payload) {
    std::string out(magic.substr(0, kMagicBytes));
    out.resize(kMagicBytes, '\0');
    put_digest(out, key);
    put_u64(out, payload.size());
    put_digest(out, Hasher().add(payload).digest());
    out.append(payload);
    return out;
}

std::optional<std::string> unframe_cache_entry(std::string_view file, std::string_view magic, const Digest& key) {
    if (file.size() < kHeaderBytes) return std::nullopt;
    std::string want(magic.substr(0, kMagicBytes));
    want.resize(kMagicBytes, '\0');
    if (file.substr(0, kMagicBytes) != want) return std::nullopt;
    if (Digest{get_u64(file, 8), get_u64(file, 16)} != key) return std::nullopt;
    if (get_u64(file, 24) != file.size() - kHeaderBytes) return std::nullopt;
    std::string_view payload = file.substr(kHeaderBytes);
    if (Digest{get_u64(file, 32), get_u64(file, 40)} != Hasher().add(payload).digest()) return std::nullopt;
    return std::string(payload);
}

std::optional<std::string> read_cache_entry(const std::string& path, std::string_view magic, const Digest& key) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;  // the usual miss, without an exception
    try {
        return unframe_cache_entry(io::read_file(path, kMaxEntryBytes), magic, key);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void write_cache_entry(const std::string& path, std::string_view magic, const Digest& key,
                       std::string_view payload) noexcept {
    try {
        io::write_file_atomic(path, frame_cache_entry(magic, key, payload));
    } catch (...) {
        // A full disk or a read-only folder: the next run compiles again.
    }
}

}  // namespace normlab::gpu
