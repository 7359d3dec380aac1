// .npy format: "\x93NUMPY", major, minor, header length (2 bytes in v1, 4 in v2/v3),
// a Python dict literal {'descr': .., 'fortran_order': .., 'shape': (..)}, padding, data.
#include "normlab/io/npy.hpp"

#include "normlab/io/atomic_file.hpp"
#include "normlab/core/error.hpp"
#include "normlab/core/shape.hpp"

#include <cstring>
#include <limits>
#include <utility>

namespace normlab::io {
namespace {

constexpr std::size_t kMaxHeader = 1 << 16;

class HeaderParser {
public:
    HeaderParser(std::string_view h, const std::string& name) : h_(h), name_(name) {}

    [[noreturn]] void fail(const std::string& why) const { throw core::InputError(name_ + ": " + why); }

    void skip_ws() {
        while (i_ < h_.size() && (h_[i_] == ' ' || h_[i_] == '\t' || h_[i_] == '\n' || h_[i_] == '\r')) ++i_;
    }
    bool eat(char ch) {
        skip_ws();
        if (i_ < h_.size() && h_[i_] == ch) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(char ch, const char* what) {
        if (!eat(ch)) fail(std::string("malformed .npy header: expected ") + what);
    }
    std::string string_lit() {
        skip_ws();
        if (i_ >= h_.size() || (h_[i_] != '\'' && h_[i_] != '"')) fail("malformed .npy header: expected a string");
        char q = h_[i_++];
        std::size_t start = i_;
        while (i_ < h_.size() && h_[i_] != q) ++i_;
        if (i_ >= h_.size()) fail("malformed .npy header: unterminated string");
        return std::string(h_.substr(start, i_++ - start));
    }
    bool bool_lit() {
        skip_ws();
        if (h_.substr(i_, 4) == "True") {
            i_ += 4;
            return true;
        }
        if (h_.substr(i_, 5) == "False") {
            i_ += 5;
            return false;
        }
        fail("malformed .npy header: fortran_order must be True or False");
    }
    std::vector<std::int64_t> tuple() {
        expect('(', "'(' for the shape");
        std::vector<std::int64_t> dims;
        while (!eat(')')) {
            skip_ws();
            bool neg = false;
            if (i_ < h_.size() && h_[i_] == '-') {
                neg = true;
                ++i_;
            }
            std::size_t start = i_;
            std::int64_t v = 0;
            while (i_ < h_.size() && h_[i_] >= '0' && h_[i_] <= '9') {
                int d = h_[i_] - '0';
                if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) fail("shape dimension too large");
                v = v * 10 + d;
                ++i_;
            }
            if (i_ == start) fail("malformed .npy header: shape must be a tuple of integers");
            if (i_ < h_.size() && h_[i_] == 'L') ++i_;  // Python 2 long suffix
            if (neg) fail("shape has a negative dimension (-" + std::to_string(v) + ")");
            dims.push_back(v);
            if (dims.size() > 32) fail("shape has more than 32 dimensions");
            if (!eat(',')) {
                expect(')', "')' closing the shape");
                break;
            }
        }
        return dims;
    }

private:
    std::string_view h_;
    std::string name_;
    std::size_t i_ = 0;
};

std::string header_bytes(const std::string& descr, const std::vector<std::int64_t>& shape) {
    // The shape as Python's repr writes a tuple: "(3,)" for one dim, "(2, 3)" for more.
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    s += shape.size() == 1 ? ",)" : ")";
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + s + ", }";
    std::size_t total = 10 + dict.size() + 1;
    std::size_t pad = (64 - total % 64) % 64;
    dict += std::string(pad, ' ') + "\n";
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    auto len = static_cast<std::uint16_t>(dict.size());
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>(len >> 8);
    return out + dict;
}

template <typename T>
std::string npy_bytes(const std::string& descr, const std::vector<std::int64_t>& shape, const T* data) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::string out = header_bytes(descr, shape);
    out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n) * sizeof(T));
    return out;
}

// Where the header dict lies: (start, length), from the version's 2- or 4-byte length field.
std::pair<std::size_t, std::size_t> header_span(std::string_view bytes, const std::string& name) {
    auto fail = [&](const std::string& why) { throw core::InputError(name + ": " + why); };
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
        fail(bytes.size() < 6 ? "not a .npy file (file too short)" : "not a .npy file (bad magic)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    std::size_t header_len = 0, header_start = 0;
    if (major == 1) {
        header_len = static_cast<unsigned char>(bytes[8]) |
                     (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail("truncated .npy header");
        for (int i = 3; i >= 0; --i)
            header_len = (header_len << 8) | static_cast<unsigned char>(bytes[8 + static_cast<std::size_t>(i)]);
        header_start = 12;
    } else {
        fail("unsupported .npy version " + std::to_string(major));
    }
    if (header_len > kMaxHeader) fail("bad .npy header length " + std::to_string(header_len));
    if (bytes.size() < header_start + header_len) fail("truncated .npy header");
    return {header_start, header_len};
}

struct Header {
    std::string descr;
    bool fortran = false;
    std::vector<std::int64_t> shape;
};

// The dict {'descr': .., 'fortran_order': .., 'shape': (..)}; every key must be there.
Header parse_header(HeaderParser& p) {
    Header h;
    bool have_descr = false, have_fortran = false, have_shape = false;
    p.expect('{', "a dict");
    while (!p.eat('}')) {
        std::string key = p.string_lit();
        p.expect(':', "':'");
        if (key == "descr") {
            h.descr = p.string_lit();
            have_descr = true;
        } else if (key == "fortran_order") {
            h.fortran = p.bool_lit();
            have_fortran = true;
        } else if (key == "shape") {
            h.shape = p.tuple();
            have_shape = true;
        } else {
            p.fail("malformed .npy header: unknown key '" + key + "'");
        }
        if (!p.eat(',')) {
            p.expect('}', "'}' closing the dict");
            break;
        }
    }
    if (!have_descr || !have_fortran || !have_shape)
        p.fail("malformed .npy header: needs descr, fortran_order and shape");
    if (h.fortran) p.fail("Fortran-order (fortran_order: True) arrays are not supported; save with C order");
    return h;
}

// The item size of a little-endian float32 or float64 descr; refuses every other dtype.
std::size_t float_item_size(const std::string& descr, const HeaderParser& p) {
    std::size_t item = 0;
    char kind = 0;
    if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '=')) {
        kind = descr[1];
        item = static_cast<std::size_t>(descr[2] - '0');
    } else if (descr.size() == 3 && descr[0] == '>') {
        p.fail("big-endian data ('" + descr + "') is not supported; use little-endian float32 or float64");
    }
    if (kind != 'f' || (item != 4 && item != 8))
        p.fail("unsupported dtype '" + descr + "' (normlab reads float32 or float64)");
    return item;
}

// The element count of shape, refused before any allocation when the file cannot hold it.
std::int64_t element_count(const std::vector<std::int64_t>& shape, std::size_t item, std::size_t file_bytes,
                           const HeaderParser& p) {
    std::int64_t count = 1;
    const std::int64_t max_count = static_cast<std::int64_t>((file_bytes / item) + 1);
    for (auto d : shape) {
        if (d == 0) p.fail("shape " + core::dims_str(shape) + " has a zero dimension");
        if (count > max_count / d)
            p.fail("shape " + core::dims_str(shape) + " needs more data than the file holds (" +
                   std::to_string(file_bytes) + " bytes)");
        count *= d;
    }
    return count;
}

}  // namespace

NpyArray parse_npy(std::string_view bytes, const std::string& name) {
    const auto [header_start, header_len] = header_span(bytes, name);
    HeaderParser p(bytes.substr(header_start, header_len), name);
    Header h = parse_header(p);
    const std::size_t item = float_item_size(h.descr, p);
    const std::int64_t count = element_count(h.shape, item, bytes.size(), p);
    const std::size_t data_start = header_start + header_len;
    const std::size_t need = static_cast<std::size_t>(count) * item;
    const std::size_t have = bytes.size() - data_start;
    if (have < need)
        p.fail("truncated data: the header promises " + std::to_string(need) + " bytes, the file holds " +
               std::to_string(have));
    if (have > need) p.fail("the file holds " + std::to_string(have - need) + " bytes more data than its header says");

    NpyArray out;
    out.shape = std::move(h.shape);
    out.descr = std::move(h.descr);
    out.data.resize(static_cast<std::size_t>(count));
    const char* src = bytes.data() + data_start;
    for (std::size_t i = 0; i < out.data.size(); ++i) {
        if (item == 4) {
            std::memcpy(&out.data[i], src + i * 4, 4);
        } else {
            double d;
            std::memcpy(&d, src + i * 8, 8);
            out.data[i] = static_cast<float>(d);
        }
    }
    return out;
}

NpyArray read_npy(const std::string& path) {
    // float64 data of the largest tensor plus a generous header.
    const std::uint64_t max_bytes = static_cast<std::uint64_t>(core::kMaxElements) * 8 + kMaxHeader + 16;
    return parse_npy(read_file(path, max_bytes), path);
}

std::string npy_bytes_f32(const std::vector<std::int64_t>& shape, const float* data) {
    return npy_bytes("<f4", shape, data);
}
std::string npy_bytes_f64(const std::vector<std::int64_t>& shape, const double* data) {
    return npy_bytes("<f8", shape, data);
}
std::string npy_bytes_i32(const std::vector<std::int64_t>& shape, const std::int32_t* data) {
    return npy_bytes("<i4", shape, data);
}
std::string npy_bytes_i64(const std::vector<std::int64_t>& shape, const std::int64_t* data) {
    return npy_bytes("<i8", shape, data);
}

}  // namespace normlab::io
