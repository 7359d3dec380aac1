#include "normlab/core/stat_layout.hpp"

#include <algorithm>

namespace normlab::core {

std::vector<std::string> axis_names(Method m, const Shape4& s) {
    switch (s.rank) {
        case 1: return {"D"};
        case 2: return m == Method::Instance ? std::vector<std::string>{"C", "L"} : std::vector<std::string>{"N", "C"};
        case 3:
            return m == Method::Layer || m == Method::Rms ? std::vector<std::string>{"N", "L", "D"}
                                                          : std::vector<std::string>{"N", "C", "L"};
        case 5: return {"N", "C", "D", "H", "W"};
        default: return {"N", "C", "H", "W"};
    }
}

namespace {

// The names of axes [from, rank): the spatial axes of batch/instance/group.
std::vector<std::string> names_from(Method m, const Shape4& s, std::size_t from) {
    const auto all = axis_names(m, s);
    return {all.begin() + static_cast<std::ptrdiff_t>(std::min(from, all.size())), all.end()};
}

// InstanceNorm1d on a 2-D input: PyTorch reads it as one unbatched (C, L) sample, so each row
// n is a statistic over its C columns with its own γ/β (num_features = the first dim).
StatLayout unbatched_instance(StatLayout L, const Shape4& s) {
    L.stat_shape = {s.n};
    L.reduced_axes = {"L"};
    L.stat_count = s.n;
    L.segment_len = s.c;
    L.stat_stride = s.c;
    L.param_shape = {s.n};
    L.param_count = s.n;
    L.param_stride = s.c;
    L.param_stat_mod = s.n;
    L.param_stat_mul = 1;
    L.param_elem_div = 0;
    return L;
}

}  // namespace

StatLayout make_layout(const NormSpec& spec, const Shape4& s) {
    spec.validate(s);
    StatLayout L;
    L.method = spec.method;
    L.shape = s;
    if (spec.method == Method::Instance && s.rank == 2) return unbatched_instance(L, s);
    const std::int64_t hw = s.hw();
    switch (spec.method) {
        case Method::Batch: {  // one statistic per channel, reduced over N and the spatial axes
            L.stat_shape = {s.c};
            L.reduced_axes = names_from(spec.method, s, 2);
            L.reduced_axes.insert(L.reduced_axes.begin(), "N");
            L.stat_count = s.c;
            L.segments = s.n;
            L.segment_len = hw;
            L.segment_stride = s.chw();
            L.stat_stride = hw;
            break;
        }
        case Method::Instance:  // one statistic per (n, c), reduced over the spatial axes
            L.stat_shape = {s.n, s.c};
            L.reduced_axes = names_from(spec.method, s, 2);
            L.stat_count = s.n * s.c;
            L.segment_len = hw;
            L.stat_stride = hw;
            break;
        case Method::Group: {  // one statistic per (n, g), reduced over C/G, H, W
            L.stat_shape = {s.n, spec.groups};
            L.reduced_axes = names_from(spec.method, s, 2);
            L.reduced_axes.insert(L.reduced_axes.begin(), "C/G");
            L.stat_count = s.n * spec.groups;
            L.segment_len = (s.c / spec.groups) * hw;
            L.stat_stride = L.segment_len;
            break;
        }
        case Method::Layer:
        case Method::Rms: {  // one statistic per index of the leading dims, reduced over normalized_shape
            const auto ns = spec.effective_normalized_shape(s);
            const auto dims = s.dims();
            const std::size_t lead = dims.size() - ns.size();
            std::int64_t count = 1;
            for (auto d : ns) count *= d;
            for (std::size_t i = 0; i < lead; ++i) L.stat_shape.push_back(dims[i]);
            L.reduced_axes = names_from(spec.method, s, lead);
            L.stat_count = s.numel() / count;
            L.segment_len = count;
            L.stat_stride = count;
            L.param_shape = ns;
            L.param_count = count;
            L.param_stride = 1;
            L.param_stat_mod = 1;
            L.param_stat_mul = 0;
            L.param_elem_div = 1;
            return L;
        }
    }
    L.param_shape = {s.c};  // γ/β per channel
    L.param_count = s.c;
    L.param_stride = hw;
    if (spec.method == Method::Group) {
        L.param_stat_mod = spec.groups;
        L.param_stat_mul = s.c / spec.groups;
        L.param_elem_div = hw;
    } else {  // batch: s = c; instance: s = n·C + c
        L.param_stat_mod = s.c;
        L.param_stat_mul = 1;
        L.param_elem_div = 0;
    }
    return L;
}

std::vector<std::int32_t> StatLayout::group_map() const {
    std::vector<std::int32_t> out(static_cast<std::size_t>(shape.numel()));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::int32_t>(stat_of(static_cast<std::int64_t>(i)));
    return out;
}

}  // namespace normlab::core
