// Level 1: inclusive prefix sum along rows of 1024 floats: 256 threads x 4
// elements, LDS scan of the per-thread sums (Hillis-Steele).
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    cumsum(const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float s[BENCH_BLOCK];
  const float *row = x + (long)blockIdx.x * 1024;
  float *out = y + (long)blockIdx.x * 1024;
  unsigned t = threadIdx.x;
  float v[4], run = 0;
  for (int k = 0; k < 4; ++k) {
    run += row[t * 4 + k];
    v[k] = run;
  }
  s[t] = run;
  __syncthreads();
  for (unsigned o = 1; o < BENCH_BLOCK; o <<= 1) {
    float add = t >= o ? s[t - o] : 0.0f;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  float before = t ? s[t - 1] : 0.0f;
  for (int k = 0; k < 4; ++k)
    out[t * 4 + k] = v[k] + before;
}
