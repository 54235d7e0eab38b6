#include "../../../test/Kernels/mfma.hip"
#include "HostRef.h"
using namespace hostref;

// MFMA vs a host matrix multiply. Inputs are small integers so every sum is
// exact in f32 and the comparison is bit for bit whatever the hardware's
// accumulation order.
template <typename T> static std::vector<T> smallInts(size_t N, uint64_t Seed) {
  auto I = randomInts<int>(N, -4, 4, Seed);
  return std::vector<T>(I.begin(), I.end());
}
static std::vector<unsigned short> bf16Ints(size_t N, uint64_t Seed) {
  auto I = randomInts<int>(N, -4, 4, Seed);
  std::vector<unsigned short> R;
  for (int X : I) {
    float F = float(X);
    unsigned U;
    std::memcpy(&U, &F, 4);
    R.push_back(U >> 16);
  }
  return R;
}
// fp8 E4M3 FNUZ: small integers have exact encodings (1.0 = 0x40 with bias 8).
static std::vector<unsigned char> fp8Ints(size_t N, uint64_t Seed) {
  auto I = randomInts<int>(N, -4, 4, Seed);
  std::vector<unsigned char> R;
  for (int X : I) {
    unsigned char E = 0;
    int A = X < 0 ? -X : X;
    if (A == 0) E = 0;
    else if (A == 1) E = 8 << 3;
    else if (A == 2) E = 9 << 3;
    else if (A == 3) E = (9 << 3) | 4;
    else E = 10 << 3;
    R.push_back(X < 0 && A ? (E | 0x80) : E);
  }
  return R;
}
#define MFMA_CASE(NAME, MM, NN, KK, T, CVT, ARCHS, G)                          \
  HOSTREF_CASE(#NAME) {                                                        \
    c.Source = "mfma"; c.Kernel = #NAME;                                       \
    int K = KK, batch = 2;                                                     \
    c.Grid[0] = batch; c.Block[0] = 64;                                        \
    c.i32(K);                                                                  \
    T *A = c.buf(G(MM * K * batch, 1));                                        \
    T *B = c.buf(G(K * NN * batch, 2));                                        \
    OUT *C = c.out<OUT>(MM * NN * batch);                                      \
    for (int b = 0; b < batch; ++b)                                            \
      ref_matmul(MM, NN, K, A + b * MM * K, B + b * K * NN, C + b * MM * NN,   \
                 CVT);                                                         \
    c.Archs = ARCHS;                                                           \
  }
#define OUT float
static auto id = [](auto x) { return float(x); };
static const std::vector<std::string> Both = {"gfx942", "gfx90a"};
static const std::vector<std::string> Only942 = {"gfx942"};
MFMA_CASE(mfma_f32_32x32x8_f16, 32, 32, 32, __half, id, Both, smallInts<__half>)
MFMA_CASE(mfma_f32_16x16x16_f16, 16, 16, 32, __half, id, Both, smallInts<__half>)
#undef OUT
#define OUT double
static auto idd = [](auto x) { return double(x); };
MFMA_CASE(mfma_f64_16x16x4_f64, 16, 16, 32, double, idd, Both, smallInts<double>)
#undef OUT
#define OUT float
MFMA_CASE(mfma_f32_32x32x2_f32, 32, 32, 32, float, id, Both, smallInts<float>)
MFMA_CASE(mfma_f32_16x16x8_xf32, 16, 16, 32, float, id, Only942, smallInts<float>)
MFMA_CASE(mfma_f32_128x128_f16_agpr, 128, 128, 16, __half, id, Both, smallInts<__half>)
MFMA_CASE(mfma_f32_16x16x16_bf16, 16, 16, 32, unsigned short, ref_bf16_to_float, Both, bf16Ints)
MFMA_CASE(mfma_f32_32x32x8_bf16, 32, 32, 32, unsigned short, ref_bf16_to_float, Both, bf16Ints)
#undef OUT
#define OUT int
static auto i8 = [](signed char x) { return int(x); };
MFMA_CASE(mfma_i32_16x16_i8, 16, 16, 64, signed char, i8, Both, smallInts<signed char>)
#undef OUT
#define OUT float
MFMA_CASE(mfma_f32_16x16x32_fp8, 16, 16, 64, unsigned char, ref_fp8_e4m3fnuz_to_float, Only942, fp8Ints)

HOSTREF_CASE("gemm_f16_lds") {
  c.Source = "mfma"; c.Kernel = "gemm_f16_lds";
  int M = 128, N = 64, K = 32;
  c.Grid[0] = N / 64; c.Grid[1] = M / 64; c.Block[0] = 256;
  c.i32(M); c.i32(N); c.i32(K);
  __half *A = c.buf(smallInts<__half>(M * K, 3));
  __half *B = c.buf(smallInts<__half>(K * N, 4));
  float *C = c.out<float>(M * N);
  ref_matmul(M, N, K, A, B, C, id);
}
