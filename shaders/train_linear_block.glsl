// Training: the Linear kernels' register block (train_linear*.comp): an invocation's 4 × 4 sums, each
// value of p and q serving four of them. block_fma adds p[a]·q[b] to acc[a][b] (one term of each sum).
void block_zero(out float acc[4][4]) {
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b) acc[a][b] = 0.0;
}
void block_fma(inout float acc[4][4], float p[4], float q[4]) {
    for (uint a = 0u; a < 4u; ++a)
        for (uint b = 0u; b < 4u; ++b) acc[a][b] += p[a] * q[b];
}
