#include "normlab/shape.hpp"

#include "normlab/error.hpp"
#include "normlab/tensor.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace normlab {

std::string dims_str(const std::vector<std::int64_t>& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

std::vector<std::int64_t> Shape4::dims() const {
    if (rank == 3) return {n, c, w};
    return {n, c, h, w};
}

std::string Shape4::str() const { return dims_str(dims()); }

std::int64_t checked_product(const std::vector<std::int64_t>& dims, std::int64_t limit, const std::string& what) {
    std::int64_t p = 1;
    for (auto d : dims) {
        if (d <= 0) throw InputError(what + " " + dims_str(dims) + " has a dimension < 1");
        if (p > limit / d)
            throw InputError(what + " " + dims_str(dims) + " has more than " + std::to_string(limit) + " elements");
        p *= d;
    }
    return p;
}

void Shape4::validate() const {
    if (rank != 3 && rank != 4) throw InputError("a tensor must have 3 or 4 dims, got " + std::to_string(rank));
    if (rank == 3 && h != 1) throw InputError("a 3-D shape keeps h = 1");
    checked_product(dims(), kMaxElements, "shape");
}

Shape4 Shape4::from_dims(const std::vector<std::int64_t>& d) {
    if (d.size() != 4 && d.size() != 3)
        throw InputError("expected a 4-D shape N,C,H,W or a 3-D shape N,L,D, got " + std::to_string(d.size()) +
                         " dims " + dims_str(d));
    Shape4 s = d.size() == 3 ? seq(d[0], d[1], d[2]) : Shape4{d[0], d[1], d[2], d[3]};
    s.validate();
    return s;
}

std::vector<std::int64_t> parse_dims(const std::string& text, const std::string& what, std::size_t min_dims,
                                     std::size_t max_dims) {
    std::vector<std::int64_t> dims;
    std::size_t pos = 0;
    auto fail = [&]() {
        throw InputError(what + " must be " +
                         (min_dims == max_dims ? std::to_string(min_dims)
                                               : std::to_string(min_dims) + " to " + std::to_string(max_dims)) +
                         " positive integers separated by commas, got '" + text + "'");
    };
    if (text.empty()) fail();
    while (pos <= text.size()) {
        std::size_t comma = text.find(',', pos);
        std::string tok = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (tok.empty() || tok.size() > 18) fail();
        for (char ch : tok)
            if (ch < '0' || ch > '9') fail();
        std::int64_t v = std::strtoll(tok.c_str(), nullptr, 10);
        if (v <= 0) fail();
        dims.push_back(v);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    if (dims.size() < min_dims || dims.size() > max_dims) fail();
    return dims;
}

std::vector<std::int64_t> parse_indices(const std::string& text, const std::string& what, std::size_t count,
                                        std::size_t min_count) {
    if (min_count == 0 || min_count > count) min_count = count;
    std::vector<std::int64_t> out;
    std::size_t pos = 0;
    auto fail = [&]() {
        throw InputError(
            what + " must be " +
            (min_count == count ? std::to_string(count) : std::to_string(min_count) + " or " + std::to_string(count)) +
            " non-negative integers separated by commas, got '" + text + "'");
    };
    while (true) {
        std::size_t comma = text.find(',', pos);
        std::string tok = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (tok.empty() || tok.size() > 18) fail();
        for (char ch : tok)
            if (ch < '0' || ch > '9') fail();
        out.push_back(std::strtoll(tok.c_str(), nullptr, 10));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    if (out.size() < min_count || out.size() > count) fail();
    return out;
}

std::array<std::int64_t, 4> unravel(const Shape4& s, std::int64_t off) {
    std::int64_t w = off % s.w;
    off /= s.w;
    std::int64_t h = off % s.h;
    off /= s.h;
    std::int64_t c = off % s.c;
    return {off / s.c, c, h, w};
}

std::int64_t count_nonfinite(const std::vector<float>& values) {
    std::int64_t n = 0;
    for (float v : values) n += std::isfinite(v) ? 0 : 1;
    return n;
}

}  // namespace normlab
