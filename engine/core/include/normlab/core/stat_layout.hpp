// StatLayout: the one model of "which elements share a mean and variance" that serves all
// five methods, the shaders, the CLI's group map and the app's heatmap highlight.
//
// Every statistic s covers `segments` contiguous runs of `segment_len` elements:
//     offset(s, j, k) = s_base(s) + j * segment_stride + k,   j < segments, k < segment_len
// with s_base(s) = s * stat_stride. And conversely, the statistic of a flat offset i is
//     stat_of(i) = (i / stat_stride) % stat_count.
// (H·W is Shape4::hw(): 1 for a 1-D or 2-D tensor, L for 3-D, D·H·W for 5-D.)
//   batch:    stat_count C,   segments N, segment_len H·W, segment_stride C·H·W, stat_stride H·W
//   layer/rms:stat_count = product of the leading dims, segments 1, segment_len = prod(normalized_shape)
//             (normalized_shape of every dim, or a 1-D tensor: stat_count 1, stat_stride = numel, stat_shape [])
//   instance: stat_count N·C, segments 1, segment_len H·W (2-D: stat_count N, segment_len C)
//   group:    stat_count N·G, segments 1, segment_len (C/G)·H·W
// The affine parameter (γ, β) of offset i is (i / param_stride) % param_count:
//   per channel (batch/instance/group): param_stride H·W, param_count C;
//   per element of normalized_shape (layer/rms): param_stride 1, param_count prod(normalized_shape).
// Seen from a statistic, the γ/β index of its element e is
//     (s % param_stat_mod) * param_stat_mul + (param_elem_div ? e / param_elem_div : 0)
//   batch, instance: (s % C)·1;  group: (s % G)·(C/G) + e / (H·W);  layer/rms: e.
#pragma once
#include "normlab/core/norm_spec.hpp"
#include "normlab/core/shape.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace normlab::core {

struct StatLayout {
    Method method = Method::Layer;
    Shape4 shape;
    std::vector<std::int64_t> stat_shape;   // [C], [N,C], [N,G] or the leading dims
    std::vector<std::int64_t> param_shape;  // γ/β shape: [C] or normalized_shape
    std::vector<std::string> reduced_axes;  // e.g. {"N","H","W"}
    std::int64_t stat_count = 1;
    std::int64_t segments = 1;
    std::int64_t segment_len = 1;
    std::int64_t segment_stride = 0;
    std::int64_t stat_stride = 1;
    std::int64_t param_count = 1;
    std::int64_t param_stride = 1;
    std::int64_t param_stat_mod = 1;
    std::int64_t param_stat_mul = 0;
    std::int64_t param_elem_div = 1;

    std::int64_t count() const { return segments * segment_len; }  // elements per statistic
    std::int64_t stat_of(std::int64_t offset) const { return (offset / stat_stride) % stat_count; }
    std::int64_t param_of(std::int64_t offset) const { return (offset / param_stride) % param_count; }
    // Flat offset of element e (0 <= e < count()) of statistic s.
    std::int64_t element_offset(std::int64_t s, std::int64_t e) const {
        return s * stat_stride + (e / segment_len) * segment_stride + e % segment_len;
    }
    // γ/β index of element e of statistic s (equals param_of(element_offset(s, e))).
    std::int64_t param_of_element(std::int64_t s, std::int64_t e) const {
        return (s % param_stat_mod) * param_stat_mul + (param_elem_div ? e / param_elem_div : 0);
    }
    // Every element's statistic index, N×C×H×W (the CLI's --group-map).
    std::vector<std::int32_t> group_map() const;
};

// The names of the axes of a shape as method m reads it, one per dim: {"N","C","H","W"};
// {"N","C","D","H","W"}; 3-D {"N","L","D"} (layer/rms) or {"N","C","L"}; 1-D {"D"}; 2-D {"N","C"}, and
// {"C","L"} under InstanceNorm1d, which reads a 2-D input as one unbatched (C, L) sample.
std::vector<std::string> axis_names(Method m, const Shape4& s);

// Resolves a validated spec and shape to its layout (calls spec.validate(shape)).
StatLayout make_layout(const NormSpec& spec, const Shape4& shape);

}  // namespace normlab::core
