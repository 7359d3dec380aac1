// Training norms: one set's forward arithmetic, shared by train_norm_fwd.comp and train_linear_norm.comp
// (each sum in order of the invocation's members m = t, t + stride, …). The including kernel declares the
// norm's input Z, its outputs Y and XHAT, GAMMA and BETA, pc's layout words and flags, and includes
// train_norm_common.glsl and train_act_common.glsl first.
float norm_part_sum(uint s, uint t, uint stride) {  // invocation t's part of Σ z over set s
    float acc = 0.0;
    for (uint m = t; m < pc.members; m += stride) acc += Z[norm_address(s, m)];
    return acc;
}
float norm_part_squares(uint s, uint t, uint stride, float mean) {  // its part of Σ (z − mean)²
    float acc = 0.0;
    for (uint m = t; m < pc.members; m += stride) {
        float d = Z[norm_address(s, m)] - mean;
        acc += d * d;
    }
    return acc;
}
// xhat = (z − mean)·rstd and Y = f(xhat·γ[c] (+ β[c])) of the invocation's members of set s.
void norm_write(uint s, uint t, uint stride, float mean, float rstd, uint act) {
    for (uint m = t; m < pc.members; m += stride) {
        uint a = norm_address(s, m), c = norm_channel(a);
        float xh = (Z[a] - mean) * rstd;
        XHAT[a] = xh;
        Y[a] = act_apply(act, xh * GAMMA[c] + ((pc.flags & 8u) != 0u ? BETA[c] : 0.0));
    }
}
