//===- asmevo_hip.h - HIP-style kernels without ROCm headers ----*- C++ -*-===//
//
// Makes the test kernels in test/Kernels compile in two modes:
//
//  * device (the normal build), without any ROCm header or device library:
//      clang++-22 -x hip --offload-arch=gfx942 --cuda-device-only
//        --no-gpu-bundle-output -nogpuinc -nogpulib -O3 -mcode-object-version=5
//    (the build also passes -DASMEVO_COV=<n>, see gridDim below);
//
//  * host (plain C++, for host reference implementations):
//      clang++-22 -x c++ -std=c++17 -DASMEVO_HOST   (link with -pthread)
//    (clang only: the vector types are clang ext_vector_type)
//    Kernels become ordinary functions; threadIdx/blockIdx/blockDim/gridDim
//    are thread-locals set by asmevo_host::launch (sequential, no barriers)
//    or asmevo_host::launch_threaded (one std::thread per work-item of a
//    block, __syncthreads is a real barrier, __shared__ is `static`).
//
// Conventions for kernel sources (see test/Kernels/README.md):
//  * per-element math lives in ASMEVO_HD (= __host__ __device__) inline
//    functions, so a host reference of an element-wise kernel is a loop;
//  * code that only exists at wavefront level (DPP, swizzle, bpermute,
//    readfirstlane, MFMA) is guarded by `#if ASMEVO_DEVICE`; such files
//    provide a host reference function of what the wave computes instead.
//
//===----------------------------------------------------------------------===//
#ifndef ASMEVO_HIP_H
#define ASMEVO_HIP_H

#if defined(ASMEVO_HOST)
#define ASMEVO_DEVICE 0
#else
#define ASMEVO_DEVICE 1
#endif

// Code object version the kernel is compiled for (only gridDim depends on it).
#ifndef ASMEVO_COV
#define ASMEVO_COV 5
#endif

//===----------------------------------------------------------------------===//
// Common to host and device
//===----------------------------------------------------------------------===//

typedef unsigned char asmevo_u8;
typedef signed char asmevo_i8;
typedef unsigned short asmevo_u16;
typedef short asmevo_i16;
typedef unsigned int asmevo_u32;
typedef int asmevo_i32;
typedef unsigned long long asmevo_u64;
typedef long long asmevo_i64;

typedef _Float16 __half;

// Vector types used by the wave-level builtins (clang ext vectors; they also
// exist on the host, so reference code can use them).
typedef float asmevo_floatx4 __attribute__((ext_vector_type(4)));
typedef float asmevo_floatx16 __attribute__((ext_vector_type(16)));
typedef double asmevo_doublex4 __attribute__((ext_vector_type(4)));
typedef int asmevo_intx4 __attribute__((ext_vector_type(4)));
typedef int asmevo_intx16 __attribute__((ext_vector_type(16)));
typedef short asmevo_shortx4 __attribute__((ext_vector_type(4)));
typedef _Float16 asmevo_halfx4 __attribute__((ext_vector_type(4)));
typedef _Float16 asmevo_halfx8 __attribute__((ext_vector_type(8)));

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
#if defined(ASMEVO_HOST)
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
#endif
};

#if defined(ASMEVO_HOST)
//===----------------------------------------------------------------------===//
// Host mode
//===----------------------------------------------------------------------===//
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define ASMEVO_HD inline
#define ASMEVO_NOINLINE_DEVICE __attribute__((noinline))

inline thread_local uint3 threadIdx = {0, 0, 0};
inline thread_local uint3 blockIdx = {0, 0, 0};
inline thread_local dim3 blockDim = {1, 1, 1};
inline thread_local dim3 gridDim = {1, 1, 1};
static constexpr int warpSize = 64;

namespace asmevo_host {
// The barrier of the block being run by launch_threaded (null otherwise).
struct Barrier {
  explicit Barrier(unsigned n) : count(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mu);
    unsigned gen = generation;
    if (++waiting == count) {
      waiting = 0;
      ++generation;
      cv.notify_all();
    } else {
      cv.wait(lock, [&] { return gen != generation; });
    }
  }
  std::mutex mu;
  std::condition_variable cv;
  unsigned count, waiting = 0, generation = 0;
};
inline thread_local Barrier *current_barrier = nullptr;

// Runs f() once per work-item, sequentially. For kernels without barriers.
template <typename F> void launch(dim3 grid, dim3 block, F &&f) {
  gridDim = grid;
  blockDim = block;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx) {
              blockIdx = {bx, by, bz};
              threadIdx = {tx, ty, tz};
              f();
            }
}

// Runs the blocks one after another; inside a block one std::thread per
// work-item, so __syncthreads() and `static` __shared__ arrays behave as on
// the device (blocks never run concurrently).
template <typename F> void launch_threaded(dim3 grid, dim3 block, F &&f) {
  unsigned n = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        Barrier bar(n);
        std::vector<std::thread> threads;
        threads.reserve(n);
        for (unsigned i = 0; i < n; ++i)
          threads.emplace_back([&, i] {
            gridDim = grid;
            blockDim = block;
            blockIdx = {bx, by, bz};
            threadIdx = {i % block.x, (i / block.x) % block.y,
                         i / (block.x * block.y)};
            current_barrier = &bar;
            f();
          });
        for (auto &t : threads)
          t.join();
      }
}
} // namespace asmevo_host

inline void __syncthreads() {
  if (!asmevo_host::current_barrier) {
    if (blockDim.x * blockDim.y * blockDim.z == 1)
      return;
    std::fprintf(stderr, "asmevo_hip.h: __syncthreads() outside "
                         "asmevo_host::launch_threaded\n");
    std::abort();
  }
  asmevo_host::current_barrier->arrive_and_wait();
}
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// Host atomics (sequentially consistent; floats through a CAS loop).
template <typename T> inline T atomicAdd(T *p, T v) {
  if constexpr (std::is_floating_point<T>::value && sizeof(T) == 4) {
    unsigned old = __atomic_load_n((unsigned *)p, __ATOMIC_SEQ_CST), nw;
    do {
      T f;
      std::memcpy(&f, &old, 4);
      f += v;
      std::memcpy(&nw, &f, 4);
    } while (!__atomic_compare_exchange_n((unsigned *)p, &old, nw, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    T r;
    std::memcpy(&r, &old, 4);
    return r;
  } else if constexpr (std::is_floating_point<T>::value && sizeof(T) == 8) {
    unsigned long long old =
        __atomic_load_n((unsigned long long *)p, __ATOMIC_SEQ_CST), nw;
    do {
      T f;
      std::memcpy(&f, &old, 8);
      f += v;
      std::memcpy(&nw, &f, 8);
    } while (!__atomic_compare_exchange_n((unsigned long long *)p, &old, nw,
                                          false, __ATOMIC_SEQ_CST,
                                          __ATOMIC_SEQ_CST));
    T r;
    std::memcpy(&r, &old, 8);
    return r;
  } else {
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  }
}
template <typename T> inline T atomicSub(T *p, T v) {
  return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T atomicAnd(T *p, T v) {
  return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T atomicOr(T *p, T v) {
  return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T atomicXor(T *p, T v) {
  return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T atomicMax(T *p, T v) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, false,
                                                 __ATOMIC_SEQ_CST,
                                                 __ATOMIC_SEQ_CST)) {
  }
  return old;
}
template <typename T> inline T atomicMin(T *p, T v) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (old > v && !__atomic_compare_exchange_n(p, &old, v, false,
                                                 __ATOMIC_SEQ_CST,
                                                 __ATOMIC_SEQ_CST)) {
  }
  return old;
}
template <typename T> inline T atomicExch(T *p, T v) {
  return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <typename T> inline T atomicCAS(T *p, T cmp, T v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return cmp;
}

inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline int __float_as_int(float f) {
  int i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline float __expf(float x) { return std::exp(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }

#else // !ASMEVO_HOST
//===----------------------------------------------------------------------===//
// Device mode (clang -x hip -nogpuinc -nogpulib)
//===----------------------------------------------------------------------===//
#if !defined(__HIP__)
#error "asmevo_hip.h: compile with -x hip (or define ASMEVO_HOST for host C++)"
#endif

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
// __launch_bounds__(MAX_THREADS[, MIN_WAVES_PER_EU])
#define __asmevo_lb1(t) __attribute__((amdgpu_flat_work_group_size(1, t)))
#define __asmevo_lb2(t, w)                                                     \
  __attribute__((amdgpu_flat_work_group_size(1, t), amdgpu_waves_per_eu(w)))
#define __asmevo_lbsel(_1, _2, NAME, ...) NAME
#define __launch_bounds__(...)                                                 \
  __asmevo_lbsel(__VA_ARGS__, __asmevo_lb2, __asmevo_lb1)(__VA_ARGS__)
#define ASMEVO_HD __host__ __device__ inline
#define ASMEVO_NOINLINE_DEVICE __device__ __attribute__((noinline))

static constexpr int warpSize = 64; // gfx9 is wave64 only

// threadIdx.x etc. are properties (clang enables __declspec in HIP mode):
// `auto i = threadIdx.x` is an unsigned, read from the builtin each time.
#define __ASMEVO_DIM_T(NAME, XF, YF, ZF)                                       \
  struct NAME {                                                                \
    __declspec(property(get = __get_x)) unsigned x;                            \
    __declspec(property(get = __get_y)) unsigned y;                            \
    __declspec(property(get = __get_z)) unsigned z;                            \
    static __device__ __forceinline__ unsigned __get_x() { return XF; }        \
    static __device__ __forceinline__ unsigned __get_y() { return YF; }        \
    static __device__ __forceinline__ unsigned __get_z() { return ZF; }        \
  }

__ASMEVO_DIM_T(__asmevo_threadIdx_t, __builtin_amdgcn_workitem_id_x(),
               __builtin_amdgcn_workitem_id_y(),
               __builtin_amdgcn_workitem_id_z());
__ASMEVO_DIM_T(__asmevo_blockIdx_t, __builtin_amdgcn_workgroup_id_x(),
               __builtin_amdgcn_workgroup_id_y(),
               __builtin_amdgcn_workgroup_id_z());
// Reads hidden_group_size_{x,y,z} (v5+) or the dispatch packet (v4);
// clang picks the layout from -mcode-object-version.
__ASMEVO_DIM_T(__asmevo_blockDim_t, __builtin_amdgcn_workgroup_size_x(),
               __builtin_amdgcn_workgroup_size_y(),
               __builtin_amdgcn_workgroup_size_z());

// gridDim = number of workgroups per dimension. Code object v5+: the hidden
// kernargs hidden_block_count_{x,y,z} at implicitarg_ptr + 0/4/8. v4: the
// dispatch packet's grid size divided (rounding up) by the workgroup size.
static __device__ __forceinline__ unsigned __asmevo_num_groups(int d) {
#if ASMEVO_COV >= 5
  return ((const __attribute__((address_space(4))) unsigned *)
              __builtin_amdgcn_implicitarg_ptr())[d];
#else
  unsigned n = d == 0   ? __builtin_amdgcn_grid_size_x()
               : d == 1 ? __builtin_amdgcn_grid_size_y()
                        : __builtin_amdgcn_grid_size_z();
  unsigned g = d == 0   ? __builtin_amdgcn_workgroup_size_x()
               : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                        : __builtin_amdgcn_workgroup_size_z();
  unsigned q = n / g;
  return q + (n > q * g);
#endif
}
__ASMEVO_DIM_T(__asmevo_gridDim_t, __asmevo_num_groups(0),
               __asmevo_num_groups(1), __asmevo_num_groups(2));
#undef __ASMEVO_DIM_T

extern const __device__ __attribute__((weak)) __asmevo_threadIdx_t threadIdx;
extern const __device__ __attribute__((weak)) __asmevo_blockIdx_t blockIdx;
extern const __device__ __attribute__((weak)) __asmevo_blockDim_t blockDim;
extern const __device__ __attribute__((weak)) __asmevo_gridDim_t gridDim;

//--- Synchronization ---------------------------------------------------------

static __device__ __forceinline__ void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ __forceinline__ void __threadfence() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}
static __device__ __forceinline__ void __threadfence_block() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}

//--- Lanes and cross-lane ----------------------------------------------------

static __device__ __forceinline__ unsigned __lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
static __device__ __forceinline__ unsigned long long __ballot(int pred) {
  return __builtin_amdgcn_ballot_w64(pred != 0);
}

static __device__ __forceinline__ int __float_as_int(float f) {
  return __builtin_bit_cast(int, f);
}
static __device__ __forceinline__ float __int_as_float(int i) {
  return __builtin_bit_cast(float, i);
}

// HIP semantics: lanes are grouped by `width` (a power of two <= 64).
static __device__ __forceinline__ int __shfl(int var, int src, int width = 64) {
  int self = __lane_id();
  int index = (src & (width - 1)) + (self & ~(width - 1));
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ int __shfl_xor(int var, int mask,
                                                 int width = 64) {
  int self = __lane_id();
  int index = self ^ mask;
  index = index >= ((self + width) & ~(width - 1)) ? self : index;
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ int __shfl_down(int var, unsigned delta,
                                                  int width = 64) {
  int self = __lane_id();
  int index = self + delta;
  index = (int)((self & (width - 1)) + delta) >= width ? self : index;
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ float __shfl(float v, int s, int w = 64) {
  return __int_as_float(__shfl(__float_as_int(v), s, w));
}
static __device__ __forceinline__ float __shfl_xor(float v, int m, int w = 64) {
  return __int_as_float(__shfl_xor(__float_as_int(v), m, w));
}
static __device__ __forceinline__ float __shfl_down(float v, unsigned d,
                                                    int w = 64) {
  return __int_as_float(__shfl_down(__float_as_int(v), d, w));
}

//--- Atomics (relaxed, agent scope, like HIP's defaults) ---------------------

#define __ASMEVO_ATOMIC_RMW(NAME, BUILTIN)                                     \
  template <typename T> static __device__ __forceinline__ T NAME(T *p, T v) {  \
    return BUILTIN(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);          \
  }
__ASMEVO_ATOMIC_RMW(atomicAdd, __hip_atomic_fetch_add)
__ASMEVO_ATOMIC_RMW(atomicSub, __hip_atomic_fetch_sub)
__ASMEVO_ATOMIC_RMW(atomicAnd, __hip_atomic_fetch_and)
__ASMEVO_ATOMIC_RMW(atomicOr, __hip_atomic_fetch_or)
__ASMEVO_ATOMIC_RMW(atomicXor, __hip_atomic_fetch_xor)
__ASMEVO_ATOMIC_RMW(atomicMax, __hip_atomic_fetch_max)
__ASMEVO_ATOMIC_RMW(atomicMin, __hip_atomic_fetch_min)
__ASMEVO_ATOMIC_RMW(atomicExch, __hip_atomic_exchange)
#undef __ASMEVO_ATOMIC_RMW

template <typename T>
static __device__ __forceinline__ T atomicCAS(T *p, T cmp, T v) {
  __hip_atomic_compare_exchange_strong(p, &cmp, v, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return cmp;
}

//--- Math (no device library: builtins that lower without libcalls) ---------

static __device__ __forceinline__ float expf(float x) { return __builtin_expf(x); }
static __device__ __forceinline__ float exp2f(float x) { return __builtin_exp2f(x); }
static __device__ __forceinline__ float logf(float x) { return __builtin_logf(x); }
static __device__ __forceinline__ float log2f(float x) { return __builtin_log2f(x); }
static __device__ __forceinline__ float sqrtf(float x) { return __builtin_sqrtf(x); }
static __device__ __forceinline__ float fabsf(float x) { return __builtin_fabsf(x); }
static __device__ __forceinline__ float fmaf(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
static __device__ __forceinline__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ __forceinline__ float floorf(float x) { return __builtin_floorf(x); }
static __device__ __forceinline__ float ceilf(float x) { return __builtin_ceilf(x); }
static __device__ __forceinline__ float truncf(float x) { return __builtin_truncf(x); }
static __device__ __forceinline__ float copysignf(float a, float b) {
  return __builtin_copysignf(a, b);
}
static __device__ __forceinline__ float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ __forceinline__ float rsqrtf(float x) { return __builtin_amdgcn_rsqf(x); }
// Fast exp: one v_exp_f32 (2^x) after a multiply.
static __device__ __forceinline__ float __expf(float x) {
  return __builtin_amdgcn_exp2f(x * 1.44269504088896341f);
}
static __device__ __forceinline__ double sqrt(double x) { return __builtin_sqrt(x); }
static __device__ __forceinline__ double fabs(double x) { return __builtin_fabs(x); }
static __device__ __forceinline__ double fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
static __device__ __forceinline__ double fmin(double a, double b) { return __builtin_fmin(a, b); }
static __device__ __forceinline__ double fmax(double a, double b) { return __builtin_fmax(a, b); }
static __device__ __forceinline__ double floor(double x) { return __builtin_floor(x); }

// tanhf and erff have no libcall-free lowering: our own versions. Measured
// against libm in double on [-12, 12] with an exact expf: tanhf max abs error
// 1.4e-6 (rel 2.7e-6), erff 4.9e-7; the device expf (v_exp_f32) adds its own
// ulp. The host side uses libm, so host references compare with a tolerance.
static __device__ inline float tanhf(float x) {
  float ax = __builtin_fabsf(x);
  float r;
  if (ax < 0.55f) {
    // odd Taylor series to x^11
    float x2 = x * x;
    float p = -1382.0f / 155925.0f;
    p = __builtin_fmaf(p, x2, 62.0f / 2835.0f);
    p = __builtin_fmaf(p, x2, -17.0f / 315.0f);
    p = __builtin_fmaf(p, x2, 2.0f / 15.0f);
    p = __builtin_fmaf(p, x2, -1.0f / 3.0f);
    return __builtin_fmaf(p * x2, x, x);
  }
  if (ax >= 9.0f)
    r = 1.0f;
  else
    r = 1.0f - 2.0f / (__builtin_expf(2.0f * ax) + 1.0f);
  return __builtin_copysignf(r, x);
}
// Abramowitz & Stegun 7.1.26.
static __device__ inline float erff(float x) {
  float ax = __builtin_fabsf(x);
  float t = 1.0f / __builtin_fmaf(0.3275911f, ax, 1.0f);
  float p = 1.061405429f;
  p = __builtin_fmaf(p, t, -1.453152027f);
  p = __builtin_fmaf(p, t, 1.421413741f);
  p = __builtin_fmaf(p, t, -0.284496736f);
  p = __builtin_fmaf(p, t, 0.254829592f);
  float r = 1.0f - p * t * __builtin_expf(-ax * ax);
  return __builtin_copysignf(r, x);
}

#endif // ASMEVO_HOST

#endif // ASMEVO_HIP_H
