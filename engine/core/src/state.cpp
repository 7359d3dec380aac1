#include "normlab/core/state.hpp"

#include "normlab/core/error.hpp"

#include <array>

namespace normlab::core {

bool same_source(const TensorSource& a, const TensorSource& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case TensorSource::Kind::Preset: return a.preset == b.preset;
        case TensorSource::Kind::File:
        case TensorSource::Kind::Image: return a.path == b.path;
        case TensorSource::Kind::Generated:
            return a.shape == b.shape && a.init == b.init && a.value == b.value && a.seed == b.seed;
    }
    return false;
}

void validate_selection(const std::optional<Index4>& sel, const Shape4& s) {
    if (!sel) return;
    const std::array<std::int64_t, 4> d{s.n, s.c, s.h, s.w};  // stored: h = 0 at rank 2/3, d·H + h at rank 5
    for (std::size_t i = 0; i < 4; ++i)
        if ((*sel)[i] < 0 || (*sel)[i] >= d[i])
            throw InputError("selection " + dims_str({(*sel)[0], (*sel)[1], (*sel)[2], (*sel)[3]}) +
                             " is outside the tensor of shape " + s.str());
}

}  // namespace normlab::core
