// Level 1: GELU, tanh form, elementwise over n floats.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    gelu_tanh(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = gelu_tanh(x[i]);
}
