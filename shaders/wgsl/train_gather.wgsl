// Training: the step's batch, train_gather.comp's twin — x[n, :] = x_train[i, :], labels[n] = y_train[i]
// with i = batches[step·B + n] (train_plan.hpp). One invocation per sample. Labels and batches are the
// int32 buffers' bits, read as u32 (never negative).
struct Push {
  B : u32,
  F : u32,
}

@group(0) @binding(0) var<storage, read_write> XTR : array<f32>;
@group(0) @binding(1) var<storage, read_write> YTR : array<u32>;
@group(0) @binding(2) var<storage, read_write> BATCHES : array<u32>;
@group(0) @binding(3) var<storage, read_write> STEP : array<u32>;
@group(0) @binding(4) var<storage, read_write> X : array<f32>;
@group(0) @binding(5) var<storage, read_write> LABELS : array<u32>;
@group(0) @binding(8) var<uniform> pc : Push;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let n = gid.x;
  if (n >= pc.B) {
    return;
  }
  let i = BATCHES[STEP[0] * pc.B + n];
  for (var f = 0u; f < pc.F; f++) {
    X[n * pc.F + f] = XTR[i * pc.F + f];
  }
  LABELS[n] = YTR[i];
}
