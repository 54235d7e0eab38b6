// Device variables whose addresses the loader writes into the code object's
// data (.rela.dyn, applied before any dispatch): a pointer initialized with
// the address of a protected variable (R_AMDGPU_RELATIVE64), a pointer to a
// default-visibility variable (R_AMDGPU_ABS64 in .data), and direct uses of
// that variable, which go through the GOT (R_AMDGPU_ABS64 in .got), as
// ROCm's set_hip_f8_bias_mode_bit stores its flag in Tensile objects; and a
// table of device function addresses (R_AMDGPU_RELATIVE64 whose addends lie
// in .text, as in RCCL).
#include "asmevo_hip.h"

__device__ unsigned g_target;
__attribute__((visibility("default"))) __device__ unsigned g_pub = 7;
__device__ unsigned *g_ptr = &g_target;
__device__ unsigned *g_pub_ptr = &g_pub;

// One lane: out = {g_pub before, g_target, g_pub, g_ptr == &g_target,
// g_pub_ptr == &g_pub} = {7, v, v + 1, 1, 1}.
extern "C" __global__ void store_through_relocs(unsigned v, unsigned *out) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  unsigned Before = g_pub;
  *g_ptr = v;
  *g_pub_ptr = v + 1;
  out[0] = Before;
  out[1] = g_target;
  out[2] = g_pub;
  out[3] = g_ptr == &g_target;
  out[4] = g_pub_ptr == &g_pub;
}

__device__ __attribute__((noinline)) unsigned twice(unsigned X) {
  return 2 * X;
}
__device__ __attribute__((noinline)) unsigned thrice_plus_one(unsigned X) {
  return 3 * X + 1;
}
__device__ unsigned (*g_fns[2])(unsigned) = {twice, thrice_plus_one};

// out[t] = g_fns[t & 1](v + t): an indirect call through the table.
extern "C" __global__ void call_through_table(unsigned v, unsigned *out) {
  unsigned T = threadIdx.x;
  out[T] = g_fns[T & 1](v + T);
}
