// Backward reductions (after grad_common.wgsl), as shaders/grad_reduce.comp. Owner o reduces
// chunk (o % chunks) of group (o / chunks) of the bound layout and writes the partial
// (Σa, Σb, count, 0), which grad_merge.wgsl adds up:
//   statistics pass (PARAM_PASS false, the forward's StatLayout): a = g = dy·γ, b = g·x̂; where
//   every chunk has one γ (CHUNK_GAMMA) a = dy, b = dy·x̂ instead: grad_merge.wgsl multiplies them by
//   each chunk's γ and also adds them up per γ/β index (FROM_STATS, no γ/β pass);
//   γ/β pass (PARAM_PASS true, a ParamLayout whose groups are the γ/β indices p): a = dy,
//   b = dy·x̂, with x̂ from each element's own statistic (j·gstat_seg_mul + p / gstat_p_div,
//   j = e / segment_len).
// An owner is a workgroup (a shared-memory tree sums both terms), or with COLUMNS (γ/β of
// layer/rms: one element per row) one invocation that walks its chunk of rows alone,
// consecutive invocations taking consecutive p.

var<workgroup> tree_a: array<f32, WG>;
var<workgroup> tree_b: array<f32, WG>;

// a and b of element e (flat offset i) of group s; pterm = p / gstat_p_div, st = s's statistic.
fn terms(s: u32, e: u32, i: u32, pterm: u32, st: vec4<f32>) -> vec2<f32> {
    let dy = DY[i];
    if (PARAM_PASS) {
        let j = e / L.segment_len;
        return vec2<f32>(dy, dy * grad_xhat(X[i], STATS[j * L.gstat_seg_mul + pterm]));
    }
    var g = dy;
    if (!CHUNK_GAMMA) { g = dy * grad_gamma(s, e); }
    return vec2<f32>(g, g * grad_xhat(X[i], st));
}

// Σa and Σb over elements e0 + lane, e0 + lane + lanes, … < e1 of group s.
fn chunk_terms(s: u32, e0: u32, e1: u32, lane: u32, lanes: u32) -> vec2<f32> {
    let base = s * L.stat_stride;
    var pterm = 0u;
    if (PARAM_PASS && L.gstat_p_div != 0u) { pterm = s / L.gstat_p_div; }
    var st = vec4<f32>(0.0);
    if (!PARAM_PASS) { st = STATS[s]; }
    var acc = vec2<f32>(0.0);
    for (var e = e0 + lane; e < e1; e = e + lanes) { acc = acc + terms(s, e, element_offset(base, e), pterm, st); }
    return acc;
}

// The workgroup's sums of both terms; every invocation gets them. Uniform control flow only.
fn pair_sum(lane: u32, v: vec2<f32>) -> vec2<f32> {
    tree_a[lane] = v.x;
    tree_b[lane] = v.y;
    workgroupBarrier();  // all values stored before the first level reads them
    for (var stride = WG / 2u; stride > 0u; stride = stride / 2u) {
        if (lane < stride) {
            tree_a[lane] = tree_a[lane] + tree_a[lane + stride];
            tree_b[lane] = tree_b[lane] + tree_b[lane + stride];
        }
        workgroupBarrier();  // this level's sums written before the next level reads them
    }
    return vec2<f32>(tree_a[0], tree_b[0]);
}

// COLUMNS: invocation `owner` takes group (owner % stat_count) over chunk (owner / stat_count),
// so consecutive invocations read consecutive γ/β indices.
fn columns(owner: u32) {
    if (owner >= L.stat_count * L.chunks) { return; }
    let chunk = owner / L.stat_count;
    let s = owner - chunk * L.stat_count;
    let e0 = chunk * L.chunk_len;
    let e1 = min(e0 + L.chunk_len, L.count);
    PARTIALS[s * L.chunks + chunk] = vec4<f32>(chunk_terms(s, e0, e1, 0u, 1u), f32(e1 - e0), 0.0);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let w = linear_workgroup(wid);
    if (COLUMNS) {  // a constant: uniform, and the columns path has no barrier
        columns(w * WG + lid.x);
        return;
    }
    if (w >= L.stat_count * L.chunks) { return; }  // uniform: the same for the whole workgroup
    let c = chunk_of(w);  // chunk_len = WG·VPT: at most VPT elements per invocation
    let total = pair_sum(lid.x, chunk_terms(c.s, c.e0, c.e1, lid.x, WG));
    if (lid.x == 0u) { PARTIALS[w] = vec4<f32>(total, f32(c.e1 - c.e0), 0.0); }
}
