// PartitionSet: the set S_i of the Group Normalization paper (Wu & He, 2018, §3.1), the
// elements k that share element i's mean and variance, written in the paper's notation:
//   BatchNorm            S_i = { k | k_C = i_C }
//   LayerNorm([C,H,W])   S_i = { k | k_N = i_N }          ([H,W]: also k_C = i_C; [W]: also k_H = i_H)
//   InstanceNorm         S_i = { k | k_N = i_N, k_C = i_C }
//   GroupNorm            S_i = { k | k_N = i_N, ⌊k_C/(C/G)⌋ = ⌊i_C/(C/G)⌋ }
//   RMSNorm              as LayerNorm (its one statistic is mean(x²) over S_i)
//   LayerNorm(x.shape)   S_i = { k | every k }            (every dim normalized, N included; 1-D too)
// A 3-D tensor uses the axes its layout names: N, L, D under layer/rms, N, C, L otherwise; a
// 2-D one N, C (InstanceNorm1d's unbatched C, L: S_i = { k | k_C = i_C }, one row); 5-D N, C, D, H, W.
// SyncBN in local mode adds ⌊k_N/(N/K)⌋ = ⌊i_N/(N/K)⌋ (each device's shard). Where μ and σ²
// are not taken over S_i (BatchNorm eval with running statistics; SyncBN's naive mode), `note`
// says so. The conditions are data, so member() and size come from the rules the text shows.
// The braces are spaced, "{ k | … }", as lesson texts must write them ('{' and a letter opens a
// lesson placeholder).
#pragma once
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/shape.hpp"
#include "normlab/core/state.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::core {

struct PartitionSet {
    // k_A = i_A (divisor 1) or ⌊k_A/d⌋ = ⌊i_A/d⌋, on the user's axis `axis` (as Shape4::dims()
    // lists them: 0 n, 1 c, then the rank's others; a 5-D tensor's D is axis 2).
    struct Condition {
        int axis = 0;
        std::int64_t divisor = 1;
        std::string divisor_text;  // "C/G", "N/K" for the rule; "" when divisor is 1
    };
    enum class Note { None, RunningStats, NaiveShards };

    std::vector<Condition> conditions;
    std::vector<std::string> spanned_axes;  // the axes k ranges over: {"N", "H", "W"}, {"C/G", "H", "W"}
    std::string rule;                       // "S_i = { k | k_N = i_N, ⌊k_C/(C/G)⌋ = ⌊i_C/(C/G)⌋ }"
    std::string filled;                     // "i = (1, 3, 0, 0): S_i = { k | k_N = 1, ⌊k_C/3⌋ = 1 }"
    std::int64_t size = 0;                  // |S_i|
    Note note = Note::None;

    // Whether element k lies in S_i (k and i stored as (n, c, h, w), see stored_index).
    bool member(const Index4& k) const;
    Index4 i{};
    Shape4 shape;
};

// S_i for element i of a tensor of shape `shape` under `spec` (validated like make_layout).
PartitionSet partition_set(const NormSpec& spec, const Shape4& shape, const Index4& i);

// Element i named by the method's axes: "(n, c, h, w) = (1, 2, 0, 3)", "(n, c) = (4, 1)" under
// BatchNorm1d, "(n, l, d) = …" under LayerNorm of a 3-D tensor, "(n, c, d, h, w) = …" at rank 5,
// "d = 3" at rank 1.
std::string element_text(Method m, const Shape4& shape, const Index4& i);

// The first k axis names (axis_names, stat_layout.hpp) in lower case as a tuple: "n", "(n, c)",
// "(n, c, d)".
std::string axis_tuple(const std::vector<std::string>& names, std::size_t k);

}  // namespace normlab::core
