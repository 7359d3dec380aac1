#version 450
// Training: advances the step counter (the last pass of a step).
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Step { uint STEP; };
void main() { STEP += 1u; }
