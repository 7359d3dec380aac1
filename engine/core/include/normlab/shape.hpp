// Shape4: the N×C×H×W shape every normlab tensor has, with checked element counts. A 3-D
// tensor (a Transformer's N×L×D activations, or BatchNorm1d's N×C×L) is a Shape4 of rank 3
// stored as n, c, h = 1, w: every layout, kernel and reference then serves it unchanged.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

// Largest tensor normlab accepts, in elements (2^31 - 1 keeps every offset in a signed int).
inline constexpr std::int64_t kMaxElements = (std::int64_t{1} << 31) - 1;

struct Shape4 {
    std::int64_t n = 1, c = 1, h = 1, w = 1;
    int rank = 4;  // 3: the dims the user sees are (n, c, w) and h is 1

    std::int64_t hw() const { return h * w; }
    std::int64_t chw() const { return c * h * w; }
    std::int64_t numel() const { return n * c * h * w; }
    // The dims as the user sees them: {n, c, h, w}, or {n, c, w} for rank 3.
    std::vector<std::int64_t> dims() const;
    bool operator==(const Shape4&) const = default;

    // Throws InputError unless every dim is >= 1 and the product fits kMaxElements.
    void validate() const;
    // "[2, 3, 4, 4]", as PyTorch prints sizes.
    std::string str() const;
    // Builds a shape from a list of 4 dims (N,C,H,W) or 3 dims (N,L,D / N,C,L), validated.
    static Shape4 from_dims(const std::vector<std::int64_t>& dims);
    // The rank-3 shape (a, b, d): n = a, c = b, h = 1, w = d.
    static Shape4 seq(std::int64_t a, std::int64_t b, std::int64_t d) { return Shape4{a, b, 1, d, 3}; }
};

// "[a, b, c]" for any list of dims.
std::string dims_str(const std::vector<std::int64_t>& dims);

// Parses "D,D,..." (1..max_dims positive integers) or throws InputError naming `what`.
std::vector<std::int64_t> parse_dims(const std::string& text, const std::string& what, std::size_t min_dims,
                                     std::size_t max_dims);

// Parses exactly `count` non-negative integers separated by commas (an index like n,c,h,w).
// parse_indices(text, what, 4, 3) accepts 3 or 4 of them.
std::vector<std::int64_t> parse_indices(const std::string& text, const std::string& what, std::size_t count,
                                        std::size_t min_count = 0);

// Product of dims with overflow checking; throws InputError when it exceeds `limit`.
std::int64_t checked_product(const std::vector<std::int64_t>& dims, std::int64_t limit, const std::string& what);

}  // namespace normlab
