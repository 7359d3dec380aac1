// Element-wise ∂L/∂x (after grad_common.wgsl) with the forward's statistics and the statistics
// pass's means (GRAD[s]), as shaders/grad_apply.comp:
//   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)), g = dy·γ;  RMS: no mean(g) term;
//   EVAL (BatchNorm with running statistics, constants): dx = rstd·g.
// Workgroup w handles chunk (w % chunks) of statistic (w / chunks), as norm_apply.wgsl; with ROWS
// (layer/rms, one γ per element) chunk (w % chunks) of the L.gstat_seg_mul statistics of block
// w / chunks, and it also writes, per element e of its chunk, Σdy and Σdy·x̂ over them as
// PARTIALS[e·L.gstat_p_div + block], which grad_merge.wgsl adds up to ∂L/∂β, ∂L/∂γ: no second pass
// over x and dy.

var<private> pa: array<f32, VPT>;  // ROWS: Σdy of element j's over the block's statistics
var<private> pb: array<f32, VPT>;  // ROWS: Σdy·x̂

// ∂L/∂x of statistic s over elements [e0, e1) (at most VPT per invocation); the ROWS sums gain
// its dy and dy·x̂.
fn statistic(s: u32, e0: u32, e1: u32, lane: u32) {
    let st = STATS[s];
    var m = vec2<f32>(0.0);  // mean g, mean g·x̂
    if (!EVAL) { m = GRAD[s].xy; }
    if (RMS) { m.x = 0.0; }
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = e0 + j * WG + lane;
        if (e >= e1) { break; }
        let i = element_offset(s * L.stat_stride, e);
        let dy = DY[i];
        let xh = grad_xhat(X[i], st);
        Y[i] = st.w * (dy * grad_gamma(s, e) - m.x - xh * m.y);
        if (ROWS) {
            pa[j] = pa[j] + dy;
            pb[j] = pb[j] + dy * xh;
        }
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let w = linear_workgroup(wid);
    var per = 1u;
    if (ROWS) { per = L.gstat_seg_mul; }
    let blocks = (L.stat_count + per - 1u) / per;
    if (w >= blocks * L.chunks) { return; }
    let blk = w / L.chunks;
    let e0 = (w - blk * L.chunks) * L.chunk_len;
    let e1 = min(e0 + L.chunk_len, L.count);
    let s1 = min(blk * per + per, L.stat_count);
    for (var s = blk * per; s < s1; s = s + 1u) { statistic(s, e0, e1, lid.x); }
    if (!ROWS) { return; }
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = e0 + j * WG + lid.x;
        if (e >= e1) { break; }
        PARTIALS[e * L.gstat_p_div + blk] = vec4<f32>(pa[j], pb[j], f32(s1 - blk * per), 0.0);
    }
}
