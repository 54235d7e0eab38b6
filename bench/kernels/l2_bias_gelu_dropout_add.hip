// Level 2: y = x + dropout(gelu_tanh(h + bias)) with a deterministic hash
// mask (p = 1/8, scale 8/7); rows of 1024 columns.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    bias_gelu_dropout_add(int n, unsigned seed, const float *__restrict__ h,
                          const float *__restrict__ bias,
                          const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned z = (unsigned)i * 0x9e3779b9u ^ seed;
  z ^= z >> 16;
  z *= 0x85ebca6bu;
  z ^= z >> 13;
  float g = gelu_tanh(h[i] + bias[i % 1024]);
  y[i] = x[i] + ((z & 7) ? g * (8.0f / 7.0f) : 0.0f);
}
