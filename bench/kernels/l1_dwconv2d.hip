// Level 1: depthwise 2-D convolution, asymmetric input (H != W), square
// 3x3 kernel, stride 1, no padding: y[c][i][j] = sum w[c][a][b] x[c][i+a][j+b].
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    dwconv2d(int C, int H, int W, const float *__restrict__ x,
             const float *__restrict__ w, float *__restrict__ y) {
  int OH = H - 2, OW = W - 2;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= C * OH * OW)
    return;
  int c = idx / (OH * OW), r = idx % (OH * OW), i = r / OW, j = r % OW;
  const float *xc = x + (long)c * H * W;
  const float *wc = w + c * 9;
  float acc = 0;
#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b)
      acc += wc[a * 3 + b] * xc[(i + a) * W + j + b];
  y[idx] = acc;
}
