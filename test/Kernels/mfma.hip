// MFMA matrix tiles. Every kernel computes C = A * B for one tile per
// block (blockIdx.x = batch index; A, B, C advance by one tile per batch),
// with A row-major M x K, B row-major K x N, C row-major M x N, looping over
// K in steps of the instruction's k. One wave (64 threads) per block,
// except gemm_f16_lds (256 threads, LDS staging, 64x64 tiles).
//
// Lane layouts (AMD matrix instruction calculator; l = lane, r = acc reg):
//   32x32xk, 1 block: A row l%32, k = (l/32)*kpl + j; B col l%32, same k;
//                     C row 8*(r/4) + 4*(l/32) + r%4, col l%32  (16 regs)
//   16x16xk, 1 block: A row l%16, k = (l/16)*kpl + j; B col l%16, same k;
//                     C row 4*(l/16) + r, col l%16               (4 regs)
//   (kpl = k values per lane = instruction k / 2 or k / 4)
// The host reference is a plain matmul (ref_matmul below).
#include "asmevo_hip.h"

#if ASMEVO_DEVICE
typedef long asmevo_long;

// C tile store for the 32x32 layout.
template <typename T, typename V>
static __device__ __forceinline__ void store32x32(T *C, const V &acc,
                                                  unsigned l) {
#pragma unroll
  for (int r = 0; r < 16; ++r)
    C[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}
template <typename T, typename V>
static __device__ __forceinline__ void store16x16(T *C, const V &acc,
                                                  unsigned l) {
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}
// f64 16x16: one row per register pair (AMD Matrix Instruction Calculator,
// v_mfma_f64_16x16x4_f64: D[i][j] in pair i / 4, lane 16 * (i % 4) + j).
template <typename T, typename V>
static __device__ __forceinline__ void store16x16f64(T *C, const V &acc,
                                                     unsigned l) {
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(4 * r + l / 16) * 16 + l % 16] = acc[r];
}

// 32x32 += 32xK * Kx32, f16 inputs, k = 8 per instruction.
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_32x32x8_f16(int K, const __half *__restrict__ A,
                         const __half *__restrict__ B, float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 32 * K;
  B += (long)blockIdx.x * K * 32;
  C += (long)blockIdx.x * 32 * 32;
  asmevo_floatx16 acc = {};
  for (int kk = 0; kk < K; kk += 8) {
    asmevo_halfx4 a, b;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] = A[(l % 32) * K + kk + (l / 32) * 4 + j];
      b[j] = B[(kk + (l / 32) * 4 + j) * 32 + l % 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
  store32x32(C, acc, l);
}

// 16x16 += 16xK * Kx16, f16, k = 16.
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_16x16x16_f16(int K, const __half *__restrict__ A,
                          const __half *__restrict__ B, float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_floatx4 acc = {};
  for (int kk = 0; kk < K; kk += 16) {
    asmevo_halfx4 a, b;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] = A[(l % 16) * K + kk + (l / 16) * 4 + j];
      b[j] = B[(kk + (l / 16) * 4 + j) * 16 + l % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  store16x16(C, acc, l);
}

// bf16 inputs as raw 16-bit patterns: 16x16x16 and 32x32x8 (the _1k forms).
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_16x16x16_bf16(int K, const unsigned short *__restrict__ A,
                           const unsigned short *__restrict__ B,
                           float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_floatx4 acc = {};
  for (int kk = 0; kk < K; kk += 16) {
    asmevo_shortx4 a, b;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] = (short)A[(l % 16) * K + kk + (l / 16) * 4 + j];
      b[j] = (short)B[(kk + (l / 16) * 4 + j) * 16 + l % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, acc, 0, 0, 0);
  }
  store16x16(C, acc, l);
}

extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_32x32x8_bf16(int K, const unsigned short *__restrict__ A,
                          const unsigned short *__restrict__ B,
                          float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 32 * K;
  B += (long)blockIdx.x * K * 32;
  C += (long)blockIdx.x * 32 * 32;
  asmevo_floatx16 acc = {};
  for (int kk = 0; kk < K; kk += 8) {
    asmevo_shortx4 a, b;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] = (short)A[(l % 32) * K + kk + (l / 32) * 4 + j];
      b[j] = (short)B[(kk + (l / 32) * 4 + j) * 32 + l % 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
  }
  store32x32(C, acc, l);
}

// f32 inputs: 32x32x2.
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_32x32x2_f32(int K, const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 32 * K;
  B += (long)blockIdx.x * K * 32;
  C += (long)blockIdx.x * 32 * 32;
  asmevo_floatx16 acc = {};
  for (int kk = 0; kk < K; kk += 2) {
    float a = A[(l % 32) * K + kk + l / 32];
    float b = B[(kk + l / 32) * 32 + l % 32];
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
  }
  store32x32(C, acc, l);
}

// f64: 16x16x4 (gfx90a and gfx942).
extern "C" __global__ void __launch_bounds__(64)
    mfma_f64_16x16x4_f64(int K, const double *__restrict__ A,
                         const double *__restrict__ B, double *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_doublex4 acc = {};
  for (int kk = 0; kk < K; kk += 4) {
    double a = A[(l % 16) * K + kk + l / 16];
    double b = B[(kk + l / 16) * 16 + l % 16];
    acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, acc, 0, 0, 0);
  }
  store16x16f64(C, acc, l);
}

// int8 -> int32, 16x16: k = 32 on gfx942 (8 bytes per lane in a long),
// k = 16 on gfx90a (4 bytes per lane in an int; gfx942 dropped that form).
extern "C" __global__ void __launch_bounds__(64)
    mfma_i32_16x16_i8(int K, const signed char *__restrict__ A,
                      const signed char *__restrict__ B, int *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_intx4 acc = {};
#if defined(__gfx942__)
  const int kpl = 8;
#else
  const int kpl = 4;
#endif
  for (int kk = 0; kk < K; kk += 4 * kpl) {
    unsigned long long a = 0, b = 0;
#pragma unroll
    for (int j = 0; j < kpl; ++j) {
      a |= (unsigned long long)(unsigned char)A[(l % 16) * K + kk +
                                                (l / 16) * kpl + j]
           << (8 * j);
      b |= (unsigned long long)(unsigned char)B[(kk + (l / 16) * kpl + j) * 16 +
                                                l % 16]
           << (8 * j);
    }
#if defined(__gfx942__)
    acc = __builtin_amdgcn_mfma_i32_16x16x32_i8((long)a, (long)b, acc, 0, 0, 0);
#else
    acc = __builtin_amdgcn_mfma_i32_16x16x16i8((int)a, (int)b, acc, 0, 0, 0);
#endif
  }
  store16x16(C, acc, l);
}

#if defined(__gfx942__)
// fp8 (E4M3 FNUZ on gfx942) x fp8 -> f32, 16x16x32 (gfx942 only).
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_16x16x32_fp8(int K, const unsigned char *__restrict__ A,
                          const unsigned char *__restrict__ B,
                          float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_floatx4 acc = {};
  for (int kk = 0; kk < K; kk += 32) {
    unsigned long long a = 0, b = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      a |= (unsigned long long)A[(l % 16) * K + kk + (l / 16) * 8 + j]
           << (8 * j);
      b |= (unsigned long long)B[(kk + (l / 16) * 8 + j) * 16 + l % 16]
           << (8 * j);
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8((long)a, (long)b, acc, 0,
                                                     0, 0);
  }
  store16x16(C, acc, l);
}

// xf32 (gfx942 only): 16x16x8, two f32 per lane.
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_16x16x8_xf32(int K, const float *__restrict__ A,
                          const float *__restrict__ B, float *__restrict__ C) {
  typedef float floatx2 __attribute__((ext_vector_type(2)));
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 16 * K;
  B += (long)blockIdx.x * K * 16;
  C += (long)blockIdx.x * 16 * 16;
  asmevo_floatx4 acc = {};
  for (int kk = 0; kk < K; kk += 8) {
    floatx2 a, b;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      a[j] = A[(l % 16) * K + kk + (l / 16) * 2 + j];
      b[j] = B[(kk + (l / 16) * 2 + j) * 16 + l % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x8_xf32(a, b, acc, 0, 0, 0);
  }
  store16x16(C, acc, l);
}
#endif // __gfx942__

// High register pressure: one wave computes a 128x128 tile as 4x4 blocks of
// 32x32 (256 accumulator registers), so part of the accumulators live in
// AGPRs (a[...] MFMA operands, v_accvgpr_read/write/mov, accum_offset,
// more than 256 unified VGPRs). A: 128 x K, B: K x 128, C: 128 x 128.
extern "C" __global__ void __launch_bounds__(64)
    mfma_f32_128x128_f16_agpr(int K, const __half *__restrict__ A,
                              const __half *__restrict__ B,
                              float *__restrict__ C) {
  unsigned l = threadIdx.x;
  A += (long)blockIdx.x * 128 * K;
  B += (long)blockIdx.x * K * 128;
  C += (long)blockIdx.x * 128 * 128;
  asmevo_floatx16 acc[4][4] = {};
  for (int kk = 0; kk < K; kk += 8) {
    asmevo_halfx4 a[4], b[4];
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        a[t][j] = A[(t * 32 + l % 32) * K + kk + (l / 32) * 4 + j];
        b[t][j] = B[(kk + (l / 32) * 4 + j) * 128 + t * 32 + l % 32];
      }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int t = 0; t < 4; ++t)
        acc[i][t] =
            __builtin_amdgcn_mfma_f32_32x32x8f16(a[i], b[t], acc[i][t], 0, 0, 0);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
      for (int r = 0; r < 16; ++r)
        C[(i * 32 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * 128 + t * 32 +
          l % 32] = acc[i][t][r];
}

// A small real GEMM: C[M x N] = A[M x K] * B[K x N] (f16 in, f32 out),
// M, N multiples of 64, K multiple of 16. 256 threads = 4 waves per 64x64
// tile, each wave one 32x32 quadrant with v_mfma_f32_32x32x8f16; A and B
// tiles staged through LDS with barriers.
extern "C" __global__ void __launch_bounds__(256)
    gemm_f16_lds(int M, int N, int K, const __half *__restrict__ A,
                 const __half *__restrict__ B, float *__restrict__ C) {
  __shared__ __half As[64][16 + 4];
  __shared__ __half Bs[16][64 + 4];
  unsigned t = threadIdx.x, l = t % 64, w = t / 64;
  unsigned row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  unsigned wr = (w / 2) * 32, wc = (w % 2) * 32;
  asmevo_floatx16 acc = {};
  for (int kk = 0; kk < K; kk += 16) {
    // 64x16 + 16x64 halves = 2 x 1024 halves, 4 per thread each
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      unsigned idx = t * 4 + e;
      As[idx / 16][idx % 16] = A[(row0 + idx / 16) * K + kk + idx % 16];
      Bs[idx / 64][idx % 64] = B[(kk + idx / 64) * N + col0 + idx % 64];
    }
    __syncthreads();
#pragma unroll
    for (int k8 = 0; k8 < 16; k8 += 8) {
      asmevo_halfx4 a, b;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        a[j] = As[wr + l % 32][k8 + (l / 32) * 4 + j];
        b[j] = Bs[k8 + (l / 32) * 4 + j][wc + l % 32];
      }
      acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 16; ++r)
    C[(row0 + wr + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + col0 + wc +
      l % 32] = acc[r];
}
#endif // ASMEVO_DEVICE

#if defined(ASMEVO_HOST)
// C[M x N] = A[M x K] * B[K x N], element types converted by `cvt`.
template <typename TA, typename TC, typename Cvt>
void ref_matmul(int M, int N, int K, const TA *A, const TA *B, TC *C,
                Cvt cvt) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      TC acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (TC)cvt(A[i * K + k]) * (TC)cvt(B[k * N + j]);
      C[i * N + j] = acc;
    }
}
inline float ref_bf16_to_float(unsigned short h) {
  unsigned u = (unsigned)h << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// gfx942 fp8 is E4M3 FNUZ: bias 8, no infinities, 0x80 is the only NaN.
inline float ref_fp8_e4m3fnuz_to_float(unsigned char v) {
  if (v == 0x80)
    return NAN;
  int s = v >> 7, e = (v >> 3) & 15, m = v & 7;
  float r = e ? std::ldexp(1.0f + m / 8.0f, e - 8) : std::ldexp(m / 8.0f, -7);
  return s ? -r : r;
}
#endif
