// Level 2: y = LayerNorm(x W + b) over N = 256 outputs per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    linear_layernorm(int K, float eps, const float *__restrict__ x,
                     const float *__restrict__ W, const float *__restrict__ b,
                     const float *__restrict__ gamma,
                     const float *__restrict__ beta, float *__restrict__ y) {
  const int N = BENCH_BLOCK;
  __shared__ float xs[512];
  __shared__ float scratch[4];
  int n = threadIdx.x;
  const float *xr = x + (long)blockIdx.x * K;
  for (int k = n; k < K; k += N)
    xs[k] = xr[k];
  __syncthreads();
  float acc = b[n];
  for (int k = 0; k < K; ++k)
    acc += xs[k] * W[k * N + n];
  float mean = block_sum(acc, scratch) / N;
  float d = acc - mean;
  float var = block_sum(d * d, scratch) / N;
  y[(long)blockIdx.x * N + n] = d * rsqrtf(var + eps) * gamma[n] + beta[n];
}
