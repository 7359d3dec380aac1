// Training: the Linear kernels' register block (train_linear*.wgsl), train_linear_block.glsl's twin: an
// invocation's 4 × 4 sums; block_fma adds p[a]·q[b] to acc[a][b] (one term of each sum).
fn block_fma(acc : ptr<function, array<array<f32, 4>, 4>>, p : array<f32, 4>, q : array<f32, 4>) {
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      (*acc)[a][b] += p[a] * q[b];
    }
  }
}
