#version 450
// Training (the step only): the head's Linear and the loss in one pass, one workgroup. Invocation t first
// computes the logits of its samples n = t, t + 64, … (train_head_logits.glsl), then reads them back for
// train_loss_body.glsl's softmax cross-entropy, dlogits and step counter (the samples it reads are the ones it
// wrote).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint N; uint K; uint eval; uint In; } pc;
layout(std430, binding = 0) readonly buffer Xb { float X[]; };
layout(std430, binding = 1) readonly buffer Wb { float W[]; };
layout(std430, binding = 2) readonly buffer Bb { float B[]; };
layout(std430, binding = 3) buffer Logits { float LOGITS[]; };
layout(std430, binding = 4) readonly buffer Labels { uint LABELS[]; };
layout(std430, binding = 5) writeonly buffer DLogits { float DLOGITS[]; };
layout(std430, binding = 6) buffer Log { float LOG[]; };
layout(std430, binding = 7) buffer Step { uint STEP; };
#include "train_loss_body.glsl"
#include "train_head_logits.glsl"
void main() {
    uint t = gl_LocalInvocationID.x;
    head_logits(t);
    loss_main(t);
}
