// Level 2: y = GroupNorm(swish(x W + b) + r): x M x K, W K x N (N = 256),
// 8 groups of 32 channels. One 256-thread workgroup per row, thread n
// computes output channel n.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    matmul_swish_sum_groupnorm(int K, float eps, const float *__restrict__ x,
                               const float *__restrict__ W,
                               const float *__restrict__ b,
                               const float *__restrict__ r,
                               const float *__restrict__ gamma,
                               const float *__restrict__ beta,
                               float *__restrict__ y) {
  const int N = BENCH_BLOCK;
  __shared__ float xs[512];
  __shared__ float gsum[8], gsq[8];
  int n = threadIdx.x;
  const float *xr = x + (long)blockIdx.x * K;
  for (int k = n; k < K; k += N)
    xs[k] = xr[k];
  __syncthreads();
  float acc = b[n];
  for (int k = 0; k < K; ++k)
    acc += xs[k] * W[k * N + n];
  float v = swish(acc) + r[(long)blockIdx.x * N + n];
  // Group statistics: 32 consecutive channels = half a wave.
  float s = v, q = v * v;
  for (int o = 16; o > 0; o >>= 1) {
    s += __shfl_xor(s, o, 32);
    q += __shfl_xor(q, o, 32);
  }
  if (n % 32 == 0) {
    gsum[n / 32] = s;
    gsq[n / 32] = q;
  }
  __syncthreads();
  float mean = gsum[n / 32] / 32, var = gsq[n / 32] / 32 - mean * mean;
  y[(long)blockIdx.x * N + n] =
      (v - mean) * rsqrtf(var + eps) * gamma[n] + beta[n];
}
