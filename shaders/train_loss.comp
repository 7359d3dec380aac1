#version 450
// Training: softmax cross-entropy and accuracy of the logits (train_loss_body.glsl), one workgroup.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint K; uint eval; } pc;
layout(std430, binding = 0) readonly buffer Logits { float LOGITS[]; };
layout(std430, binding = 1) readonly buffer Labels { uint LABELS[]; };
layout(std430, binding = 2) writeonly buffer DLogits { float DLOGITS[]; };
layout(std430, binding = 3) buffer Log { float LOG[]; };
layout(std430, binding = 4) buffer Step { uint STEP; };
#include "train_loss_body.glsl"
void main() { loss_main(gl_LocalInvocationID.x); }
