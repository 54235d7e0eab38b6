// Level 1: RMSNorm over the last dimension: y = x / sqrt(mean(x^2) + eps) * w.
// One 256-thread workgroup per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    rmsnorm(int cols, float eps, const float *__restrict__ x,
            const float *__restrict__ w, float *__restrict__ y) {
  __shared__ float scratch[4];
  const float *row = x + (long)blockIdx.x * cols;
  float *out = y + (long)blockIdx.x * cols;
  float ss = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    ss += row[c] * row[c];
  ss = block_sum(ss, scratch);
  float r = rsqrtf(fdiv(ss, (float)cols) + eps);
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    out[c] = row[c] * r * w[c];
}
