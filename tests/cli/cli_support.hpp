// Running normlab-cli from a test as a user would: a private temporary folder, the command's
// exit status, stdout and stderr, and small file and check helpers.
#pragma once
#include "normlab/io/npy.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace normlab::test {

namespace fs = std::filesystem;

struct Run {
    int status = -1;
    std::string out, err;
};

// One temporary folder per test process.
inline fs::path tmpdir() {
    static fs::path dir = [] {
        std::string t = (fs::temp_directory_path() / "normlab-cli-XXXXXX").string();
        return fs::path(mkdtemp(t.data()));
    }();
    return dir;
}

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary);
    out << bytes;
}

// A .npy file's bytes: float32 of `shape` (any rank) filled with a fixed, uneven pattern
// around `offset`.
inline std::string patterned_npy(const std::vector<std::int64_t>& shape, float offset = 0.0f) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = offset + static_cast<float>(i % 7) * 0.75f - static_cast<float>(i % 4);
    return normlab::io::npy_bytes_f32(shape, v.data());
}

// Runs normlab-cli (NORMLAB_CLI) with `args`, `env` assignments prepended.
inline Run cli(const std::string& args, const std::string& env = "") {
    fs::path o = tmpdir() / "stdout.txt", e = tmpdir() / "stderr.txt";
    std::string cmd = env + (env.empty() ? "" : " ") + "'" + std::string(NORMLAB_CLI) + "' " + args + " >'" +
                      o.string() + "' 2>'" + e.string() + "'";
    int rc = std::system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    r.out = slurp(o);
    r.err = slurp(e);
    return r;
}

// A refused invocation: exit `status` (2: bad input) and one "error: " line that contains
// `message`. Returns the run for the caller's checks on files.
inline Run check_refused(const std::string& args, const std::string& message, int status = 2) {
    Run r = cli(args);
    INFO(args << "\n" << r.err);
    CHECK(r.status == status);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(message) != std::string::npos);
    return r;
}

}  // namespace normlab::test
