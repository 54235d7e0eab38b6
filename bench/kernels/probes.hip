// Cost-model probes (unittests/Emu/CostModelTest.cpp): small kernels whose
// modelled time has a known shape. Not part of the benchmark suite.
#include "asmevo_hip.h"

// Bandwidth: every byte read once and written once.
extern "C" __global__ void __launch_bounds__(256)
    probe_copy_f32x4(int n4, const asmevo_floatx4 *__restrict__ in,
                     asmevo_floatx4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    out[i] = in[i];
}

// Latency: `steps` dependent loads per work-item (the next address depends
// on the loaded value), then one store. The index buffer holds zeros, so
// every load reads the same line: the time is latency, not bandwidth.
extern "C" __global__ void __launch_bounds__(1024)
    probe_chase(int steps, const int *__restrict__ next, int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i & 63;
  for (int s = 0; s < steps; ++s)
    j = next[j] + (j & 63);
  out[i] = j;
}

#if ASMEVO_DEVICE
// MFMA chains: N dependent v_mfma_f32_32x32x8_f16 (8 passes on gfx942)
// accumulating into the same registers, one wave.
template <int N>
static __device__ void mfma32_chain(const __half *A, float *C) {
  unsigned l = threadIdx.x;
  asmevo_halfx4 a, b;
  for (int j = 0; j < 4; ++j) {
    a[j] = A[l * 4 + j];
    b[j] = A[256 + l * 4 + j];
  }
  asmevo_floatx16 acc = {};
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 16; ++r)
    C[r * 64 + l] = acc[r];
}
// N dependent v_mfma_f32_16x16x16_f16 (4 passes on gfx942).
template <int N>
static __device__ void mfma16_chain(const __half *A, float *C) {
  unsigned l = threadIdx.x;
  asmevo_halfx4 a, b;
  for (int j = 0; j < 4; ++j) {
    a[j] = A[l * 4 + j];
    b[j] = A[256 + l * 4 + j];
  }
  asmevo_floatx4 acc = {};
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    C[r * 64 + l] = acc[r];
}
#define ASMEVO_CHAIN(NAME, FN, N)                                              \
  extern "C" __global__ void __launch_bounds__(64)                             \
      NAME(const __half *__restrict__ A, float *__restrict__ C) {              \
    FN<N>(A, C);                                                               \
  }
ASMEVO_CHAIN(probe_mfma32_x8, mfma32_chain, 8)
ASMEVO_CHAIN(probe_mfma32_x16, mfma32_chain, 16)
ASMEVO_CHAIN(probe_mfma16_x8, mfma16_chain, 8)
ASMEVO_CHAIN(probe_mfma16_x16, mfma16_chain, 16)
#endif
