// Training: Linear's input gradient of one block of 4 samples × 4 inputs (train_linear_dx_rows.glsl's twin),
// for train_linear_dx, train_norm_linear_dx, train_head_step: DX[n, i] = Σₒ DZ[n, o]·W[o, i] in order of o, times
// f'(A[n, i]) of the activation pc.act (0 none, A unused). The kernel declares W, DX, pc.N, pc.In, pc.Out,
// pc.act, dz_at(e) and a_at(e) (DZ[e] and A[e]: WGSL has no #define, with which train_head_step.comp names
// its buffers), and appends train_linear_block.wgsl and train_act_common.wgsl.
fn linear_dx_block(n0 : u32, i0 : u32) {
  var acc : array<array<f32, 4>, 4>;
  for (var o = 0u; o < pc.Out; o++) {
    // Rows and columns past the end load the last one's values, never stored.
    var dy : array<f32, 4>;
    var w : array<f32, 4>;
    for (var a = 0u; a < 4u; a++) {
      dy[a] = dz_at(min(n0 + a, pc.N - 1u) * pc.Out + o);
      w[a] = W[o * pc.In + min(i0 + a, pc.In - 1u)];
    }
    block_fma(&acc, dy, w);
  }
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      let n = n0 + a;
      let i = i0 + b;
      if (n < pc.N && i < pc.In) {
        let e2 = n * pc.In + i;
        var g = acc[a][b];
        if (pc.act != 0u) {
          g = g * act_slope(pc.act, a_at(e2));
        }
        DX[e2] = g;
      }
    }
  }
}
