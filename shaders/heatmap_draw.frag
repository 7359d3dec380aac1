#version 450
// Copies the heatmap pixel buffer (one packed RGBA8 per image pixel, 1:1 with the
// framebuffer) to the screen: no sampler, no image layouts.
layout(push_constant) uniform Push {
    vec4 rect;
    ivec2 origin;
    uint img_w, img_h;
} pc;
layout(std430, binding = 0) readonly buffer Pixels { uint PIX[]; };
layout(location = 0) out vec4 color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) - pc.origin;
    if (p.x < 0 || p.y < 0 || p.x >= int(pc.img_w) || p.y >= int(pc.img_h)) discard;
    color = unpackUnorm4x8(PIX[p.y * int(pc.img_w) + p.x]);
}
