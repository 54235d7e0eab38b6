// Level 1: 2-D max pooling, 2x2 window, stride 2, over C x H x W.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    maxpool2d(int C, int H, int W, const float *__restrict__ x,
              float *__restrict__ y) {
  int OH = H / 2, OW = W / 2;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= C * OH * OW)
    return;
  int c = idx / (OH * OW), r = idx % (OH * OW), i = r / OW, j = r % OW;
  const float *p = x + (long)c * H * W + (2 * i) * W + 2 * j;
  y[idx] = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[W], p[W + 1]));
}
