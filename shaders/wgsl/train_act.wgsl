// Training: the activation (kind 0 ReLU, 1 tanh, 2 sigmoid), train_act.comp's twin. Forward: B1 = f(B0).
// Backward: B2 = B1·f'(·) from the forward's output in B0 (ReLU: y > 0; tanh: 1 − y²; sigmoid: y(1 − y)).
// Every train_*.wgsl kernel binds its storage buffers read_write at the GLSL kernel's bindings and its
// parameter block as the uniform at binding 8 (wgpu_train_runner.hpp).
// append: train_act_common.wgsl
struct Push {
  count : u32,
  kind : u32,
  backward : u32,
}

@group(0) @binding(0) var<storage, read_write> B0 : array<f32>;
@group(0) @binding(1) var<storage, read_write> B1 : array<f32>;
@group(0) @binding(2) var<storage, read_write> B2 : array<f32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let e = gid.x;
  if (e >= pc.count) {
    return;
  }
  let v = B0[e];
  if (pc.backward == 0u) {
    B1[e] = act_apply(pc.kind + 1u, v);
    return;
  }
  B2[e] = B1[e] * act_slope(pc.kind + 1u, v);
}
