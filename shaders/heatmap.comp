#version 450
// Heatmap image of an N×C×H×W tensor: an N (rows) × C (columns) grid of H×W tiles (the
// geometry of normlab/views/tile_layout.hpp), one packed RGBA8 value per pixel of the on-screen image.
// mode 0/1/2: input x, output y, or y − x through a color lookup table over [vmin, vmax],
//   averaged over the elements a pixel covers when an element is smaller than a pixel;
// mode 3: the color of each element's statistic (StatLayout: stat_of(i) = (i/stat_stride) % stat_count).
// With a selected statistic, elements of every other statistic are dimmed.
// The image is the img_w × img_h window at (org_x, org_y) of the grid (a zoomed heatmap's visible part).
layout(local_size_x = 16, local_size_y = 16) in;

// normlab/core/heatmap_fill_params.hpp's HeatmapFillParams.
layout(push_constant) uniform Push {
    uint N, C, H, W;
    uint img_w, img_h;
    float cell;   // pixels per element
    float gap;    // pixels between tiles
    uint mode;
    float vmin, vmax;
    uint stat_count, stat_stride;
    int sel_stat;  // -1: none
    uint lut_size;
    float org_x, org_y;  // the window's top-left corner in the grid's pixels
} pc;

layout(std430, binding = 0) readonly buffer XBuf { float X[]; };
layout(std430, binding = 1) readonly buffer YBuf { float Y[]; };
layout(std430, binding = 2) readonly buffer Palette { vec4 STAT_COLOR[]; };
layout(std430, binding = 3) readonly buffer Lut { vec4 LUT[]; };
layout(std430, binding = 4) writeonly buffer Pixels { uint PIX[]; };

const vec3 BG = vec3(0.10, 0.10, 0.11);
const vec3 NONFINITE = vec3(1.0, 0.0, 1.0);

uint stat_of(uint i) { return (i / pc.stat_stride) % pc.stat_count; }

float value_at(uint i) {
    if (pc.mode == 0u) return X[i];
    if (pc.mode == 1u) return Y[i];
    return Y[i] - X[i];
}

vec3 lut(float v) {
    if (isnan(v) || isinf(v)) return NONFINITE;
    float t = pc.vmax > pc.vmin ? clamp((v - pc.vmin) / (pc.vmax - pc.vmin), 0.0, 1.0) : 0.5;
    return LUT[uint(round(t * float(pc.lut_size - 1u)))].rgb;
}

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.img_w || p.y >= pc.img_h) return;
    float tw = float(pc.W) * pc.cell, th = float(pc.H) * pc.cell;
    float fx = float(p.x) + 0.5 + pc.org_x, fy = float(p.y) + 0.5 + pc.org_y;
    uint c = uint(max(fx, 0.0) / (tw + pc.gap));
    uint n = uint(max(fy, 0.0) / (th + pc.gap));
    float ix = fx - float(c) * (tw + pc.gap);
    float iy = fy - float(n) * (th + pc.gap);
    vec3 color = BG;
    if (fx >= 0.0 && fy >= 0.0 && c < pc.C && n < pc.N && ix < tw && iy < th) {
        uint w = min(pc.W - 1u, uint(ix / pc.cell));
        uint h = min(pc.H - 1u, uint(iy / pc.cell));
        uint tile = (n * pc.C + c) * pc.H * pc.W;
        uint center = tile + h * pc.W + w;
        if (pc.mode == 3u) {
            color = STAT_COLOR[stat_of(center)].rgb;
        } else if (pc.cell >= 1.0) {
            color = lut(value_at(center));
        } else {
            // The pixel covers elements [w0, w1) × [h0, h1) of the tile: average up to 4×4 of them.
            float x0 = ix - 0.5, y0 = iy - 0.5;
            uint w0 = uint(max(x0, 0.0) / pc.cell), w1 = min(pc.W, uint((x0 + 1.0) / pc.cell) + 1u);
            uint h0 = uint(max(y0, 0.0) / pc.cell), h1 = min(pc.H, uint((y0 + 1.0) / pc.cell) + 1u);
            uint sw = max(1u, (w1 - w0 + 3u) / 4u), sh = max(1u, (h1 - h0 + 3u) / 4u);
            float sum = 0.0, k = 0.0;
            for (uint yy = h0; yy < h1; yy += sh)
                for (uint xx = w0; xx < w1; xx += sw) {
                    sum += value_at(tile + yy * pc.W + xx);
                    k += 1.0;
                }
            color = lut(k > 0.0 ? sum / k : value_at(center));
        }
        if (pc.sel_stat >= 0 && stat_of(center) != uint(pc.sel_stat)) {
            // Dimmed: statistics mode keeps a faint tint so the partition stays visible;
            // value modes go grey so the selected group's colors stand out.
            float grey = dot(color, vec3(0.299, 0.587, 0.114));
            color = pc.mode == 3u ? mix(color, BG, 0.7) : mix(vec3(grey), BG, 0.75);
        }
    }
    PIX[p.y * pc.img_w + p.x] = packUnorm4x8(vec4(color, 1.0));
}
