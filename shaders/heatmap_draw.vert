#version 450
// Draws the heatmap image (a pixel buffer filled by heatmap.comp) inside an ImGui window:
// a quad over `rect` (normalized device coordinates), 6 vertices, no vertex buffer.
layout(push_constant) uniform Push {
    vec4 rect;      // x0, y0, x1, y1 in NDC
    ivec2 origin;   // framebuffer pixel of the image's top-left corner
    uint img_w, img_h;
} pc;

void main() {
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexIndex];
    gl_Position = vec4(mix(pc.rect.xy, pc.rect.zw, c), 0.0, 1.0);
}
