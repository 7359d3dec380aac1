// .npy reading and writing: round trips and every malformed file the reader must refuse.
#include <catch2/catch.hpp>

#include "normlab/core/error.hpp"
#include "normlab/io/npy.hpp"

#include <cstring>

using namespace normlab;

namespace {

std::string header(const std::string& dict, int major = 1) {
    std::string h = dict;
    std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    std::size_t n = h.size();
    if (major == 1) {
        out += static_cast<char>(n & 0xff);
        out += static_cast<char>(n >> 8);
    } else {
        for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    }
    return out + h;
}

std::string floats(std::size_t n) { return std::string(n * 4, '\0'); }

std::string error_of(const std::string& bytes) {
    try {
        io::parse_npy(bytes, "t.npy");
    } catch (const core::InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("npy round trip float32, float64 and int32", "[npy]") {
    std::vector<float> v{1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.0f};
    auto a = io::parse_npy(io::npy_bytes_f32({1, 2, 3, 1}, v.data()), "a");
    CHECK(a.shape == std::vector<std::int64_t>{1, 2, 3, 1});
    CHECK(a.data == v);
    std::vector<double> d{0.1, 0.2};
    auto b = io::parse_npy(io::npy_bytes_f64({2}, d.data()), "b");
    CHECK(b.shape == std::vector<std::int64_t>{2});
    CHECK(b.data[0] == 0.1f);
    std::string i32 = io::npy_bytes_i32({3}, std::vector<std::int32_t>{1, 2, 3}.data());
    CHECK(i32.find("'<i4'") != std::string::npos);
    CHECK((i32.size() - 12) % 4 == 0);
    CHECK(io::npy_bytes_f32({3}, v.data()).find("(3,)") != std::string::npos);
}

TEST_CASE("npy versions 2 and 3 headers are read", "[npy]") {
    for (int major : {2, 3}) {
        auto a = io::parse_npy(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", major) + floats(4),
                               "v");
        CHECK(a.shape == std::vector<std::int64_t>{2, 2});
    }
}

TEST_CASE("malformed npy files are refused with a clear message", "[npy]") {
    const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    CHECK(error_of("").find("not a .npy file") != std::string::npos);
    CHECK(error_of("hello world, not numpy").find("bad magic") != std::string::npos);
    CHECK(error_of(header(ok).substr(0, 20)).find("truncated .npy header") != std::string::npos);
    CHECK(error_of(header(ok) + floats(1)).find("truncated data") != std::string::npos);
    CHECK(error_of(header(ok) + floats(3)).find("more data than its header") != std::string::npos);
    CHECK(error_of(header("[1, 2, 3]") + floats(2)).find("expected a dict") != std::string::npos);
    CHECK(
        error_of(header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }") + floats(2)).find("big-endian") !=
        std::string::npos);
    CHECK(error_of(header("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }") + floats(4))
              .find("unsupported dtype") != std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }") + floats(2)).find("Fortran") !=
          std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }")).find("zero dimension") !=
          std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }")).find("negative") !=
          std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }"))
              .find("needs more data") != std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"))
              .find("too large") != std::string::npos);
    CHECK(error_of(header("{'descr': '<f4', 'shape': (2,), }") + floats(2)).find("needs descr") != std::string::npos);
    std::string bad_len = header(ok) + floats(2);
    bad_len[8] = '\xff';
    bad_len[9] = '\x7f';
    CHECK(error_of(bad_len).find("truncated .npy header") != std::string::npos);
    std::string v9 = header(ok) + floats(2);
    v9[6] = 9;
    CHECK(error_of(v9).find("unsupported .npy version 9") != std::string::npos);
}
