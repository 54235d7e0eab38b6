// Level 2: residual add + RMSNorm: h = x + r (written back), y = rmsnorm(h) w.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    add_rmsnorm(int cols, float eps, const float *__restrict__ x,
                float *__restrict__ r, const float *__restrict__ w,
                float *__restrict__ y) {
  __shared__ float scratch[4];
  long base = (long)blockIdx.x * cols;
  float ss = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK) {
    float h = x[base + c] + r[base + c];
    r[base + c] = h;
    ss += h * h;
  }
  float inv = rsqrtf(fdiv(block_sum(ss, scratch), (float)cols) + eps);
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    y[base + c] = r[base + c] * inv * w[c];
}
