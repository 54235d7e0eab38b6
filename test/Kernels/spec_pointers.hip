// Kernels that read device pointers from memory, for dispatch specs that
// store pointers (docs/run-spec.md, "pointers" and "regions"; lit tests in
// test/Verify/spec-pointers.test and test/Emu/spec-pointers.test). Built as
// code object v6 only: not part of the gfx942 v5 mutation sample.
#include "asmevo_hip.h"

// rocBLAS's batched convention (`T const* const*`), two batches: the
// difference of the vectors x[0] and x[1], so that loading either pointer
// in place of the other changes the result.
extern "C" __global__ void diff_ptrs(int n, const float *const *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[0][i] - x[1][i];
}

// rocPRIM's onesweep convention: one by-value struct that holds device
// pointers.
struct scale_args {
  const float *in;
  float *out;
  int n;
  float scale;
};
extern "C" __global__ void struct_scale(scale_args a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n)
    a.out[i] = a.in[i] * a.scale;
}
