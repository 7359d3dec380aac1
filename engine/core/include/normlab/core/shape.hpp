// Shape4: the N×C×H×W shape every normlab tensor has, with checked element counts. The other
// ranks are stored so that every layout, kernel and reference serves them unchanged:
//   rank 1 (D): one vector (LayerNorm(D) on one token)  n = 1, c = D, h = 1, w = 1
//   rank 2 (N, C): an MLP's features (BatchNorm1d)       n, c, h = 1, w = 1
//   rank 3 (N, L, D) / (N, C, L)                           n, c, h = 1, w
//   rank 5 (N, C, D, H, W): volumes, video (BatchNorm3d)   n, c, h = D·H, w, and d = D
// A 5-D tensor is thus its D depth slices of H rows stacked into one D·H × W plane per (n, c):
// C order is unchanged, so every PyTorch partition (BatchNorm3d over N, D, H, W; LayerNorm over
// [W], [H, W], [D, H, W] or [C, D, H, W]) is a run of contiguous elements as at rank 4.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab::core {

// Largest tensor normlab accepts, in elements (2^31 - 1 keeps every offset in a signed int).
inline constexpr std::int64_t kMaxElements = (std::int64_t{1} << 31) - 1;

struct Shape4 {
    std::int64_t n = 1, c = 1, h = 1, w = 1;
    int rank = 4;        // 1: (c), n = 1; 2: (n, c); 3: (n, c, w), h = 1; 5: (n, c, d, h / d, w)
    std::int64_t d = 1;  // rank 5: the depth D (h holds D·H); 1 otherwise

    std::int64_t height() const { return h / d; }  // H: h, or h / D at rank 5
    std::int64_t hw() const { return h * w; }      // the spatial size: H·W, L, D·H·W or 1
    std::int64_t chw() const { return c * h * w; }
    std::int64_t numel() const { return n * c * h * w; }
    // The dims as the user sees them: {n, c, h, w}; {c} (rank 1), {n, c} (rank 2), {n, c, w} (3), {n, c, D, H, w} (5).
    std::vector<std::int64_t> dims() const;
    bool operator==(const Shape4&) const = default;

    // Throws InputError unless every dim is >= 1 and the product fits kMaxElements.
    void validate() const;
    // "[2, 3, 4, 4]", as PyTorch prints sizes.
    std::string str() const;
    // Builds a shape from a list of 1 to 5 dims (D / N,C / N,L,D / N,C,H,W / N,C,D,H,W), validated.
    static Shape4 from_dims(const std::vector<std::int64_t>& dims);
    // The rank-3 shape (a, b, d): n = a, c = b, h = 1, w = d.
    static Shape4 seq(std::int64_t a, std::int64_t b, std::int64_t d) { return Shape4{a, b, 1, d, 3}; }
    // The rank-1 shape (D): one vector, stored as one sample of D features.
    static Shape4 vec(std::int64_t d) { return Shape4{1, d, 1, 1, 1}; }
    // The rank-2 shape (N, C).
    static Shape4 flat(std::int64_t n, std::int64_t c) { return Shape4{n, c, 1, 1, 2}; }
    // The rank-5 shape (N, C, D, H, W), stored with h = D·H (not validated: call validate()).
    static Shape4 volume(std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h, std::int64_t w) {
        return Shape4{n, c, d * h, w, 5, d};
    }
};

// The user's index (as dims() lists the axes) of a stored (n, c, h, w) index, and back.
std::vector<std::int64_t> user_index(const Shape4& s, const std::array<std::int64_t, 4>& stored);
std::array<std::int64_t, 4> stored_index(const Shape4& s, const std::vector<std::int64_t>& user);

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

}  // namespace normlab::core
