// Fused statistics kernel for every method (after norm_common.wgsl), for statistics that fit
// one workgroup's registers (longer ones: norm_partial.wgsl): workgroup s owns statistic s. Each
// invocation keeps VPT accesses of PACK elements in registers, so x is read once:
// K = x[first element of the statistic] (a shift that keeps float32 sums exact for data far
// from 0), mean = Σ(x−K)/n, M2 = Σ(x−K−mean)² (an exact two-pass on registers); then it writes
// the statistic and y = γ·(x−K−mean)·rstd + β.
// RMS: no shift and no centering; the statistic is mean(x²) and y = γ·x·rstd.

var<workgroup> flags: atomic<u32>;  // workgroup memory starts zeroed (WebGPU guarantees it)
// workgroup_sum: workgroup_sum.wgsl (the host appends it)

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let owner = linear_workgroup(wid);
    if (owner >= L.stat_count * L.chunks) { return; }  // uniform: the same for the whole workgroup
    let lane = lid.x;
    let s = owner / L.chunks;
    let chunk = owner - s * L.chunks;
    let e0 = chunk * L.chunk_len;
    let e1 = min(e0 + L.chunk_len, L.count);
    let base = s * L.stat_stride;
    var K = 0.0;
    if (!RMS) { K = STATS[s].x; }

    // v[j]: access j's x − K (RMS: x), 0 in the components past PACK and past the chunk's end.
    var v: array<vec4<f32>, VPT>;
    var acc = vec4<f32>(0.0);
    var top = vec4<u32>(0u);  // the largest |x| bits (abs_bits4)
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = e0 + (j * WG + lane) * PACK;
        var t = vec4<f32>(0.0);
        if (e < e1) {
            let x = xe_to4(X[element_offset(base, e) / PACK]);
            top = max(top, abs_bits4(x));
            if (RMS) {
                t = x;
                acc = acc + x * x;
            } else {
                t = (x - K) * PACK_MASK;
                acc = acc + t;
            }
        }
        v[j] = t;
    }
    let bad = flags_of_max_bits(top);
    if (bad != 0u) { atomicOr(&flags, bad); }
    let n = f32(e1 - e0);
    // RMS: the mean square; its barriers order the flags too.
    let mean = workgroup_sum(lane, (acc.x + acc.y) + (acc.z + acc.w)) / n;
    let f = atomicLoad(&flags);
    var m2 = 0.0;
    if (!RMS) {
        var dev = vec4<f32>(0.0);
        for (var j = 0u; j < VPT; j = j + 1u) {
            if (e0 + (j * WG + lane) * PACK < e1) {
                let d = (v[j] - mean) * PACK_MASK;
                dev = dev + d * d;
            }
        }
        m2 = workgroup_sum(lane, (dev.x + dev.y) + (dev.z + dev.w));
    }

    let st = finish_stat(K, n, mean, m2, f);
    let pbase = param_base(s);
    for (var j = 0u; j < VPT; j = j + 1u) {
        let e = e0 + (j * WG + lane) * PACK;
        if (e < e1) {
            var x = v[j];
            if (!RMS) { x = x + K; }
            Y[element_offset(base, e) / PACK] = xe_from4(normalized4(v[j], x, st, pbase, e));
        }
    }
    if (lane == 0u) { STATS[s] = st; }
}
