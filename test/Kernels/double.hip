// Double precision: daxpy, division (v_div_scale/fmas/fixup_f64), sqrt,
// fma, min/max, conversions to and from f32 and integers, and an f64
// reduction through LDS.
#include "asmevo_hip.h"

ASMEVO_HD double daxpy_elem(double a, double x, double y) { return a * x + y; }

ASMEVO_HD double dmix_elem(double x, double y) {
  double q = x / (fabs(y) + 1.0);
  double r = sqrt(fabs(x) + 0.5);
  double f = fma(q, r, -y);
  return fmin(fmax(f, -1e300), 1e300) + floor(x * 0.25);
}

ASMEVO_HD float dconv_elem(double x, int k, long long l, unsigned long long u) {
  double s = x + (double)k + (double)l * 0.5 + (double)u * 0.25;
  long long t = (long long)(s * 16.0);
  return (float)s + (float)(t & 0xffff) + (float)(int)x;
}

extern "C" __global__ void daxpy(int n, double a, const double *__restrict__ x,
                                 double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = daxpy_elem(a, x[i], y[i]);
}

extern "C" __global__ void dmix(int n, const double *__restrict__ x,
                                const double *__restrict__ y,
                                double *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = dmix_elem(x[i], y[i]);
}

extern "C" __global__ void dconv(int n, const double *__restrict__ x,
                                 const int *__restrict__ k,
                                 const long long *__restrict__ l,
                                 const unsigned long long *__restrict__ u,
                                 float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = dconv_elem(x[i], k[i], l[i], u[i]);
}

// out[blockIdx.x] = sum of x*y over the block's 256 elements (LDS tree).
extern "C" __global__ void __launch_bounds__(256)
    ddot_block(int n, const double *__restrict__ x,
               const double *__restrict__ y, double *__restrict__ out) {
  __shared__ double buf[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  buf[t] = i < n ? x[i] * y[i] : 0.0;
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
