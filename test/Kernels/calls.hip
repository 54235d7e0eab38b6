// Real calls: noinline device functions called from several kernels
// (s_getpc_b64 / s_add_u32 / s_addc_u32 / s_swappc_b64, s_setpc_b64 return,
// callee-saved registers spilled to the stack), and bounded recursion
// (dynamic stack: .uses_dynamic_stack in the metadata).
#include "asmevo_hip.h"

// Horner evaluation of a polynomial with coefficients in global memory.
// Called from poly_eval_f32 and poly_diff_f32 (and from the recursive
// function below), so it cannot be inlined into a single caller.
ASMEVO_NOINLINE_DEVICE float poly_horner(const float *coef, int degree,
                                         float x) {
  float r = coef[degree];
  for (int k = degree - 1; k >= 0; --k)
    r = fmaf(r, x, coef[k]);
  return r;
}

// A second callee with many live values across its own call, so that the
// callee must save/restore registers.
ASMEVO_NOINLINE_DEVICE float poly_pair(const float *coef, int degree, float x,
                                       float h) {
  float a = poly_horner(coef, degree, x + h);
  float b = poly_horner(coef, degree, x - h);
  return (a - b) / (2.0f * h);
}

// Bounded recursion: sum of poly over a binary subdivision of [lo, hi].
ASMEVO_NOINLINE_DEVICE float poly_integrate(const float *coef, int degree,
                                            float lo, float hi, int depth) {
  if (depth == 0)
    return (hi - lo) * poly_horner(coef, degree, 0.5f * (lo + hi));
  float mid = 0.5f * (lo + hi);
  return poly_integrate(coef, degree, lo, mid, depth - 1) +
         poly_integrate(coef, degree, mid, hi, depth - 1);
}

extern "C" __global__ void poly_eval_f32(int n, int degree,
                                         const float *__restrict__ coef,
                                         const float *__restrict__ x,
                                         float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = poly_horner(coef, degree, x[i]);
}

extern "C" __global__ void poly_diff_f32(int n, int degree, float h,
                                         const float *__restrict__ coef,
                                         const float *__restrict__ x,
                                         float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = poly_pair(coef, degree, x[i], h) + poly_horner(coef, degree, x[i]);
}

// depth must be small (it is per lane: 2^depth leaves)
extern "C" __global__ void poly_integrate_f32(int n, int degree, int depth,
                                              const float *__restrict__ coef,
                                              const float *__restrict__ lo,
                                              float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = poly_integrate(coef, degree, lo[i], lo[i] + 1.0f, depth);
}
