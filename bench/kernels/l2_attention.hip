// Level 2: single-head attention for one query row per workgroup:
// p = softmax(q K^T / sqrt(D)), out = p V; S = 256 keys, D = 64.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    attention(const float *__restrict__ Q, const float *__restrict__ Kt,
              const float *__restrict__ V, float *__restrict__ O) {
  const int S = BENCH_BLOCK, D = 64;
  __shared__ float q[D];
  __shared__ float p[S];
  __shared__ float scratch[4];
  __shared__ float part[4][D];
  int t = threadIdx.x;
  if (t < D)
    q[t] = Q[blockIdx.x * D + t];
  __syncthreads();
  // Score of key t.
  float sc = 0;
  for (int d = 0; d < D; ++d)
    sc += q[d] * Kt[d * S + t];
  sc *= 0.125f; // 1 / sqrt(64)
  float m = block_max(sc, scratch);
  float e = expf(sc - m);
  float sum = block_sum(e, scratch);
  p[t] = fdiv(e, sum);
  __syncthreads();
  // Output: 4 groups of 64 threads each sum a quarter of the keys.
  int d = t % D, g = t / D;
  float acc = 0;
  for (int j = g * (S / 4); j < (g + 1) * (S / 4); ++j)
    acc += p[j] * V[j * D + d];
  part[g][d] = acc;
  __syncthreads();
  if (t < D)
    O[blockIdx.x * D + t] = part[0][t] + part[1][t] + part[2][t] + part[3][t];
}
