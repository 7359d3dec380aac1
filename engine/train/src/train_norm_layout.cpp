// The training norms' shared (set, member) layout (train_norm_layout.hpp).
#include "normlab/train/train_norm_layout.hpp"

#include "normlab/core/error.hpp"

namespace normlab::train {

TrainNormLayout train_norm_layout(TrainNorm norm, std::uint32_t n, std::uint32_t c, std::uint32_t hw,
                                  std::uint32_t groups) {
    TrainNormLayout l;
    l.channels = c;
    l.channel_stride = hw;
    l.rows = n;
    l.row_stride = c * hw;
    l.inner = hw;
    // Contiguous sets of `members` elements (layer, rms, group, instance).
    auto contiguous = [&](std::uint32_t sets, std::uint32_t members) {
        l.sets = sets;
        l.members = members;
        l.set_inner = 1;
        l.set_outer_stride = members;
        l.member_inner = members;
        l.member_inner_stride = 1;
    };
    switch (norm) {
        case TrainNorm::Batch:  // one set per channel over samples × hw
            l.sets = c;
            l.members = n * hw;
            l.set_inner = c;
            l.set_inner_stride = hw;
            l.member_inner = hw;
            l.member_outer_stride = c * hw;
            l.member_inner_stride = 1;
            break;
        case TrainNorm::Layer:
        case TrainNorm::Rms: contiguous(n, c * hw); break;
        case TrainNorm::Group: contiguous(n * groups, c / groups * hw); break;
        case TrainNorm::Instance: contiguous(n * c, hw); break;
        case TrainNorm::None: throw core::InternalError("train_norm_layout of no norm");
    }
    return l;
}

}  // namespace normlab::train
