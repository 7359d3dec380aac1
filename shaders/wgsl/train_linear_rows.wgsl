// Training: Linear's forward sums of one block of 4 samples × 4 outputs (train_linear_rows.glsl's twin),
// acc[a][b] = Σᵢ X[n0 + a, i]·W[o0 + b, i] in order of i (without the bias), for train_linear.wgsl and
// train_linear_norm.wgsl: the kernel declares X, W and pc.N, pc.In, pc.Out, and appends train_linear_block.wgsl.
fn linear_block_sums(n0 : u32, o0 : u32) -> array<array<f32, 4>, 4> {
  var acc : array<array<f32, 4>, 4>;
  for (var i = 0u; i < pc.In; i++) {
    // Rows past the end load the last row's values, never stored.
    var x : array<f32, 4>;
    var w : array<f32, 4>;
    for (var a = 0u; a < 4u; a++) {
      x[a] = X[min(n0 + a, pc.N - 1u) * pc.In + i];
      w[a] = W[min(o0 + a, pc.Out - 1u) * pc.In + i];
    }
    block_fma(&acc, x, w);
  }
  return acc;
}
