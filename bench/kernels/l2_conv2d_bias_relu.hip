// Level 2: 3x3 convolution Cin -> Cout (no padding) + bias + ReLU; one
// work-item per output, weights of the output channel read through SMEM.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    conv2d_bias_relu(int Cin, int H, int W, const float *__restrict__ x,
                     const float *__restrict__ w, const float *__restrict__ b,
                     float *__restrict__ y) {
  int OH = H - 2, OW = W - 2;
  int o = blockIdx.y;
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= OH * OW)
    return;
  int i = p / OW, j = p % OW;
  float acc = b[o];
  for (int c = 0; c < Cin; ++c) {
    const float *xc = x + (long)c * H * W + i * W + j;
    const float *wc = w + (o * Cin + c) * 9;
#pragma unroll
    for (int a = 0; a < 3; ++a)
#pragma unroll
      for (int d = 0; d < 3; ++d)
        acc += wc[a * 3 + d] * xc[a * W + d];
  }
  y[(long)o * OH * OW + p] = fmaxf(acc, 0.0f);
}
