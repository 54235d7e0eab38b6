// Level 2: 3x3 convolution (padding 1) + batch norm (inference: running
// mean/var, gamma/beta) + ReLU.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    conv2d_bn_relu(int Cin, int H, int W, float eps, const float *__restrict__ x,
                   const float *__restrict__ w, const float *__restrict__ mean,
                   const float *__restrict__ var, const float *__restrict__ gamma,
                   const float *__restrict__ beta, float *__restrict__ y) {
  int o = blockIdx.y;
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= H * W)
    return;
  int i = p / W, j = p % W;
  float acc = 0;
  for (int c = 0; c < Cin; ++c) {
    const float *xc = x + (long)c * H * W;
    const float *wc = w + (o * Cin + c) * 9;
    for (int a = -1; a <= 1; ++a)
      for (int d = -1; d <= 1; ++d) {
        int ii = i + a, jj = j + d;
        if (ii >= 0 && ii < H && jj >= 0 && jj < W)
          acc += wc[(a + 1) * 3 + d + 1] * xc[ii * W + jj];
      }
  }
  float v = (acc - mean[o]) * rsqrtf(var[o] + eps) * gamma[o] + beta[o];
  y[(long)o * H * W + p] = fmaxf(v, 0.0f);
}
