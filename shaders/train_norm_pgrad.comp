#version 450
// Training: a norm's parameter gradients, one invocation per channel c: dγ[c] = Σ dY·xhat and
// dβ[c] = Σ dY over the channel's rows × inner elements (r·row_stride + c·channel_stride + i).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint channels; uint rows; uint row_stride; uint channel_stride; uint inner;
                                     uint has_bias; } pc;
layout(std430, binding = 0) readonly buffer DYb { float DY[]; };
layout(std430, binding = 1) readonly buffer XHb { float XHAT[]; };
layout(std430, binding = 2) writeonly buffer DGb { float DGAMMA[]; };
layout(std430, binding = 3) writeonly buffer DBb { float DBETA[]; };
void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= pc.channels) return;
    float dg = 0.0, db = 0.0;
    for (uint r = 0u; r < pc.rows; ++r) {
        for (uint i = 0u; i < pc.inner; ++i) {
            uint a = r * pc.row_stride + c * pc.channel_stride + i;
            dg += DY[a] * XHAT[a];
            db += DY[a];
        }
    }
    DGAMMA[c] = dg;
    if (pc.has_bias != 0u) DBETA[c] = db;
}
