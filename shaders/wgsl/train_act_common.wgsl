// Training: the activations as the fused kernels apply them, train_act_common.glsl's twin (the runner
// appends this file to the kernels that name it). act: 0 none, 1 ReLU, 2 tanh, 3 sigmoid
// (TrainActivation + 1). act_slope takes the activation's output y: ReLU y > 0, tanh 1 − y², sigmoid y(1 − y).
fn act_apply(act : u32, v : f32) -> f32 {
  if (act == 1u) {
    return max(v, 0.0);
  }
  if (act == 2u) {
    return tanh(v);
  }
  if (act == 3u) {
    return 1.0 / (1.0 + exp(-v));
  }
  return v;
}

fn act_slope(act : u32, y : f32) -> f32 {
  if (act == 1u) {
    return select(0.0, 1.0, y > 0.0);
  }
  if (act == 2u) {
    return 1.0 - y * y;
  }
  if (act == 3u) {
    return y * (1.0 - y);
  }
  return 1.0;
}
