// Level 2: conv1d (kernel 3, no padding) + ReLU + max pool (2, stride 2).
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    conv1d_relu_maxpool(int Cin, int Cout, int L, const float *__restrict__ x,
                        const float *__restrict__ w, const float *__restrict__ b,
                        float *__restrict__ y) {
  int OL = (L - 2) / 2;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= Cout * OL)
    return;
  int o = idx / OL, t = 2 * (idx % OL);
  float a0 = b[o], a1 = b[o];
  for (int c = 0; c < Cin; ++c) {
    const float *xc = x + c * L + t;
    const float *wc = w + (o * Cin + c) * 3;
    for (int k = 0; k < 3; ++k) {
      a0 += wc[k] * xc[k];
      a1 += wc[k] * xc[k + 1];
    }
  }
  y[idx] = fmaxf(fmaxf(a0, a1), 0.0f);
}
