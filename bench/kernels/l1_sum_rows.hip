// Level 1: sum reduction over the last dimension, one workgroup per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    sum_rows(int cols, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float scratch[4];
  const float *row = x + (long)blockIdx.x * cols;
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK)
    s += row[c];
  s = block_sum(s, scratch);
  if (threadIdx.x == 0)
    y[blockIdx.x] = s;
}
