#version 450
// Training (the step only): the head's Linear, the loss and the head's backward in one pass, one workgroup
// (train_head_loss.comp, then train_linear_dx.comp and train_linear_dw.comp's blocks, so every value is bit for
// bit what those passes give). After the loss (dlogits, DY) a barrier; then dX[n, i] = Σₖ DY[n, k]·W[k, i] in
// order of k, times f'(X[n, i]) of the activation pc.act whose output X is (0: none); a barrier (dX has read W);
// then dW, db in order of n and, with pc.sgd, SGD's step on W and b. Thirteen storage buffers (the planner's
// TrainPlanOptions::max_storage_buffers decides). pc.Out = pc.K (the Linear rows' name for it).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    uint N; uint K; uint eval; uint In; uint Out; uint act; uint sgd; float lr; float momentum;
} pc;
layout(std430, binding = 0) readonly buffer Xb { float X[]; };
layout(std430, binding = 1) buffer Wb { float W[]; };
layout(std430, binding = 2) buffer Bb { float B[]; };
layout(std430, binding = 3) buffer Logits { float LOGITS[]; };
layout(std430, binding = 4) readonly buffer Labels { uint LABELS[]; };
layout(std430, binding = 5) buffer DLogits { float DLOGITS[]; };
layout(std430, binding = 6) buffer Log { float LOG[]; };
layout(std430, binding = 7) buffer Step { uint STEP; };
layout(std430, binding = 8) writeonly buffer DXb { float DX[]; };
layout(std430, binding = 9) writeonly buffer DWb { float DW[]; };
layout(std430, binding = 10) writeonly buffer DBb { float DB[]; };
layout(std430, binding = 11) buffer MWb { float MW[]; };
layout(std430, binding = 12) buffer MBb { float MB[]; };
#include "train_linear_block.glsl"
#include "train_act_common.glsl"
#include "train_loss_body.glsl"
#include "train_head_logits.glsl"
#define DZ DLOGITS
#define DY DLOGITS
#define A X
#include "train_linear_dx_rows.glsl"
#include "train_linear_dw_rows.glsl"
#include "train_linear_backward.glsl"
void main() {
    uint t = gl_LocalInvocationID.x;
    head_logits(t);
    loss_main(t);
    memoryBarrierBuffer();  // every dlogits (DY) written before the head's backward reads them
    barrier();
    linear_backward(t);
}
