// Training norms: the (set, member) layout of train_norm_layout.hpp, the first 10 words of the
// parameter block of train_norm_fwd.comp and train_norm_bwd.comp.
uint norm_address(uint s, uint m) {
    return (s / pc.set_inner) * pc.set_outer_stride + (s % pc.set_inner) * pc.set_inner_stride +
           (m / pc.member_inner) * pc.member_outer_stride + (m % pc.member_inner) * pc.member_inner_stride;
}
uint norm_channel(uint address) { return (address / pc.channel_stride) % pc.channels; }
