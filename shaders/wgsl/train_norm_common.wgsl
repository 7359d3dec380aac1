// Training norms: the (set, member) layout of train_norm_layout.hpp, the first 10 words of the parameter
// block of train_norm_fwd.wgsl and train_norm_bwd.wgsl (train_norm_common.glsl's twin; the runner appends
// this file to theirs).
fn norm_address(s : u32, m : u32) -> u32 {
  return (s / pc.set_inner) * pc.set_outer_stride + (s % pc.set_inner) * pc.set_inner_stride +
         (m / pc.member_inner) * pc.member_outer_stride + (m % pc.member_inner) * pc.member_inner_stride;
}

fn norm_channel(address : u32) -> u32 {
  return (address / pc.channel_stride) % pc.channels;
}
