// Device global variables: __device__ data in .data/.bss and __constant__
// tables in .rodata, accessed PC-relative (s_getpc_b64 + s_add_u32/s_addc_u32
// with relocations resolved at link time); a kernel without arguments.
#include "asmevo_hip.h"

__device__ int g_counter;            // zero-initialized (.bss)
__device__ float g_bias = 1.5f;      // initialized (.data)
__device__ unsigned g_log[1024];     // written by record_ids

__constant__ float c_poly[8] = {1.0f,   -0.5f, 0.25f,    -0.125f,
                                0.0625f, 0.0f, 0.03125f, 2.0f};
__constant__ int c_perm[16] = {3, 7, 1, 15, 0, 9, 12, 4,
                               11, 2, 14, 6, 10, 5, 13, 8};

// No kernel arguments at all: everything through globals.
extern "C" __global__ void no_args() {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 1024)
    g_log[t] = t * 3u + (unsigned)g_counter;
  if (t == 0)
    atomicAdd(&g_counter, 1);
}

extern "C" __global__ void poly_const(int n, const float *__restrict__ x,
                                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], r = c_poly[7];
  for (int k = 6; k >= 0; --k)
    r = r * v + c_poly[k];
  y[i] = r + g_bias;
}

// Per-lane (divergent) index into a __constant__ table.
extern "C" __global__ void permute_const(int n, const float *__restrict__ x,
                                         float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[(i & ~15) + c_perm[i & 15]];
}

extern "C" __global__ void read_log(int n, unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < 1024)
    out[i] = g_log[i] + (unsigned)g_counter;
}
