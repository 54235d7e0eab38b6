// Atomics: global int/float atomicAdd, min/max/or/exch, a CAS loop
// (float max, 64-bit), and LDS atomics (ds_add_u32, ds_max, ...).
// Results that depend only on the multiset of operations (integer sums,
// min/max, or) are deterministic; float sums are order dependent, so
// compare them with a tolerance.
#include "asmevo_hip.h"

// Global histogram: one atomicAdd per element (global_atomic_add).
extern "C" __global__ void histogram_global(int n, int bins,
                                            const unsigned *__restrict__ in,
                                            unsigned *__restrict__ hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[in[i] % bins], 1u);
}

// Histogram privatized in LDS (ds_add_u32), then merged with global atomics.
// bins <= 256.
extern "C" __global__ void __launch_bounds__(256)
    histogram_lds(int n, int bins, const unsigned *__restrict__ in,
                  unsigned *__restrict__ hist) {
  __shared__ unsigned local[256];
  unsigned t = threadIdx.x;
  for (unsigned b = t; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i] % bins], 1u);
  __syncthreads();
  for (int b = t; b < bins; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
}

// LDS min/max/or/xor atomics and a returned-value LDS atomic (ds_add_rtn).
extern "C" __global__ void __launch_bounds__(256)
    lds_atomic_mix(int n, const int *__restrict__ in, int *__restrict__ out) {
  __shared__ int smin, smax, sor, sxor, scount;
  __shared__ int order[256];
  unsigned t = threadIdx.x;
  if (t == 0) {
    smin = 0x7fffffff;
    smax = (int)0x80000000;
    sor = 0;
    sxor = 0;
    scount = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    int v = in[i];
    atomicMin(&smin, v);
    atomicMax(&smax, v);
    atomicOr(&sor, v);
    atomicXor(&sxor, v);
    int slot = atomicAdd(&scount, 1); // arrival order, not deterministic
    order[slot] = v;
  }
  __syncthreads();
  if (t == 0) {
    int *o = out + blockIdx.x * 5;
    o[0] = smin;
    o[1] = smax;
    o[2] = sor;
    o[3] = sxor;
    // the set written to order[] is deterministic: sum it
    int s = 0;
    for (int k = 0; k < scount; ++k)
      s += order[k];
    o[4] = s;
  }
}

// Float atomicAdd to global (global_atomic_add_f32 on gfx942, CAS loop on
// gfx90a without unsafe-fp-atomics) and integer min/max/exch in global.
extern "C" __global__ void global_atomic_mix(int n, const float *__restrict__ x,
                                             float *__restrict__ fsum,
                                             int *__restrict__ imax,
                                             unsigned *__restrict__ umin,
                                             int *__restrict__ last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  atomicAdd(fsum, v);
  atomicMax(imax, (int)(v * 1000.0f));
  atomicMin(umin, (unsigned)__float_as_int(v) & 0x7fffffffu);
  atomicExch(last, 1);
}

// Float max through a compare-and-swap loop (global_atomic_cmpswap).
static __device__ float atomic_max_float(float *addr, float v) {
  int *ia = (int *)addr;
  int old = *ia;
  while (__int_as_float(old) < v) {
    int prev = atomicCAS(ia, old, __float_as_int(v));
    if (prev == old)
      break;
    old = prev;
  }
  return __int_as_float(old);
}

extern "C" __global__ void cas_max_f32(int n, const float *__restrict__ x,
                                       float *__restrict__ result) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomic_max_float(result, x[i]);
}

// 64-bit atomics: add and CAS on unsigned long long (x2 forms).
extern "C" __global__ void atomic_u64(int n, const unsigned *__restrict__ x,
                                      unsigned long long *__restrict__ sum,
                                      unsigned long long *__restrict__ maxpair) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long v = x[i];
  atomicAdd(sum, v * 0x100000001ull);
  // (value << 32 | index) max through CAS
  unsigned long long key = (v << 32) | (unsigned)i;
  unsigned long long old = *maxpair;
  while (old < key) {
    unsigned long long prev = atomicCAS(maxpair, old, key);
    if (prev == old)
      break;
    old = prev;
  }
}
