// 2-D and 3-D indexing: blockIdx.y/z, threadIdx.y/z, blockDim.y.
#include "asmevo_hip.h"

#define TILE 32
#define ROWS 8

// out[N x M] = transpose(in[M x N]); block (32, 8), grid (ceil(N/32),
// ceil(M/32)). Padded LDS tile (33 columns) avoids bank conflicts.
extern "C" __global__ void __launch_bounds__(TILE *ROWS)
    transpose_lds_f32(int M, int N, const float *__restrict__ in,
                      float *__restrict__ out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < M)
      tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < M && y + j < N)
      out[(long)(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Naive 2-D copy-transpose (no LDS), any 2-D block shape: element-wise,
// so a host reference is a launch() loop.
extern "C" __global__ void transpose_naive_f32(int M, int N,
                                               const float *__restrict__ in,
                                               float *__restrict__ out) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < (unsigned)N && y < (unsigned)M)
    out[(long)x * M + y] = in[(long)y * N + x];
}

ASMEVO_HD float stencil7(const float *v, int X, int Y, int x, int y, int z) {
  long s = (long)X * Y;
  long c = (long)z * s + (long)y * X + x;
  return 0.4f * v[c] + 0.1f * (v[c - 1] + v[c + 1] + v[c - X] + v[c + X]) +
         0.1f * (v[c - s] + v[c + s]);
}

// 3-D 7-point stencil on the interior of an X x Y x Z grid (3-D grid and
// block: blockIdx.z, threadIdx.z, blockDim.z).
extern "C" __global__ void stencil3d_f32(int X, int Y, int Z,
                                         const float *__restrict__ in,
                                         float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x > 0 && y > 0 && z > 0 && x < X - 1 && y < Y - 1 && z < Z - 1)
    out[((long)z * Y + y) * X + x] = stencil7(in, X, Y, x, y, z);
}
