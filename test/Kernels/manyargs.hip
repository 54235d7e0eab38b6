// Kernel argument layouts: mixed scalar types (i8/i16/i32/i64/f16/f32/f64),
// pointers, structs passed by value (with padding and nested arrays), a
// large kernarg segment (many pointer arguments), and a kernel without
// arguments. All element-wise.
#include "asmevo_hip.h"

struct Params {
  signed char c;      // offset 0
  short s;            // 2
  int i;              // 4
  long long l;        // 8
  float f;            // 16
  double d;           // 24
  unsigned char u[3]; // 32
};                    // size 40, align 8

struct Small {
  float scale;
  int shift;
};

ASMEVO_HD float mixed_elem(signed char c, short s, int i, long long l,
                           __half h, float f, double d, float x) {
  return (float)c + (float)s * 0.5f + (float)i * 0.25f + (float)(l >> 20) +
         (float)h + f * x + (float)(d * (double)x);
}

ASMEVO_HD float params_elem(const Params &p, Small q, float x) {
  return (float)p.c + (float)p.s + (float)p.i + (float)p.l * 1e-9f +
         p.f * x + (float)p.d + (float)(p.u[0] + p.u[1] * 2 + p.u[2] * 3) +
         x * q.scale + (float)(q.shift << 1);
}

// Scalars of every size in an order that needs padding between them.
extern "C" __global__ void mixed_scalars(signed char c, const float *x,
                                         short s, float *y, int i,
                                         long long l, __half h, float f,
                                         double d, unsigned char flag, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    y[k] = mixed_elem(c, s, i, l, h, f, d, x[k]) + (flag ? 1.0f : 0.0f);
}

// Structs by value, between and after other arguments.
extern "C" __global__ void struct_args(Params p, const float *x, Small q,
                                       float *y, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    y[k] = params_elem(p, q, x[k]);
}

// 16 input pointers + 1 output (kernarg segment > 128 bytes + hidden args).
extern "C" __global__ void sum16_ptrs(int n, const float *a0, const float *a1,
                                      const float *a2, const float *a3,
                                      const float *a4, const float *a5,
                                      const float *a6, const float *a7,
                                      const float *a8, const float *a9,
                                      const float *a10, const float *a11,
                                      const float *a12, const float *a13,
                                      const float *a14, const float *a15,
                                      float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    out[k] = a0[k] + 2 * a1[k] + 3 * a2[k] + 4 * a3[k] + 5 * a4[k] +
             6 * a5[k] + 7 * a6[k] + 8 * a7[k] + 9 * a8[k] + 10 * a9[k] +
             11 * a10[k] + 12 * a11[k] + 13 * a12[k] + 14 * a13[k] +
             15 * a14[k] + 16 * a15[k];
}

// A struct by value that is large (256 bytes): a small coefficient table.
struct Table {
  float c[64];
};

extern "C" __global__ void table_arg(Table t, int n, const int *idx,
                                     float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    out[k] = t.c[idx[k] & 63] * t.c[(idx[k] >> 6) & 63];
}
