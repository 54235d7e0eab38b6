// Level 1: f32 matmul C = A B (M x K times K x N), 16x16 LDS tiles.
#include "common.h"
#define T 16
extern "C" __global__ void __launch_bounds__(256)
    matmul_tiled(int M, int N, int K, const float *__restrict__ A,
                 const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[T][T + 1], Bs[T][T + 1];
  int tx = threadIdx.x % T, ty = threadIdx.x / T;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
