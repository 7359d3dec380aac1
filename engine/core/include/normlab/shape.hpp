// Shape4: the N×C×H×W shape every normlab tensor has, with checked element counts.
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

    std::int64_t hw() const { return h * w; }
    std::int64_t chw() const { return c * h * w; }
    std::int64_t numel() const { return n * c * h * w; }
    std::array<std::int64_t, 4> dims() const { return {n, c, h, w}; }
    bool operator==(const Shape4&) const = default;

    // Throws InputError unless every dim is >= 1 and the product fits kMaxElements.
    void validate() const;
    // "[2, 3, 4, 4]", as PyTorch prints sizes.
    std::string str() const;
    // Builds a shape from a list of exactly 4 dims, validated.
    static Shape4 from_dims(const std::vector<std::int64_t>& dims);
};

// "[a, b, c]" for any list of dims.
std::string dims_str(const std::vector<std::int64_t>& dims);

// Parses "D,D,..." (1..max_dims positive integers) or throws InputError naming `what`.
std::vector<std::int64_t> parse_dims(const std::string& text, const std::string& what, std::size_t min_dims,
                                     std::size_t max_dims);

// Parses exactly `count` non-negative integers separated by commas (an index like n,c,h,w).
std::vector<std::int64_t> parse_indices(const std::string& text, const std::string& what, std::size_t count);

// Product of dims with overflow checking; throws InputError when it exceeds `limit`.
std::int64_t checked_product(const std::vector<std::int64_t>& dims, std::int64_t limit, const std::string& what);

}  // namespace normlab
