#include "normlab/stat_layout.hpp"

namespace normlab {

StatLayout make_layout(const NormSpec& spec, const Shape4& s) {
    spec.validate(s);
    StatLayout L;
    L.method = spec.method;
    L.shape = s;
    const std::int64_t hw = s.hw();
    switch (spec.method) {
        case Method::Batch:  // one statistic per channel, reduced over N, H, W
            L.stat_shape = {s.c};
            L.reduced_axes = s.rank == 3 ? std::vector<std::string>{"N", "L"} : std::vector<std::string>{"N", "H", "W"};
            L.stat_count = s.c;
            L.segments = s.n;
            L.segment_len = hw;
            L.segment_stride = s.chw();
            L.stat_stride = hw;
            break;
        case Method::Instance:  // one statistic per (n, c), reduced over H, W
            L.stat_shape = {s.n, s.c};
            L.reduced_axes = s.rank == 3 ? std::vector<std::string>{"L"} : std::vector<std::string>{"H", "W"};
            L.stat_count = s.n * s.c;
            L.segment_len = hw;
            L.stat_stride = hw;
            break;
        case Method::Group: {  // one statistic per (n, g), reduced over C/G, H, W
            L.stat_shape = {s.n, spec.groups};
            L.reduced_axes =
                s.rank == 3 ? std::vector<std::string>{"C/G", "L"} : std::vector<std::string>{"C/G", "H", "W"};
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
            static const char* names4[] = {"N", "C", "H", "W"};
            static const char* names3[] = {"N", "L", "D"};
            const char* const* names = s.rank == 3 ? names3 : names4;
            std::int64_t count = 1;
            for (auto d : ns) count *= d;
            for (std::size_t i = 0; i < lead; ++i) L.stat_shape.push_back(dims[i]);
            for (std::size_t i = lead; i < dims.size(); ++i) L.reduced_axes.push_back(names[i]);
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

}  // namespace normlab
