#include "normlab/core/shape.hpp"

#include "normlab/core/error.hpp"
#include "normlab/core/tensor.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace normlab::core {

std::string dims_str(const std::vector<std::int64_t>& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

std::vector<std::int64_t> Shape4::dims() const {
    switch (rank) {
        case 1: return {c};
        case 2: return {n, c};
        case 3: return {n, c, w};
        case 5: return {n, c, d, height(), w};
        default: return {n, c, h, w};
    }
}

std::vector<std::int64_t> user_index(const Shape4& s, const std::array<std::int64_t, 4>& k) {
    switch (s.rank) {
        case 1: return {k[1]};
        case 2: return {k[0], k[1]};
        case 3: return {k[0], k[1], k[3]};
        case 5: return {k[0], k[1], k[2] / s.height(), k[2] % s.height(), k[3]};
        default: return {k[0], k[1], k[2], k[3]};
    }
}

std::array<std::int64_t, 4> stored_index(const Shape4& s, const std::vector<std::int64_t>& u) {
    switch (s.rank) {
        case 1: return {0, u.at(0), 0, 0};
        case 2: return {u.at(0), u.at(1), 0, 0};
        case 3: return {u.at(0), u.at(1), 0, u.at(2)};
        case 5: return {u.at(0), u.at(1), u.at(2) * s.height() + u.at(3), u.at(4)};
        default: return {u.at(0), u.at(1), u.at(2), u.at(3)};
    }
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
    if (rank < 1 || rank > 5) throw InputError("a tensor must have 1 to 5 dims, got " + std::to_string(rank));
    if (rank <= 3 && h != 1) throw InputError("a " + std::to_string(rank) + "-D shape keeps h = 1");
    if (rank <= 2 && w != 1) throw InputError("a " + std::to_string(rank) + "-D shape keeps w = 1");
    if (rank == 1 && n != 1) throw InputError("a 1-D shape keeps n = 1");
    if (rank != 5 && d != 1) throw InputError("only a 5-D shape has a depth");
    if (rank == 5 && (d < 1 || h < d || h % d != 0)) throw InputError("a 5-D shape stores h = D·H");
    checked_product(dims(), kMaxElements, "shape");
}

Shape4 Shape4::from_dims(const std::vector<std::int64_t>& d) {
    if (d.empty() || d.size() > 5)
        throw InputError("expected a 1-D to 5-D shape (D / N,C / N,L,D / N,C,H,W / N,C,D,H,W), got " +
                         std::to_string(d.size()) + " dims " + dims_str(d));
    checked_product(d, kMaxElements, "shape");  // before D·H is formed
    Shape4 s = d.size() == 1   ? vec(d[0])
               : d.size() == 2 ? flat(d[0], d[1])
               : d.size() == 3 ? seq(d[0], d[1], d[2])
               : d.size() == 5 ? volume(d[0], d[1], d[2], d[3], d[4])
                               : Shape4{d[0], d[1], d[2], d[3]};
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
        throw InputError(what + " must be " +
                         (min_count == count ? std::to_string(count)
                                             : std::to_string(min_count) + (count - min_count > 1 ? " to " : " or ") +
                                                   std::to_string(count)) +
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

}  // namespace normlab::core
