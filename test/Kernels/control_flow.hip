// Loops with data-dependent trip counts and divergent branches.
#include "asmevo_hip.h"

// Collatz steps until 1 (capped): per-lane trip count, divergent loop exit.
ASMEVO_HD int collatz_steps(unsigned v, int cap) {
  int steps = 0;
  while (v > 1u && steps < cap) {
    if (v & 1u)
      v = 3u * v + 1u;
    else
      v >>= 1;
    ++steps;
  }
  return steps;
}

// If/else chain with different arithmetic per side.
ASMEVO_HD float piecewise(float x, int mode) {
  float r;
  if (x < -1.0f) {
    r = -x * x;
  } else if (x < 0.0f) {
    r = x * 0.25f + (float)mode;
  } else if (x < 2.0f) {
    r = sqrtf(x) - 1.0f;
    if (mode & 1)
      r = -r;
  } else {
    r = x;
    for (int k = 0; k < mode; ++k) // nested uniform loop
      r = r * 0.5f + 1.0f;
  }
  return r;
}

// Nested loops with break and continue: counts divisors of v below `lim`,
// stops at the first divisor that is a multiple of `stop`.
ASMEVO_HD int divisor_scan(int v, int lim, int stop) {
  int count = 0;
  for (int d = 2; d < lim; ++d) {
    if (v % d)
      continue;
    ++count;
    if (d % stop == 0)
      break;
    for (int e = d; e < lim && e < 64; e += d)
      count += (v / e) & 1;
  }
  return count;
}

extern "C" __global__ void collatz(int n, int cap,
                                   const unsigned *__restrict__ in,
                                   int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return; // early exit
  out[i] = collatz_steps(in[i], cap);
}

extern "C" __global__ void piecewise_f32(int n, int mode,
                                         const float *__restrict__ in,
                                         float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = piecewise(in[i], mode);
}

extern "C" __global__ void divisor_scan_i32(int n, int lim, int stop,
                                            const int *__restrict__ in,
                                            int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = divisor_scan(in[i], lim, stop);
}

// Divergent while loop with a lane-varying exit and a uniform outer loop:
// iterated logistic map until it leaves [lo, hi] or `iters` steps.
extern "C" __global__ void escape_time(int n, int iters, float r, float lo,
                                       float hi, const float *__restrict__ x0,
                                       int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = x0[i];
  int k = 0;
  do {
    x = r * x * (1.0f - x);
    ++k;
  } while (k < iters && x >= lo && x <= hi);
  out[i] = k;
}
