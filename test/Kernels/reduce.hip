// Block reductions through LDS with __syncthreads (s_barrier), a row
// softmax (max, exp, sum; three barrier phases), and a scan in dynamic LDS
// (the dispatch must provide 2 * blockDim.x * 4 bytes of dynamic LDS).
// Host reference: asmevo_host::launch_threaded (barriers), or the plain
// loops in the ref_* functions below.
#include "asmevo_hip.h"

#define RED_BLOCK 256

// out[blockIdx.x] = sum of in[blockIdx.x*256 .. +255] (zero past n).
// Tree reduction in LDS; the tree order is fixed, so results are bitwise
// reproducible for a given block size.
extern "C" __global__ void __launch_bounds__(RED_BLOCK)
    reduce_sum_f32(int n, const float *__restrict__ in,
                   float *__restrict__ out) {
  __shared__ float buf[RED_BLOCK];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * RED_BLOCK + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = RED_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

// Same with ints and max, block size taken from blockDim.x (any power of
// two up to 1024), dynamic LDS index.
extern "C" __global__ void reduce_max_i32(int n, const int *__restrict__ in,
                                          int *__restrict__ out) {
  __shared__ int buf[1024];
  unsigned t = threadIdx.x;
  unsigned bs = blockDim.x;
  int i = blockIdx.x * bs + t;
  buf[t] = i < n ? in[i] : (int)0x80000000;
  __syncthreads();
  for (unsigned s = bs / 2; s > 0; s >>= 1) {
    if (t < s) {
      int a = buf[t], b = buf[t + s];
      buf[t] = a > b ? a : b;
    }
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

// One block (256 threads) per row of `cols` floats: y = softmax(x).
extern "C" __global__ void __launch_bounds__(RED_BLOCK)
    softmax_row_f32(int cols, const float *__restrict__ x,
                    float *__restrict__ y) {
  __shared__ float red[RED_BLOCK];
  unsigned t = threadIdx.x;
  const float *row = x + (long)blockIdx.x * cols;
  float *orow = y + (long)blockIdx.x * cols;
  float m = -__builtin_inff();
  for (int c = t; c < cols; c += RED_BLOCK)
    m = fmaxf(m, row[c]);
  red[t] = m;
  __syncthreads();
  for (unsigned s = RED_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = t; c < cols; c += RED_BLOCK)
    sum += expf(row[c] - m);
  red[t] = sum;
  __syncthreads();
  for (unsigned s = RED_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = t; c < cols; c += RED_BLOCK)
    orow[c] = expf(row[c] - m) * inv;
}

// Dynamic LDS (extern __shared__, sized by the dispatch: blockDim.x * 4
// bytes): per block, out[b] = sum of in[] over the block, and each element
// is replaced by its exclusive prefix within the block (Hillis-Steele scan
// with double buffering in one dynamic array of 2 * blockDim.x floats).
#if ASMEVO_DEVICE
extern __shared__ float asmevo_dyn_lds[];
#else
static float asmevo_dyn_lds[2 * 1024];
#endif
extern "C" __global__ void scan_dynamic_lds(int n, float *__restrict__ data,
                                            float *__restrict__ out) {
  float *buf = asmevo_dyn_lds;
  unsigned t = threadIdx.x, bs = blockDim.x;
  int i = blockIdx.x * bs + t;
  float v = i < n ? data[i] : 0.0f;
  unsigned src = 0, dst = bs;
  buf[t] = v;
  __syncthreads();
  for (unsigned off = 1; off < bs; off <<= 1) {
    float x = buf[src + t];
    if (t >= off)
      x += buf[src + t - off];
    buf[dst + t] = x;
    __syncthreads();
    unsigned tmp = src;
    src = dst;
    dst = tmp;
  }
  if (i < n)
    data[i] = buf[src + t] - v;
  if (t == bs - 1)
    out[blockIdx.x] = buf[src + t];
}

#if defined(ASMEVO_HOST)
// Same summation order as the device tree.
inline void ref_reduce_sum_f32(int n, const float *in, float *out, int blocks) {
  for (int b = 0; b < blocks; ++b) {
    float buf[RED_BLOCK];
    for (int t = 0; t < RED_BLOCK; ++t)
      buf[t] = b * RED_BLOCK + t < n ? in[b * RED_BLOCK + t] : 0.0f;
    for (int s = RED_BLOCK / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; ++t)
        buf[t] += buf[t + s];
    out[b] = buf[0];
  }
}
#endif
