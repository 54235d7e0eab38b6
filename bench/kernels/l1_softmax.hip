// Level 1: softmax over the last dimension, one 256-thread workgroup per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    softmax(int cols, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float scratch[4];
  const float *row = x + (long)blockIdx.x * cols;
  float *out = y + (long)blockIdx.x * cols;
  float m = -3.402823466e38f;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    m = fmaxf(m, row[c]);
  m = block_max(m, scratch);
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    s += expf(row[c] - m);
  s = block_sum(s, scratch);
  float inv = fdiv(1.0f, s);
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    out[c] = expf(row[c] - m) * inv;
}
