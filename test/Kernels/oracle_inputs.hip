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

// rocSPARSE's dotci_kernel_part2: the second pass of a reduction, one
// block by design: it reads no workgroup id (LLVM's descriptor enables the
// SGPR anyway), so its workgroups would all race on the same result. The
// result goes to `result` when given, else to the workspace.
extern "C" __global__ void __launch_bounds__(256)
    sum_part2(float *workspace, float *result) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = workspace[t];
  __syncthreads();
#pragma unroll
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) {
    float *dst = result ? result : workspace;
    dst[0] = buf[0];
  }
}

// rocBLAS's rocblas_internal_val_ptr: a by-value 8-byte argument that is
// either the scalar itself or a device pointer to it, chosen by a flag.
extern "C" __global__ void scale_valptr(int n, bool on_device,
                                        unsigned long long alpha, float *x) {
  float a = on_device ? *reinterpret_cast<const float *>(alpha)
                      : __int_as_float(int(alpha));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

// rocBLAS's batched kernels take arrays of device pointers (`T const*
// const*`, `T* const*`): the metadata types no pointee, the mangled name
// does (tier 1's KernelSignature). A batched reduction's second pass, one
// workgroup per batch along y (rocblas_reduction_kernel_part2 of a batched
// asum): it reads no workgroup id x, so workgroups along x race on the
// result.
template <typename T>
__global__ void __launch_bounds__(64)
    batched_sum(int n, const T *const *x, T *const *result) {
  if (threadIdx.x != 0)
    return;
  const T *xb = x[blockIdx.y];
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += xb[i];
  *result[blockIdx.y] = s;
}
template __global__ void batched_sum<float>(int, const float *const *,
                                            float *const *);

// An enum argument with public-API values (rocblas_fill_, rocBLAS's
// rocblas-types.h: 121, 122, 123): random and count values take none of
// the three paths.
enum rocblas_fill_ {
  rocblas_fill_upper = 121,
  rocblas_fill_lower = 122,
  rocblas_fill_full = 123
};
template <typename T>
__global__ void fill_update(rocblas_fill_ uplo, int n, T *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (uplo == rocblas_fill_upper)
    a[i] *= T(2);
  else if (uplo == rocblas_fill_lower)
    a[i] += T(1);
  else if (uplo == rocblas_fill_full)
    a[i] = -a[i];
}
template __global__ void fill_update<float>(rocblas_fill_, int, float *);
