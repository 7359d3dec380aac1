#include "normlab/io/atomic_file.hpp"

#include "normlab/core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace normlab::io {

void write_file_atomic(const std::string& path, std::string_view content) {
    auto fail = [&](const std::string& why) { throw core::InputError("cannot write " + path + ": " + why); };
    if (path.empty()) fail("empty path");
    std::string tmpl = path + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) fail(std::strerror(errno));
    // Test hook: NORMLAB_FAIL_WRITE_AFTER=N makes the write fail after N bytes, to show that
    // a failing write leaves the old file intact.
    std::size_t limit = content.size();
    if (const char* f = std::getenv("NORMLAB_FAIL_WRITE_AFTER"); f && *f)
        limit = std::min<std::size_t>(limit, std::strtoull(f, nullptr, 10));
    std::size_t done = 0;
    while (done < limit) {
        ssize_t n = ::write(fd, content.data() + done, limit - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            fail(std::strerror(e));
        }
        done += static_cast<std::size_t>(n);
    }
    if (done < content.size()) {
        ::close(fd);
        ::unlink(tmpl.c_str());
        fail("simulated write failure (NORMLAB_FAIL_WRITE_AFTER)");
    }
    // mkstemp makes the file 0600; give it what a plain create would (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    const int synced = ::fsync(fd) == 0 ? 0 : errno;
    const int closed = ::close(fd) == 0 ? 0 : errno;  // closed in every case
    if (synced || closed) {
        ::unlink(tmpl.c_str());
        fail(std::strerror(synced ? synced : closed));
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        int e = errno;
        ::unlink(tmpl.c_str());
        fail(std::strerror(e));
    }
}

std::string read_file(const std::string& path, std::uint64_t max_bytes) {
    auto fail = [&](const std::string& why) { throw core::InputError("cannot read " + path + ": " + why); };
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) fail(std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail("not a regular file");
    }
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
        ::close(fd);
        fail("file of " + std::to_string(st.st_size) + " bytes is larger than the " + std::to_string(max_bytes) +
             " bytes allowed");
    }
    std::string out(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < out.size()) {
        ssize_t n = ::read(fd, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    out.resize(done);
    return out;
}

}  // namespace normlab::io
