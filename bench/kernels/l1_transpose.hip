// Level 1: matrix transpose through 32x32 LDS tiles (padded against bank
// conflicts), 32x8 threads per tile.
#include "common.h"
extern "C" __global__ void __launch_bounds__(256)
    transpose(int rows, int cols, const float *__restrict__ in,
              float *__restrict__ out) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  int x = blockIdx.x * 32 + tx, y0 = blockIdx.y * 32;
  for (int j = ty; j < 32; j += 8)
    if (x < cols && y0 + j < rows)
      tile[j][tx] = in[(y0 + j) * cols + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + tx, oy0 = blockIdx.x * 32;
  for (int j = ty; j < 32; j += 8)
    if (ox < rows && oy0 + j < cols)
      out[(oy0 + j) * rows + ox] = tile[tx][j];
}
