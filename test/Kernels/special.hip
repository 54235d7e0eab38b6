// Less common instructions: VALU specials through builtins (v_perm_b32,
// v_alignbyte_b32, v_bfe_u32, v_sad_u8, v_lerp_u8, v_med3_f32,
// v_frexp_mant/exp, v_ldexp, v_rcp/v_rsq/v_sqrt/v_log/v_exp/v_sin/v_cos,
// v_fract), scalar/program-control instructions (s_sleep, s_setprio,
// s_nop from inline asm, s_getreg_b32, s_memtime, wave_barrier), and raw
// inline assembly.
#include "asmevo_hip.h"

#if ASMEVO_DEVICE
extern "C" __global__ void valu_special_u32(int n, const unsigned *__restrict__ a,
                                            const unsigned *__restrict__ b,
                                            unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = a[i], y = b[i];
  unsigned r = __builtin_amdgcn_perm(x, y, 0x05010400u);
  r ^= __builtin_amdgcn_alignbyte(x, y, y & 3);
  r += __builtin_amdgcn_ubfe(x, y & 31, 5);
  r += (unsigned)__builtin_amdgcn_sbfe((int)y, x & 31, 7);
  r += __builtin_amdgcn_sad_u8(x, y, 17u);
  r ^= __builtin_amdgcn_lerp(x, y, 0x01010101u);
  r += __builtin_amdgcn_sad_hi_u8(x, y, 3u);
  r += __builtin_amdgcn_msad_u8(x, y, 0u);
  out[i] = r;
}

extern "C" __global__ void valu_special_f32(int n, const float *__restrict__ a,
                                            float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = a[i];
  float r = __builtin_amdgcn_fmed3f(x, -1.0f, 1.0f);
  r += __builtin_amdgcn_frexp_mantf(x) + (float)__builtin_amdgcn_frexp_expf(x);
  r += __builtin_amdgcn_ldexpf(x, 3);
  r += __builtin_amdgcn_rcpf(x) + __builtin_amdgcn_rsqf(fabsf(x) + 1.0f);
  r += __builtin_amdgcn_sqrtf(fabsf(x)) + __builtin_amdgcn_logf(fabsf(x) + 1.0f);
  r += __builtin_amdgcn_exp2f(-fabsf(x));
  r += __builtin_amdgcn_sinf(x * 0.1f) + __builtin_amdgcn_cosf(x * 0.1f);
  r += __builtin_amdgcn_fractf(x);
  r += __builtin_amdgcn_classf(x, 0x3f0) ? 1.0f : 0.0f; // v_cmp_class_f32
  r += __builtin_amdgcn_ldexpf(x, (int)r & 7);
  out[i] = r;
}

// Scalar/program control. out[i] = in[i] + 1 plus zero-valued terms that
// come from hardware state (so the output stays deterministic).
extern "C" __global__ void scalar_control(int n, const int *__restrict__ in,
                                          int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long t0 = __builtin_amdgcn_s_memtime();
  __builtin_amdgcn_s_setprio(2);
  __builtin_amdgcn_s_sleep(1);
  asm volatile("s_nop 3");
  __builtin_amdgcn_wave_barrier();
  // HW_REG_MODE (id 1), 32 bits: only compared with itself
  unsigned mode = __builtin_amdgcn_s_getreg((1) | (0 << 6) | ((32 - 1) << 11));
  unsigned mode2 = __builtin_amdgcn_s_getreg((1) | (0 << 6) | ((32 - 1) << 11));
  unsigned long long t1 = __builtin_amdgcn_s_memtime();
  __builtin_amdgcn_s_setprio(0);
  if (i < n)
    out[i] = in[i] + 1 + (int)(mode - mode2) + (t1 < t0 ? 0 : 0);
}

// Raw inline assembly: a v_add_u32 / v_lshlrev_b32 pair and an s_add_u32
// on SGPR operands, with explicit register constraints.
extern "C" __global__ void inline_asm(int n, int k, const int *__restrict__ in,
                                      int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i], r, s;
  asm volatile("s_add_u32 %0, %1, 7" : "=s"(s) : "s"(k));
  asm volatile("v_lshlrev_b32 %0, 2, %1\n\t"
               "v_add_u32 %0, %0, %2"
               : "=&v"(r)
               : "v"(v), "s"(s));
  out[i] = r;
}
#endif // ASMEVO_DEVICE

#if defined(ASMEVO_HOST)
inline int ref_inline_asm(int v, int k) { return (v << 2) + k + 7; }
#endif
