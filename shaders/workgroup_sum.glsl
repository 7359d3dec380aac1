// Workgroup-wide sums for the reduction kernels. Every invocation gets the same total.
// With subgroup arithmetic: subgroupAdd, one shared-memory stage and one barrier per sum.
// Without it (NL_SUBGROUP_ARITH undefined): a shared-memory tree (workgroup size a power of 2).
// wg_sum_a and wg_sum_b use separate storage, so calling a then b needs no extra barrier.

#ifdef NL_SUBGROUP_ARITH
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
shared float red_a[128];
shared float red_b[128];

float wg_sum_a(float x) {
    float s = subgroupAdd(x);
    if (subgroupElect()) red_a[gl_SubgroupID] = s;
    barrier();  // orders the per-subgroup partial sums before every invocation reads them
    float t = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) t += red_a[i];
    return t;
}

float wg_sum_b(float x) {
    float s = subgroupAdd(x);
    if (subgroupElect()) red_b[gl_SubgroupID] = s;
    barrier();  // orders the per-subgroup partial sums before every invocation reads them
    float t = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) t += red_b[i];
    return t;
}
#else
shared float tree[gl_WorkGroupSize.x];

float wg_tree_sum(float x) {
    uint t = gl_LocalInvocationID.x;
    tree[t] = x;
    barrier();  // all values stored before the first level reads them
    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride >>= 1u) {
        if (t < stride) tree[t] += tree[t + stride];
        barrier();  // this level's sums written before the next level reads them
    }
    float total = tree[0];
    barrier();  // everyone has read tree[0] before the next sum overwrites it
    return total;
}
float wg_sum_a(float x) { return wg_tree_sum(x); }
float wg_sum_b(float x) { return wg_tree_sum(x); }
#endif
