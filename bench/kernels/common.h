// Shared helpers of the benchmark kernels (bench/kernels): block reductions
// over LDS for 256-thread workgroups, activation functions.
#ifndef ASMEVO_BENCH_COMMON_H
#define ASMEVO_BENCH_COMMON_H
#include "asmevo_hip.h"

#define BENCH_BLOCK 256

static __device__ __forceinline__ float warp_sum(float v) {
  for (int o = 32; o > 0; o >>= 1)
    v += __shfl_xor(v, o);
  return v;
}
static __device__ __forceinline__ float warp_max(float v) {
  for (int o = 32; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor(v, o));
  return v;
}
// Sum over a 256-thread block; every thread gets the result.
static __device__ __forceinline__ float block_sum(float v, float *scratch) {
  v = warp_sum(v);
  unsigned w = threadIdx.x / 64, l = threadIdx.x % 64;
  if (l == 0)
    scratch[w] = v;
  __syncthreads();
  float r = scratch[0] + scratch[1] + scratch[2] + scratch[3];
  __syncthreads();
  return r;
}
static __device__ __forceinline__ float block_max(float v, float *scratch) {
  v = warp_max(v);
  unsigned w = threadIdx.x / 64, l = threadIdx.x % 64;
  if (l == 0)
    scratch[w] = v;
  __syncthreads();
  float r = fmaxf(fmaxf(scratch[0], scratch[1]), fmaxf(scratch[2], scratch[3]));
  __syncthreads();
  return r;
}
// a / b through v_rcp_f32 (no IEEE division: its scaling path is not
// modelled by the emulator for the extreme values tier-1 inputs contain).
static __device__ __forceinline__ float fdiv(float a, float b) {
  return a * __builtin_amdgcn_rcpf(b);
}
static __device__ __forceinline__ float sigmoid(float x) {
  return fdiv(1.0f, 1.0f + expf(-x));
}
static __device__ __forceinline__ float swish(float x) { return x * sigmoid(x); }
// tanh(x) = 1 - 2 / (exp(2x) + 1), through v_exp_f32 and v_rcp_f32.
static __device__ __forceinline__ float tanh_fast(float x) {
  float e = expf(2.0f * fminf(fmaxf(x, -15.0f), 15.0f));
  return 1.0f - fdiv(2.0f, e + 1.0f);
}
static __device__ __forceinline__ float gelu_tanh(float x) {
  const float k = 0.7978845608028654f; // sqrt(2/pi)
  return 0.5f * x * (1.0f + tanh_fast(k * (x + 0.044715f * x * x * x)));
}

#endif
