// Level 1: matmul of upper-triangular N x N matrices (C = A B is upper
// triangular: C[i][j] = sum_{k=i..j} A[i][k] B[k][j], 0 below the diagonal).
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    triu_matmul(int N, const float *__restrict__ A, const float *__restrict__ B,
                float *__restrict__ C) {
  int j = blockIdx.x * 16 + threadIdx.x % 16;
  int i = blockIdx.y * 16 + threadIdx.x / 16;
  if (i >= N || j >= N)
    return;
  float acc = 0;
  for (int k = i; k <= j; ++k)
    acc += A[i * N + k] * B[k * N + j];
  C[i * N + j] = acc;
}
