// Level 1: f16 x f16 -> f32 matmul with v_mfma_f32_32x32x8_f16; one wave
// per 32x32 tile of C, A row-major M x K, B row-major K x N.
#include "common.h"
extern "C" __global__ void __launch_bounds__(64)
    matmul_mfma(int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
#if ASMEVO_DEVICE
  unsigned l = threadIdx.x;
  int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  asmevo_floatx16 acc = {};
  for (int kk = 0; kk < K; kk += 8) {
    asmevo_halfx4 a, b;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] = A[(m0 + l % 32) * K + kk + (l / 32) * 4 + j];
      b[j] = B[(kk + (l / 32) * 4 + j) * N + n0 + l % 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
#pragma unroll
  for (int r = 0; r < 16; ++r) {
    int row = m0 + (r / 4) * 8 + (l / 32) * 4 + r % 4;
    C[row * N + n0 + l % 32] = acc[r];
  }
#endif
}
