// Level 1: 1-D convolution, Cin -> Cout channels, kernel 5, stride 1, no
// padding: y[o][t] = b[o] + sum_{c,k} w[o][c][k] x[c][t+k].
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    conv1d(int Cin, int Cout, int L, const float *__restrict__ x,
           const float *__restrict__ w, const float *__restrict__ b,
           float *__restrict__ y) {
  int OL = L - 4;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= Cout * OL)
    return;
  int o = idx / OL, t = idx % OL;
  float acc = b[o];
  for (int c = 0; c < Cin; ++c) {
    const float *xc = x + c * L + t;
    const float *wc = w + (o * Cin + c) * 5;
#pragma unroll
    for (int k = 0; k < 5; ++k)
      acc += wc[k] * xc[k];
  }
  y[idx] = acc;
}
