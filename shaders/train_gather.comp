#version 450
// Training: the step's batch — x[n, :] = x_train[i, :], labels[n] = y_train[i] with
// i = batches[step·B + n] (train_plan.hpp). One invocation per sample.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint B; uint F; } pc;
layout(std430, binding = 0) readonly buffer XTrain { float XTR[]; };
layout(std430, binding = 1) readonly buffer YTrain { uint YTR[]; };
layout(std430, binding = 2) readonly buffer Batches { uint BATCHES[]; };
layout(std430, binding = 3) readonly buffer Step { uint STEP; };
layout(std430, binding = 4) writeonly buffer X { float X_[]; };
layout(std430, binding = 5) writeonly buffer Labels { uint LABELS[]; };
void main() {
    uint n = gl_GlobalInvocationID.x;
    if (n >= pc.B) return;
    uint i = BATCHES[STEP * pc.B + n];
    for (uint f = 0u; f < pc.F; ++f) X_[n * pc.F + f] = XTR[i * pc.F + f];
    LABELS[n] = YTR[i];
}
