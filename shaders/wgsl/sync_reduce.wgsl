// SyncBN's all-reduce over K simulated devices, the WGSL twin of shaders/sync_reduce.comp, one
// invocation per channel c. Device k sent its shard's (count, mean, biased variance) of channel c;
// this combines them two ways:
//   sync:  Chan's parallel formula on (n, mean, M2 = var·n), shard after shard:
//          n = na + nb, δ = mb − ma, mean = ma + δ·nb/n, M2 = M2a + M2b + δ²·na·nb/n,
//          var = M2 / n — exactly the whole batch's statistics;
//   naive: mean = Σ mean_k / K, var = Σ var_k / K (the average of the shard variances, which
//          misses the variance of the shard means).
// OUT[c] = sync (mean, var, rstd, 0); OUT[C + c] = naive (mean, var, rstd, 0).
struct Reduce {
  devices : u32,   // K
  channels : u32,  // C
  eps : f32,
  groups_x : u32,  // the grid's width (2-D within the device's limit)
}

@group(0) @binding(0) var<storage, read> SHARD : array<vec4<f32>>;      // [K][C]: (count, mean, var, 0)
@group(0) @binding(1) var<storage, read_write> OUT : array<vec4<f32>>;  // [2][C]
@group(0) @binding(2) var<uniform> p : Reduce;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg : vec3<u32>, @builtin(local_invocation_index) li : u32) {
  let c = (wg.y * p.groups_x + wg.x) * 64u + li;
  if (c >= p.channels) {
    return;
  }
  let s0 = SHARD[c];
  var n = s0.x;
  var mean = s0.y;
  var m2 = s0.z * s0.x;
  var sum_mean = s0.y;
  var sum_var = s0.z;
  for (var k = 1u; k < p.devices; k = k + 1u) {
    let s = SHARD[k * p.channels + c];
    let nb = s.x;
    let total = n + nb;
    let delta = s.y - mean;
    mean = mean + delta * (nb / total);
    m2 = m2 + s.z * nb + delta * delta * (n * nb / total);
    n = total;
    sum_mean = sum_mean + s.y;
    sum_var = sum_var + s.z;
  }
  let v = m2 / n;
  OUT[c] = vec4<f32>(mean, v, 1.0 / sqrt(v + p.eps), 0.0);
  let kf = f32(p.devices);
  let nvar = sum_var / kf;
  OUT[p.channels + c] = vec4<f32>(sum_mean / kf, nvar, 1.0 / sqrt(nvar + p.eps), 0.0);
}
