// The weights of a 3×3 conv invocation's block of 4 channels (train_conv_forward.comp,
// train_conv_backward_input.comp): block_weights gives wv[t][c] = weight_at(base[c] + off + t), t < 9, c < 4.
// With subgroup ballots (NL_SUBGROUP_BALLOT) and a subgroup of at least 8 lanes whose invocations all have
// the same base (weight_lanes: the same key), lane L loads the flat weights 8m + L (m < 5, flat index
// c·9 + t) and subgroupBroadcast hands each to every lane: 5 loads instead of 36. Otherwise each invocation
// loads its 36. Both give the same values. The including shader defines float weight_at(uint k) first.

#ifdef NL_SUBGROUP_BALLOT
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif

struct WeightLanes {
    bool same;  // the subgroup shares base: block_weights broadcasts
    uint off[5];  // this lane's flat weights 8m + L: base[c] + t
};

// Called by every invocation of the subgroup (none may have left).
WeightLanes weight_lanes(uint key, uint base[4]) {
    WeightLanes l;
    l.same = false;
#ifdef NL_SUBGROUP_BALLOT
    bool eq = key == subgroupBroadcast(key, 0u);
    l.same = gl_SubgroupSize >= 8u && subgroupBallot(eq) == subgroupBallot(true);
    uint lane = gl_SubgroupInvocationID & 7u;
    for (uint m = 0u; m < 5u; ++m) {  // once per invocation: the array's indexing costs little here
        uint f = min(m * 8u + lane, 35u);
        l.off[m] = base[f / 9u] + f % 9u;
    }
#endif
    return l;
}

#ifdef NL_SUBGROUP_BALLOT
// The flat weight F (a literal) from the lane that loaded it.
#define NL_WB(F) subgroupBroadcast(v[(F) / 8], uint((F) % 8))
#endif

// Called by every invocation of the subgroup in uniform control flow.
void block_weights(WeightLanes l, uint base[4], uint off, out vec4 wv[9]) {
#ifdef NL_SUBGROUP_BALLOT
    if (l.same) {
        // Constant indices only (a loop counter's indexing costs a loop over the SIMD lanes on lavapipe).
        float v[5] = float[5](weight_at(l.off[0] + off), weight_at(l.off[1] + off), weight_at(l.off[2] + off),
                              weight_at(l.off[3] + off), weight_at(l.off[4] + off));
        wv[0] = vec4(NL_WB(0), NL_WB(9), NL_WB(18), NL_WB(27));
        wv[1] = vec4(NL_WB(1), NL_WB(10), NL_WB(19), NL_WB(28));
        wv[2] = vec4(NL_WB(2), NL_WB(11), NL_WB(20), NL_WB(29));
        wv[3] = vec4(NL_WB(3), NL_WB(12), NL_WB(21), NL_WB(30));
        wv[4] = vec4(NL_WB(4), NL_WB(13), NL_WB(22), NL_WB(31));
        wv[5] = vec4(NL_WB(5), NL_WB(14), NL_WB(23), NL_WB(32));
        wv[6] = vec4(NL_WB(6), NL_WB(15), NL_WB(24), NL_WB(33));
        wv[7] = vec4(NL_WB(7), NL_WB(16), NL_WB(25), NL_WB(34));
        wv[8] = vec4(NL_WB(8), NL_WB(17), NL_WB(26), NL_WB(35));
        return;
    }
#endif
    uint b0 = base[0] + off, b1 = base[1] + off, b2 = base[2] + off, b3 = base[3] + off;
#define NL_WT(T) wv[T] = vec4(weight_at(b0 + uint(T)), weight_at(b1 + uint(T)), weight_at(b2 + uint(T)), \
                           weight_at(b3 + uint(T)))
    NL_WT(0);
    NL_WT(1);
    NL_WT(2);
    NL_WT(3);
    NL_WT(4);
    NL_WT(5);
    NL_WT(6);
    NL_WT(7);
    NL_WT(8);
#undef NL_WT
}
