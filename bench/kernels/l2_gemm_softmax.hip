// Level 2: y = softmax(x W + b) over the N = 256 outputs of each row; one
// workgroup per row, x row staged in LDS.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    gemm_softmax(int K, const float *__restrict__ x, const float *__restrict__ W,
                 const float *__restrict__ b, float *__restrict__ y) {
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
  float m = block_max(acc, scratch);
  float e = expf(acc - m);
  float s = block_sum(e, scratch);
  y[(long)blockIdx.x * N + n] = fdiv(e, s);
}
