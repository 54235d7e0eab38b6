// Level 1: argmax over the last dimension (first index of the maximum; NaN
// is never selected), one workgroup per row.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    argmax_rows(int cols, const float *__restrict__ x, int *__restrict__ y) {
  __shared__ float sv[BENCH_BLOCK];
  __shared__ int si[BENCH_BLOCK];
  const float *row = x + (long)blockIdx.x * cols;
  float best = -3.402823466e38f;
  int bi = 0x7fffffff;
  for (int c = threadIdx.x; c < cols; c += BENCH_BLOCK) {
    float v = row[c];
    if (v > best) {
      best = v;
      bi = c;
    }
  }
  sv[threadIdx.x] = best;
  si[threadIdx.x] = bi;
  __syncthreads();
  for (int s = BENCH_BLOCK / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) {
      float o = sv[threadIdx.x + s];
      int oi = si[threadIdx.x + s];
      if (o > sv[threadIdx.x] || (o == sv[threadIdx.x] && oi < si[threadIdx.x])) {
        sv[threadIdx.x] = o;
        si[threadIdx.x] = oi;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    y[blockIdx.x] = si[0];
}
