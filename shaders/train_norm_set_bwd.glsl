// Training norms: one set's input gradient, shared by train_norm_bwd.comp and train_norm_linear_dx.comp
// (each sum in order of the invocation's members m = t, t + stride, …): g = DY·γ[c],
// DZ = rstd·(g − mean(g) − xhat·mean(g·xhat)) (rms, flag 1: without the − mean(g)). The kernel declares DY,
// XHAT, STATS, GAMMA, the output DZ and pc's layout words and flags, and includes train_norm_common.glsl.
vec2 norm_bwd_parts(uint s, uint t, uint stride) {  // invocation t's part of (Σ g, Σ g·xhat) over set s
    float sg = 0.0, sgx = 0.0;
    for (uint m = t; m < pc.members; m += stride) {
        uint a = norm_address(s, m);
        float g = DY[a] * GAMMA[norm_channel(a)];
        sg += g;
        sgx += g * XHAT[a];
    }
    return vec2(sg, sgx);
}
void norm_bwd_write(uint s, uint t, uint stride, float sg, float sgx) {  // DZ of its members from the sums
    float M = float(pc.members);
    float mg = (pc.flags & 1u) != 0u ? 0.0 : sg / M;
    float mgx = sgx / M;
    float rstd = STATS[2u * s + 1u];
    for (uint m = t; m < pc.members; m += stride) {
        uint a = norm_address(s, m);
        float g = DY[a] * GAMMA[norm_channel(a)];
        DZ[a] = rstd * (g - mg - XHAT[a] * mgx);
    }
}
