// Level 2: y = (x W) * s + x (square W, N = K = 256): one workgroup per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    matmul_scale_residual(float s, const float *__restrict__ x,
                          const float *__restrict__ W, float *__restrict__ y) {
  const int N = BENCH_BLOCK;
  __shared__ float xs[BENCH_BLOCK];
  int n = threadIdx.x;
  const float *xr = x + (long)blockIdx.x * N;
  xs[n] = xr[n];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < N; ++k)
    acc += xs[k] * W[k * N + n];
  y[(long)blockIdx.x * N + n] = acc * s + xs[n];
}
