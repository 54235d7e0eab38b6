// Integer division and remainder: 32-bit signed/unsigned by a run-time
// divisor (v_rcp_iflag_f32 based expansion), by constants (v_mul_hi
// magic numbers), and 64-bit (long inline expansion, no library call).
// Divisors of zero are the caller's problem: inputs must avoid them.
#include "asmevo_hip.h"

ASMEVO_HD int idiv_mix(int a, int b) { return a / b + a % b * 3; }
ASMEVO_HD unsigned udiv_mix(unsigned a, unsigned b) {
  return a / b + (a % b) * 7u;
}
ASMEVO_HD int idiv_const(int a) { return a / 7 + a % 13 - a / -5 + a / 1024; }
ASMEVO_HD unsigned udiv_const(unsigned a) {
  return a / 10u + a % 1000u + a / 3u;
}
ASMEVO_HD long long ldiv_mix(long long a, long long b) {
  return a / b - a % b;
}
ASMEVO_HD unsigned long long uldiv_mix(unsigned long long a,
                                       unsigned long long b) {
  return a / b + (a % b) * 3ull + a / 1000000007ull;
}

extern "C" __global__ void div_i32(int n, const int *__restrict__ a,
                                   const int *__restrict__ b,
                                   int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = idiv_mix(a[i], b[i]);
}

extern "C" __global__ void div_u32(int n, const unsigned *__restrict__ a,
                                   const unsigned *__restrict__ b,
                                   unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = udiv_mix(a[i], b[i]);
}

extern "C" __global__ void div_const(int n, const int *__restrict__ a,
                                     int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = idiv_const(a[i]) + (int)udiv_const((unsigned)a[i]);
}

extern "C" __global__ void div_i64(int n, const long long *__restrict__ a,
                                   const long long *__restrict__ b,
                                   long long *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ldiv_mix(a[i], b[i]);
}

extern "C" __global__ void div_u64(int n,
                                   const unsigned long long *__restrict__ a,
                                   const unsigned long long *__restrict__ b,
                                   unsigned long long *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = uldiv_mix(a[i], b[i]);
}

// Uniform (scalar) divisor: the division happens on the SALU/in SGPRs.
extern "C" __global__ void div_uniform(int n, unsigned d,
                                       const unsigned *__restrict__ a,
                                       unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned q = (unsigned)n / d, r = (unsigned)n % d;
  if (i < n)
    out[i] = a[i] / d + q * r;
}
