// TrainNormLayout: the one layout the training norm kernels (shaders/train_norm_*.comp) and the
// float64 reference share for all five norms. A norm computes statistics over `sets` sets of
// `members` elements each; element m of set s is at
//   (s / set_inner)·set_outer_stride + (s % set_inner)·set_inner_stride
//     + (m / member_inner)·member_outer_stride + (m % member_inner)·member_inner_stride,
// and its affine channel is (address / channel_stride) % channels. The per-channel parameter
// gradients sum over rows × inner elements: row r, element i of channel c is at
// r·row_stride + c·channel_stride + i.
// On the mlp's (N, W): batch → W sets of N; layer, rms → N sets of W; group → N·G sets of W/G.
// On a cnn's (N, C, H·W) the same with H·W inside each channel (instance → N·C sets of H·W).
#pragma once
#include "normlab/train/train_config.hpp"

#include <cstdint>
#include <vector>

namespace normlab::train {

struct TrainNormLayout {
    std::uint32_t sets = 0, members = 0;
    std::uint32_t set_inner = 1, set_outer_stride = 0, set_inner_stride = 0;
    std::uint32_t member_inner = 1, member_outer_stride = 0, member_inner_stride = 0;
    std::uint32_t channels = 0, channel_stride = 1;
    std::uint32_t rows = 0, row_stride = 0, inner = 1;

    std::uint64_t address(std::uint32_t s, std::uint32_t m) const {
        return std::uint64_t{s / set_inner} * set_outer_stride + std::uint64_t{s % set_inner} * set_inner_stride +
               std::uint64_t{m / member_inner} * member_outer_stride +
               std::uint64_t{m % member_inner} * member_inner_stride;
    }
    std::uint32_t channel(std::uint64_t address) const {
        return static_cast<std::uint32_t>((address / channel_stride) % channels);
    }
    // The first 10 words of the norm kernels' parameter blocks (sets … channel_stride).
    std::vector<std::uint32_t> words() const {
        return {sets,
                members,
                set_inner,
                set_outer_stride,
                set_inner_stride,
                member_inner,
                member_outer_stride,
                member_inner_stride,
                channels,
                channel_stride};
    }
};

// The layout of `norm` (not None) on a tensor of n samples × c channels × hw elements per channel
// (the mlp: hw = 1), with `groups` groups for GroupNorm.
TrainNormLayout train_norm_layout(TrainNorm norm, std::uint32_t n, std::uint32_t c, std::uint32_t hw,
                                  std::uint32_t groups);

}  // namespace normlab::train
