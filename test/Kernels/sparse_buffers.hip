// A kernel that writes through a leading dimension of 2^32 elements or
// more, for sparse spec buffers (docs/run-spec.md, "Sparse buffers"; lit
// tests in test/Verify/sparse-buffers.test and test/Emu/sparse-buffers.test).
// Built as code object v6 only: not part of the gfx942 v5 mutation sample.
#include "asmevo_hip.h"

// Column-major C(i, j) = x[i] * (j + 1) for the grid's y columns: C's
// column j starts ldc * j elements in, as a dense matrix's with a leading
// dimension ldc of rocBLAS's and rocSPARSE's 64-bit APIs. A negative ldc
// is refused as those APIs refuse it, so that only ldc >= 2^32 reaches the
// high dword of ldc * j.
extern "C" __global__ void column_scale(int m, long ldc, const float *x,
                                        float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long j = blockIdx.y;
  if (i < m && ldc >= 0)
    c[j * ldc + i] = x[i] * float(j + 1);
}
