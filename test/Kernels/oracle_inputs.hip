// Kernels that model library argument conventions tier 1's input synthesis
// must cope with (lit tests in test/Verify, not part of the in-tree mutation
// sample: built as code object v6 only). set_matrix_pitch is rocBLAS's
// set_matrix_trsm: a 2-D fill of a batched matrix with a row pitch (lda), a
// batch stride and an offset, with scalars the kernel does not read between
// them.
#include "asmevo_hip.h"

extern "C" __global__ void
set_matrix_pitch(long m, long n, int unused0, float *a, long lda, long stride,
                 float unused1, long offset, int unused2) {
  long x = blockIdx.x * 128 + threadIdx.x;
  long y = blockIdx.y * 8 + threadIdx.y;
  if (x < m && y < n)
    a[offset + blockIdx.z * stride + y * lda + x] = 0.0f;
}
