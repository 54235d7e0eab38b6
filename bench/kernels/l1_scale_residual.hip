// Level 1: vectorised scale-and-add (float4): y = alpha * x + beta * y.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    scale_residual(int n4, float alpha, float beta,
                   const asmevo_floatx4 *__restrict__ x,
                   asmevo_floatx4 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    y[i] = alpha * x[i] + beta * y[i];
}
