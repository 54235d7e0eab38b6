// Buffer resources (V#) as vendor libraries use them: raw buffer loads and
// stores (buffer_load_dword ... offen), out-of-range buffer loads that
// return zero (num_records bounds check: the kernels read past n on
// purpose), and loads straight into LDS (buffer_load_dword ... lds with
// M0, and global_load_lds_dword on gfx942).
#include "asmevo_hip.h"

// Host view of what the kernels compute (out-of-range reads are 0).
ASMEVO_HD float buffer_get(const float *p, int n, int j) {
  return j >= 0 && j < n ? p[j] : 0.0f;
}

#if ASMEVO_DEVICE
// Word 3 of a gfx9 buffer descriptor (DATA_FORMAT = 32): the value
// composable_kernel uses for gfx90a/gfx942.
#define ASMEVO_BUF_W3 0x00020000

typedef __attribute__((address_space(3))) void lds_void;
typedef __attribute__((address_space(1))) void global_void;

static __device__ __forceinline__ __amdgpu_buffer_rsrc_t
make_rsrc(const void *p, int bytes) {
  return __builtin_amdgcn_make_buffer_rsrc((void *)p, 0, bytes, ASMEVO_BUF_W3);
}
static __device__ __forceinline__ float buf_load_f32(__amdgpu_buffer_rsrc_t r,
                                                     int byte_off) {
  return __builtin_bit_cast(float,
                            __builtin_amdgcn_raw_buffer_load_b32(r, byte_off,
                                                                 0, 0));
}

// out[i] = in[i - 1] + 2 in[i] + in[i + 1]; for i == 0 the offset -4 is a
// huge unsigned offset, out of range, so the load returns 0 (the same past
// the end). Note: LLVM merges the in[i] and in[i + 1] loads into one
// buffer_load_dwordx2, whose second dword is out of range for i == n - 1;
// the executor's range check must be per dword for the result to be 0.
extern "C" __global__ void buffer_stencil_f32(int n, const float *in,
                                              float *out) {
  __amdgpu_buffer_rsrc_t r = make_rsrc(in, n * 4);
  __amdgpu_buffer_rsrc_t w = make_rsrc(out, n * 4);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = buf_load_f32(r, (i - 1) * 4) + 2.0f * buf_load_f32(r, i * 4) +
            buf_load_f32(r, (i + 1) * 4);
  // stores past n are dropped by the range check as well
  __builtin_amdgcn_raw_buffer_store_b32(__builtin_bit_cast(unsigned, v), w,
                                        i * 4, 0, 0);
}

// 4 floats per lane with a scalar offset (soffset) and an immediate offset:
// buffer_load_dwordx4 / buffer_store_dwordx4.
extern "C" __global__ void buffer_copy_x4(int n, int soff, const float *in,
                                          float *out) {
  typedef unsigned uintx4 __attribute__((ext_vector_type(4)));
  __amdgpu_buffer_rsrc_t r = make_rsrc(in, n * 4);
  __amdgpu_buffer_rsrc_t w = make_rsrc(out, n * 4);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uintx4 v = __builtin_amdgcn_raw_buffer_load_b128(r, i * 16, soff, 0);
  __builtin_amdgcn_raw_buffer_store_b128(v, w, i * 16, soff, 0);
}

// Block of 256: a tile of in[] goes to LDS through buffer_load ... lds
// (and global_load_lds_dword on gfx942), then
// out[base + t] = in[base + 255 - t] + in[base + t]. n must be a multiple of
// 256 (global_load_lds has no range check).
extern "C" __global__ void __launch_bounds__(256)
    buffer_to_lds_reverse(int n, const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ float tile2[256];
  __amdgpu_buffer_rsrc_t r = make_rsrc(in, n * 4);
  unsigned t = threadIdx.x;
  int base = blockIdx.x * 256;
  // each lane writes LDS at M0 base + lane * 4
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (lds_void *)tile, 4,
                                           (base + t) * 4, 0, 0, 0);
#if defined(__gfx942__)
  __builtin_amdgcn_global_load_lds((global_void *)(in + base + t),
                                   (lds_void *)tile2, 4, 0, 0);
#else
  tile2[t] = base + t < (unsigned)n ? in[base + t] : 0.0f;
#endif
  __builtin_amdgcn_s_waitcnt(0); // vmcnt(0): the LDS DMA has landed
  __syncthreads();
  if (base + t < (unsigned)n)
    out[base + t] = tile[255 - t] + tile2[t];
}
#endif // ASMEVO_DEVICE
