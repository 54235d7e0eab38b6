// Level 1: matrix-vector product y = A x (rows x cols), one wave per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    gemv(int rows, int cols, const float *__restrict__ A,
         const float *__restrict__ x, float *__restrict__ y) {
  int row = blockIdx.x * 4 + threadIdx.x / 64;
  unsigned l = threadIdx.x % 64;
  if (row >= rows)
    return;
  const float *a = A + (long)row * cols;
  float s = 0;
  for (int c = l; c < cols; c += 64)
    s += a[c] * x[c];
  s = warp_sum(s);
  if (l == 0)
    y[row] = s;
}
