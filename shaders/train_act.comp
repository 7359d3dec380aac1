#version 450
// Training: the activation (kind 0 ReLU, 1 tanh, 2 sigmoid). Forward: B1 = f(B0). Backward:
// B2 = B1·f'(·) from the forward's output in B0 (ReLU: y > 0; tanh: 1 − y²; sigmoid: y(1 − y)).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; uint kind; uint backward; } pc;
layout(std430, binding = 0) readonly buffer B0b { float B0[]; };
layout(std430, binding = 1) buffer B1b { float B1[]; };
layout(std430, binding = 2) writeonly buffer B2b { float B2[]; };
#include "train_act_common.glsl"
void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    float v = B0[e];
    if (pc.backward == 0u) {
        B1[e] = act_apply(pc.kind + 1u, v);
        return;
    }
    B2[e] = B1[e] * act_slope(pc.kind + 1u, v);
}
