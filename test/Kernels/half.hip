// Half precision: scalar _Float16 arithmetic (v_fma_f16, v_add_f16, ...),
// packed half2 math (v_pk_fma_f16, v_pk_mul_f16), f16<->f32 conversions,
// and bf16 conversions done with integer arithmetic.
#include "asmevo_hip.h"

typedef _Float16 asmevo_half2 __attribute__((ext_vector_type(2)));

ASMEVO_HD __half haxpy_elem(__half a, __half x, __half y) { return a * x + y; }

ASMEVO_HD float h2f_mix(__half x) {
  float f = (float)x;
  return f * f - 0.5f * f;
}

// f32 -> bf16 with round-to-nearest-even, as bits.
ASMEVO_HD unsigned short f2bf16(float f) {
  unsigned u;
  __builtin_memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)((u >> 16) | 0x40); // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
ASMEVO_HD float bf162f(unsigned short h) {
  unsigned u = (unsigned)h << 16;
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
}

extern "C" __global__ void haxpy(int n, __half a, const __half *__restrict__ x,
                                 __half *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = haxpy_elem(a, x[i], y[i]);
}

// Packed: n2 pairs; y = a*x + y and z = x*y (per half).
extern "C" __global__ void haxpy_packed(int n2, asmevo_half2 a,
                                        const asmevo_half2 *__restrict__ x,
                                        asmevo_half2 *__restrict__ y,
                                        asmevo_half2 *__restrict__ z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    asmevo_half2 xv = x[i], yv = y[i];
    y[i] = a * xv + yv;
    z[i] = xv * yv;
  }
}

// f16 in, f32 out and back; mixed precision accumulate.
extern "C" __global__ void half_convert(int n, const __half *__restrict__ in,
                                        float *__restrict__ f32,
                                        __half *__restrict__ f16) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float f = h2f_mix(in[i]);
    f32[i] = f;
    f16[i] = (__half)(f * 0.25f);
  }
}

// f32 -> bf16 -> f32 round trip and a bf16 scale.
extern "C" __global__ void bf16_convert(int n, float scale,
                                        const float *__restrict__ in,
                                        unsigned short *__restrict__ bf,
                                        float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned short b = f2bf16(in[i] * scale);
    bf[i] = b;
    out[i] = bf162f(b) - in[i];
  }
}
