// Training: the activations as the fused kernels apply them (train_linear, train_linear_dx,
// train_norm_fwd, train_act). act: 0 none, 1 ReLU, 2 tanh, 3 sigmoid (TrainActivation + 1).
// act_slope takes the activation's output y: ReLU y > 0, tanh 1 − y², sigmoid y(1 − y).
float act_apply(uint act, float v) {
    return act == 0u ? v : act == 1u ? max(v, 0.0) : act == 2u ? tanh(v) : 1.0 / (1.0 + exp(-v));
}
float act_slope(uint act, float y) {
    return act == 0u ? 1.0 : act == 1u ? (y > 0.0 ? 1.0 : 0.0) : act == 2u ? 1.0 - y * y : y * (1.0 - y);
}
