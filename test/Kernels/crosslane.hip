// Cross-lane operations within one wave64: DPP (update_dpp, row_shr,
// row_bcast, quad_perm, wave_shr), ds_swizzle, ds_bpermute (__shfl_xor,
// __shfl_down), readfirstlane, readlane, ballot + mbcnt (stream compaction).
// Wave-level: the device kernels are guarded by ASMEVO_DEVICE; the host side
// has reference functions over one wave (64 lanes) instead.
#include "asmevo_hip.h"

// DPP control words (gfx9)
#define DPP_QUAD_PERM(a, b, c, d) ((a) | ((b) << 2) | ((c) << 4) | ((d) << 6))
#define DPP_ROW_SHR(n) (0x110 + (n))
#define DPP_WAVE_SHR1 0x138
#define DPP_ROW_BCAST15 0x142
#define DPP_ROW_BCAST31 0x143

#if ASMEVO_DEVICE
// Inclusive prefix sum of ints over each wave64 with the classic DPP
// sequence (row_shr 1,2,4,8, row_bcast:15, row_bcast:31).
static __device__ __forceinline__ int wave_scan_dpp(int v) {
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(1), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(2), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(4), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_SHR(8), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST15, 0xa, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, DPP_ROW_BCAST31, 0xc, 0xf, false);
  return v;
}

// out[i] = inclusive scan of in[] within each wave (n multiple of 64).
extern "C" __global__ void wave_scan_i32(const int *__restrict__ in,
                                         int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = wave_scan_dpp(in[i]);
}

// quad_perm reverse, wave_shr:1, and a swizzle (xor 0x1f in groups of 32):
// three outputs per element.
extern "C" __global__ void dpp_swizzle_mix(const int *__restrict__ in,
                                           int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int q = __builtin_amdgcn_mov_dpp(v, DPP_QUAD_PERM(3, 2, 1, 0), 0xf, 0xf,
                                   false);
  int w = __builtin_amdgcn_update_dpp(-1, v, DPP_WAVE_SHR1, 0xf, 0xf, false);
  // bit-mode swizzle: and_mask=0x1f, or_mask=0, xor_mask=0x1f (reverse 32)
  int s = __builtin_amdgcn_ds_swizzle(v, (0x1f << 10) | (0 << 5) | 0x1f);
  // quad-mode swizzle (bit 15 set): broadcast lane 2 of each quad
  int s2 = __builtin_amdgcn_ds_swizzle(v, 0x8000 | DPP_QUAD_PERM(2, 2, 2, 2));
  out[4 * i + 0] = q;
  out[4 * i + 1] = w;
  out[4 * i + 2] = s;
  out[4 * i + 3] = s2;
}

// Butterfly sum via ds_bpermute (__shfl_xor) and a shift-down max via
// __shfl_down; every lane gets the wave total.
extern "C" __global__ void wave_reduce_bpermute(const float *__restrict__ in,
                                                float *__restrict__ sum,
                                                float *__restrict__ mx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  float s = v;
  for (int m = 32; m > 0; m >>= 1)
    s += __shfl_xor(s, m);
  float x = v;
  for (unsigned d = 32; d > 0; d >>= 1)
    x = fmaxf(x, __shfl_down(x, d));
  sum[i] = s;
  mx[i] = __shfl(x, 0); // broadcast lane 0's result
}

// readfirstlane / readlane: uniform values moved to SGPRs.
extern "C" __global__ void readlane_ops(int lane, const int *__restrict__ in,
                                        int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int first = __builtin_amdgcn_readfirstlane(v);
  int chosen = __builtin_amdgcn_readlane(v, lane & 63);
  out[i] = v - first + chosen * (int)__lane_id();
}

// Stream compaction of positive values inside each wave: ballot + mbcnt
// give each lane its slot; one atomic per wave reserves space.
extern "C" __global__ void compact_positive(int n, const float *__restrict__ in,
                                            float *__restrict__ out,
                                            unsigned *__restrict__ count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  bool keep = v > 0.0f;
  unsigned long long mask = __ballot(keep);
  unsigned below = __builtin_amdgcn_mbcnt_hi(
      (unsigned)(mask >> 32), __builtin_amdgcn_mbcnt_lo((unsigned)mask, 0u));
  unsigned total = __builtin_popcountll(mask);
  unsigned base = 0;
  if (__lane_id() == 0 && total)
    base = atomicAdd(count, total);
  base = __builtin_amdgcn_readfirstlane(base);
  if (keep)
    out[base + below] = v;
}
#endif // ASMEVO_DEVICE

#if defined(ASMEVO_HOST)
// Host references over one wave of 64 lanes.
inline void ref_wave_scan_i32(const int *in, int *out) {
  int acc = 0;
  for (int l = 0; l < 64; ++l)
    out[l] = acc += in[l];
}
inline void ref_wave_reduce(const float *in, float *sum, float *mx) {
  // the device sums in butterfly order; compare with a tolerance
  float s = 0, m = in[0];
  for (int l = 0; l < 64; ++l) {
    s += in[l];
    m = in[l] > m ? in[l] : m;
  }
  for (int l = 0; l < 64; ++l) {
    sum[l] = s;
    mx[l] = m;
  }
}
#endif
