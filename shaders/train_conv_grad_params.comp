#version 450
// Conv2d 3×3 (padding 1) gradients of its parameters on NCHW float32 (engine/train/conv_plan.hpp), both
// reductions over N·H·W. Workgroup g < Cout·Cin sums the 9 weights of (co, ci) = (g / Cin, g % Cin):
// ∂W[co,ci,ky,kx] = Σ_n,i,j dy[n,co,i,j]·x[n,ci,i+ky−1,j+kx−1]: each invocation walks every 64th row
// (n, i) of the planes, dy loaded once for all 9 and x through a 3×3 window slid along the row (as vec4s
// where W is a multiple of 4), so it sums ⌈N·H/64⌉·W terms in order; then the workgroup adds its 64
// partials of all 9 weights at once: with subgroup arithmetic (NL_SUBGROUP_ARITH) each subgroup's sums
// and those in order after one barrier, else one tree in wg_tree_sum's order (7 barriers, not 9 trees'
// 72): a sum of N·H·W float32 terms carries the rounding of about ⌈N·H/64⌉·W + 6 additions, not N·H·W.
// Workgroup Cout·Cin + co sums ∂b[co] = Σ_n,i,j dy[n,co,i,j], every 64th element per invocation
// (⌈N·H·W/64⌉ + 6 additions).
// Writes ∂W and ∂b (no accumulation).
layout(local_size_x = 64) in;
#include "workgroup_sum.glsl"

layout(push_constant) uniform Push {
    uint n;
    uint cin;
    uint cout;
    uint h;
    uint w;
} pc;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer DY { float dy[]; };
layout(std430, binding = 2) writeonly buffer DW { float dw[]; };
layout(std430, binding = 3) writeonly buffer DB { float db[]; };
// The same x and dy as vec4s, for rows of a multiple of 4 (row_sums4).
layout(std430, binding = 0) readonly buffer X4 { vec4 x4[]; };
layout(std430, binding = 1) readonly buffer DY4 { vec4 dy4[]; };

shared float part[9][gl_WorkGroupSize.x];  // part[k][invocation]: weight k's partial sums

// x[n, ci, yi, xj] of the plane at xb, 0 outside the image (the index clamped, so that a load the compiler
// hoists out of the condition stays in bounds).
float x_at(uint xb, int yi, int xj) {
    int h = int(pc.h), w = int(pc.w);
    float v = x[xb + uint(clamp(yi, 0, h - 1) * w + clamp(xj, 0, w - 1))];
    return (yi >= 0 && yi < h && xj >= 0 && xj < w) ? v : 0.0;
}

// One row's terms added to the 9 sums: at, am, ab hold weights (0, kx), (1, kx), (2, kx); dy's row at dr, x's
// plane at xb. t<kx>, m<kx>, b<kx>: x[i−1 / i / i+1, j+kx−1] (0 outside), the 3×3 window slid along the row.
// Scalars and vectors, not arrays: on lavapipe a local array indexed by a loop counter costs a loop over the
// SIMD lanes per access, several times the arithmetic.
void row_sums(uint dr, uint xb, int i, inout vec3 at, inout vec3 am, inout vec3 ab) {
    float t0 = 0.0, t1 = x_at(xb, i - 1, 0), t2 = x_at(xb, i - 1, 1);
    float m0 = 0.0, m1 = x_at(xb, i, 0), m2 = x_at(xb, i, 1);
    float b0 = 0.0, b1 = x_at(xb, i + 1, 0), b2 = x_at(xb, i + 1, 1);
    for (int j = 0; j < int(pc.w); ++j) {
        float d = dy[dr + uint(j)];
        at += d * vec3(t0, t1, t2);
        am += d * vec3(m0, m1, m2);
        ab += d * vec3(b0, b1, b2);
        t0 = t1;
        t1 = t2;
        t2 = x_at(xb, i - 1, j + 2);
        m0 = m1;
        m1 = m2;
        m2 = x_at(xb, i, j + 2);
        b0 = b1;
        b1 = b2;
        b2 = x_at(xb, i + 1, j + 2);
    }
}

// x's row yi of the plane at xb, vec4 c of it (0 outside the image or past the row).
vec4 x_quad(uint xb, int yi, uint c) {
    uint q = pc.w / 4u;
    vec4 v = x4[(xb + uint(clamp(yi, 0, int(pc.h) - 1)) * pc.w) / 4u + min(c, q - 1u)];
    return (yi >= 0 && yi < int(pc.h) && c < q) ? v : vec4(0.0);
}

// row_sums for W a multiple of 4, 4 pixels a step: dy and the 3 rows of x loaded as vec4s (a load on lavapipe
// costs a loop over the lanes whatever its width). The same terms in the same order as row_sums.
void row_sums4(uint dr, uint xb, int i, inout vec3 at, inout vec3 am, inout vec3 ab) {
    vec4 tp = vec4(0.0), mp = vec4(0.0), bp = vec4(0.0);  // the quad before, current, after
    vec4 tc = x_quad(xb, i - 1, 0u), mc = x_quad(xb, i, 0u), bc = x_quad(xb, i + 1, 0u);
    for (uint c = 0u; c < pc.w / 4u; ++c) {
        vec4 tn = x_quad(xb, i - 1, c + 1u), mn = x_quad(xb, i, c + 1u), bn = x_quad(xb, i + 1, c + 1u);
        vec4 d = dy4[dr / 4u + c];
        at += d.x * vec3(tp.w, tc.xy);  // pixel 4c: x columns 4c − 1 … 4c + 1
        am += d.x * vec3(mp.w, mc.xy);
        ab += d.x * vec3(bp.w, bc.xy);
        at += d.y * tc.xyz;
        am += d.y * mc.xyz;
        ab += d.y * bc.xyz;
        at += d.z * tc.yzw;
        am += d.z * mc.yzw;
        ab += d.z * bc.yzw;
        at += d.w * vec3(tc.zw, tn.x);
        am += d.w * vec3(mc.zw, mn.x);
        ab += d.w * vec3(bc.zw, bn.x);
        tp = tc;
        tc = tn;
        mp = mc;
        mc = mn;
        bp = bc;
        bc = bn;
    }
}

void main() {
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint pairs = pc.cout * pc.cin;
    if (g >= pairs + pc.cout) return;  // the whole workgroup leaves: no barrier is skipped by part of it
    uint hw = pc.h * pc.w;
    if (g >= pairs) {
        uint co = g - pairs;
        float acc = 0.0;
        for (uint t = gl_LocalInvocationID.x; t < pc.n * hw; t += gl_WorkGroupSize.x)
            acc += dy[((t / hw) * pc.cout + co) * hw + t % hw];
        float total = wg_sum_a(acc);
        if (gl_LocalInvocationID.x == 0u) db[co] = total;
        return;
    }
    uint co = g / pc.cin, ci = g % pc.cin;
    vec3 at = vec3(0.0), am = vec3(0.0), ab = vec3(0.0);  // weights (0, kx), (1, kx), (2, kx)
    for (uint r = gl_LocalInvocationID.x; r < pc.n * pc.h; r += gl_WorkGroupSize.x) {
        uint n = r / pc.h;
        int i = int(r % pc.h);
        uint dr = (n * pc.cout + co) * hw + uint(i) * pc.w, xb = (n * pc.cin + ci) * hw;
        if (pc.w % 4u == 0u) {
            row_sums4(dr, xb, i, at, am, ab);
        } else {
            row_sums(dr, xb, i, at, am, ab);
        }
    }
    uint t = gl_LocalInvocationID.x;
#ifdef NL_SUBGROUP_ARITH
    // Each subgroup's 9 sums, then the subgroups' in order: one barrier (on lavapipe each costs a switch
    // between the workgroup's SIMD rows).
    vec3 st = subgroupAdd(at), sm = subgroupAdd(am), sb = subgroupAdd(ab);
    if (subgroupElect()) {
        part[0][gl_SubgroupID] = st.x;
        part[1][gl_SubgroupID] = st.y;
        part[2][gl_SubgroupID] = st.z;
        part[3][gl_SubgroupID] = sm.x;
        part[4][gl_SubgroupID] = sm.y;
        part[5][gl_SubgroupID] = sm.z;
        part[6][gl_SubgroupID] = sb.x;
        part[7][gl_SubgroupID] = sb.y;
        part[8][gl_SubgroupID] = sb.z;
    }
    barrier();  // every subgroup's sums stored before they are added
    if (t < 9u) {
        float total = 0.0;
        for (uint k = 0u; k < gl_NumSubgroups; ++k) total += part[t][k];
        dw[g * 9u + t] = total;
    }
#else
    // The 9 sums in one tree (workgroup_sum.glsl's wg_tree_sum order, 7 barriers for all 9).
    part[0][t] = at.x;
    part[1][t] = at.y;
    part[2][t] = at.z;
    part[3][t] = am.x;
    part[4][t] = am.y;
    part[5][t] = am.z;
    part[6][t] = ab.x;
    part[7][t] = ab.y;
    part[8][t] = ab.z;
    barrier();  // all partial sums stored before the first level reads them
    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride >>= 1u) {
        if (t < stride) {
            for (int k = 0; k < 9; ++k) part[k][t] += part[k][t + stride];
        }
        barrier();  // this level's sums written before the next level reads them
    }
    if (t < 9u) dw[g * 9u + t] = part[t][0];
#endif
}
