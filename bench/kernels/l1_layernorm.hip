// Level 1: LayerNorm over the last dimension with gamma and beta.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    layernorm(int cols, float eps, const float *__restrict__ x,
              const float *__restrict__ gamma, const float *__restrict__ beta,
              float *__restrict__ y) {
  __shared__ float scratch[4];
  const float *row = x + (long)blockIdx.x * cols;
  float *out = y + (long)blockIdx.x * cols;
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    s += row[c];
  float mean = fdiv(block_sum(s, scratch), (float)cols);
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK) {
    float d = row[c] - mean;
    v += d * d;
  }
  float r = rsqrtf(fdiv(block_sum(v, scratch), (float)cols) + eps);
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    out[c] = (row[c] - mean) * r * gamma[c] + beta[c];
}
