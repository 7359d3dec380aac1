// Training: Linear's parameter gradients of one block of 4 outputs × 4 columns of (W | b)
// (train_linear_dw_rows.glsl's twin), for train_linear_dw, train_head_step, train_linear_bwd and
// train_norm_pgrad_dw: dW[o, i] = Σₙ DY[n, o]·X[n, i] and db[o] = Σₙ DY[n, o] in order of n (column In the bias,
// whose X is 1), then, with pc.sgd, train_sgd's step on each (W or b) with its momentum buffer (MW or MB). The
// kernel declares X, DW, DB, W, B, MW, MB, pc.N, pc.In, pc.Out, pc.sgd, pc.lr, pc.momentum and dy_at(e) (DY[e]),
// and appends train_linear_block.wgsl.
// One parameter's gradient g and, with sgd, its step: momentum m ← μ·m + g, p ← p − lr·m.
fn linear_dw_store(o : u32, i : u32, g : f32) {
  if (i == pc.In) {
    DB[o] = g;
    if (pc.sgd != 0u) {
      let m = pc.momentum * MB[o] + g;
      MB[o] = m;
      B[o] = B[o] - pc.lr * m;
    }
  } else {
    let w = o * pc.In + i;
    DW[w] = g;
    if (pc.sgd != 0u) {
      let m = pc.momentum * MW[w] + g;
      MW[w] = m;
      W[w] = W[w] - pc.lr * m;
    }
  }
}

fn linear_dw_block(o0 : u32, i0 : u32) {
  var acc : array<array<f32, 4>, 4>;
  for (var n = 0u; n < pc.N; n++) {
    // Rows and columns past the end load the last one's values, never stored.
    var dy : array<f32, 4>;
    var x : array<f32, 4>;
    for (var a = 0u; a < 4u; a++) {
      dy[a] = dy_at(n * pc.Out + min(o0 + a, pc.Out - 1u));
      x[a] = select(1.0, X[n * pc.In + min(i0 + a, pc.In - 1u)], i0 + a < pc.In);
    }
    block_fma(&acc, dy, x);
  }
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < 4u; b++) {
      if (o0 + a < pc.Out && i0 + b <= pc.In) {
        linear_dw_store(o0 + a, i0 + b, acc[a][b]);
      }
    }
  }
}
