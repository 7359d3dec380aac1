// Heatmap image of an N×C×H×W tensor, the WGSL twin of shaders/heatmap.comp (the same parameters,
// normlab/core/heatmap_fill_params.hpp's HeatmapFillParams, as a uniform; the same bindings; the same pixel
// rule): an N (rows) × C (columns) grid of H×W tiles (normlab/views/tile_layout.hpp), one packed RGBA8 value per pixel of the image.
// mode 0/1/2: input x, output y, or y − x through a color lookup table over [vmin, vmax],
//   averaged over the elements a pixel covers when an element is smaller than a pixel;
// mode 3: the color of each element's statistic (StatLayout: stat_of(i) = (i/stat_stride) % stat_count).
// With a selected statistic, elements of every other statistic are dimmed. The image is the img_w × img_h
// window at (org_x, org_y) of the grid (a zoomed heatmap's visible part). The colour table and the
// palette are buffers the host fills from views/colormap (as for the GLSL kernel).

struct Fill {
    N: u32,
    C: u32,
    H: u32,
    W: u32,
    img_w: u32,
    img_h: u32,
    cell: f32,  // pixels per element
    gap: f32,   // pixels between tiles
    mode: u32,
    vmin: f32,
    vmax: f32,
    stat_count: u32,
    stat_stride: u32,
    sel_stat: i32,  // -1: none
    lut_size: u32,
    org_x: f32,  // the window's top-left corner in the grid's pixels
    org_y: f32,
}

@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read> Y: array<f32>;
@group(0) @binding(2) var<storage, read> STAT_COLOR: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> LUT: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> PIX: array<u32>;
@group(0) @binding(5) var<uniform> F: Fill;

const BG = vec3<f32>(0.10, 0.10, 0.11);
const NONFINITE = vec3<f32>(1.0, 0.0, 1.0);

fn stat_of(i: u32) -> u32 { return (i / F.stat_stride) % F.stat_count; }

fn value_at(i: u32) -> f32 {
    if (F.mode == 0u) { return X[i]; }
    if (F.mode == 1u) { return Y[i]; }
    return Y[i] - X[i];
}

// NaN and ±Inf by their bits (WGSL may assume neither occurs).
fn finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }

fn lut(v: f32) -> vec3<f32> {
    if (!finite(v)) { return NONFINITE; }
    var t = 0.5;
    if (F.vmax > F.vmin) { t = clamp((v - F.vmin) / (F.vmax - F.vmin), 0.0, 1.0); }
    return LUT[u32(round(t * f32(F.lut_size - 1u)))].rgb;
}

// The pixel covers elements [w0, w1) × [h0, h1) of the tile: the mean of up to 4×4 of them.
fn covered_mean(tile: u32, ix: f32, iy: f32, center: u32) -> f32 {
    let x0 = ix - 0.5;
    let y0 = iy - 0.5;
    let w0 = u32(max(x0, 0.0) / F.cell);
    let w1 = min(F.W, u32((x0 + 1.0) / F.cell) + 1u);
    let h0 = u32(max(y0, 0.0) / F.cell);
    let h1 = min(F.H, u32((y0 + 1.0) / F.cell) + 1u);
    let sw = max(1u, (w1 - w0 + 3u) / 4u);
    let sh = max(1u, (h1 - h0 + 3u) / 4u);
    var sum = 0.0;
    var k = 0.0;
    for (var yy = h0; yy < h1; yy = yy + sh) {
        for (var xx = w0; xx < w1; xx = xx + sw) {
            sum = sum + value_at(tile + yy * F.W + xx);
            k = k + 1.0;
        }
    }
    if (k > 0.0) { return sum / k; }
    return value_at(center);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = gid.xy;
    if (p.x >= F.img_w || p.y >= F.img_h) { return; }
    let tw = f32(F.W) * F.cell;
    let th = f32(F.H) * F.cell;
    let fx = f32(p.x) + 0.5 + F.org_x;
    let fy = f32(p.y) + 0.5 + F.org_y;
    let c = u32(max(fx, 0.0) / (tw + F.gap));
    let n = u32(max(fy, 0.0) / (th + F.gap));
    let ix = fx - f32(c) * (tw + F.gap);
    let iy = fy - f32(n) * (th + F.gap);
    var color = BG;
    if (fx >= 0.0 && fy >= 0.0 && c < F.C && n < F.N && ix < tw && iy < th) {
        let w = min(F.W - 1u, u32(ix / F.cell));
        let h = min(F.H - 1u, u32(iy / F.cell));
        let tile = (n * F.C + c) * F.H * F.W;
        let center = tile + h * F.W + w;
        if (F.mode == 3u) {
            color = STAT_COLOR[stat_of(center)].rgb;
        } else if (F.cell >= 1.0) {
            color = lut(value_at(center));
        } else {
            color = lut(covered_mean(tile, ix, iy, center));
        }
        if (F.sel_stat >= 0 && stat_of(center) != u32(F.sel_stat)) {
            // Dimmed: statistics mode keeps a faint tint so the partition stays visible;
            // value modes go grey so the selected group's colors stand out.
            let grey = dot(color, vec3<f32>(0.299, 0.587, 0.114));
            if (F.mode == 3u) {
                color = mix(color, BG, 0.7);
            } else {
                color = mix(vec3<f32>(grey), BG, 0.75);
            }
        }
    }
    PIX[p.y * F.img_w + p.x] = pack4x8unorm(vec4<f32>(color, 1.0));
}
