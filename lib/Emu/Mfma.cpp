//===- Mfma.cpp - Matrix fused multiply-add (MFMA) -----------------------===//
//
// Single-block MFMA with the CDNA2/CDNA3 register layouts (AMD CDNA3 ISA,
// "Matrix Core" chapter; AMD matrix instruction calculator):
//   A (M x K): lane = i + M * (k / kpl), element k % kpl of the lane's
//              registers, kpl = M * K / 64;
//   B (K x N): lane = j + N * (k / kpl), same packing;
//   C/D (M x N): column j = lane % N, group g = lane / N,
//              row = (r / 4) * (4 * 64 / N) + 4 * g + r % 4 for register r.
// Integer MFMA is exact (wrapping i32 accumulation). Float MFMA is declared
// approximate: the order and precision of the hardware's internal
// accumulation are not specified bit for bit; the emulator sums the
// products in double and rounds once when adding C. Multi-block variants,
// broadcast controls (cbsz/abid/blgp; gfx942 f64 negation) and SMFMAC are
// refused. f64 MFMA: sequential fma over k (approximate).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cmath>

namespace asmevo {
namespace emu {

namespace {

enum ET : uint8_t { EF32, EF16, EBF16, EI8, EFP8, EBF8, EXF32, EF64 };

struct MfmaDesc {
  uint8_t M, N, K;
  ET A, B;
  bool IntOut;
};

static const MfmaDesc Descs[] = {
    {32, 32, 8, EF16, EF16, false},   // 0
    {16, 16, 16, EF16, EF16, false},  // 1
    {16, 16, 16, EBF16, EBF16, false}, // 2
    {32, 32, 8, EBF16, EBF16, false}, // 3
    {32, 32, 2, EF32, EF32, false},   // 4
    {16, 16, 4, EF32, EF32, false},   // 5
    {16, 16, 32, EI8, EI8, true},     // 6 (gfx942)
    {32, 32, 16, EI8, EI8, true},     // 7 (gfx942)
    {16, 16, 16, EI8, EI8, true},     // 8 (gfx90a)
    {32, 32, 8, EI8, EI8, true},      // 9 (gfx90a)
    {16, 16, 32, EFP8, EFP8, false},  // 10
    {16, 16, 32, EFP8, EBF8, false},  // 11
    {16, 16, 32, EBF8, EFP8, false},  // 12
    {16, 16, 32, EBF8, EBF8, false},  // 13
    {32, 32, 16, EFP8, EFP8, false},  // 14
    {32, 32, 16, EFP8, EBF8, false},  // 15
    {32, 32, 16, EBF8, EFP8, false},  // 16
    {32, 32, 16, EBF8, EBF8, false},  // 17
    {16, 16, 8, EXF32, EXF32, false}, // 18
    {32, 32, 4, EXF32, EXF32, false}, // 19
    {16, 16, 4, EF64, EF64, false},   // 20
};

unsigned bitsOf(ET T) {
  switch (T) {
  case EF64:
    return 64;
  case EF32:
  case EXF32:
    return 32;
  case EF16:
  case EBF16:
    return 16;
  default:
    return 8;
  }
}

float h2f16(uint16_t H) {
  uint32_t S = uint32_t(H & 0x8000) << 16, E = (H >> 10) & 0x1f, M = H & 0x3ff;
  float R;
  if (E == 0x1f)
    R = M ? NAN : INFINITY;
  else if (E)
    R = std::ldexp(1.0f + M / 1024.0f, int(E) - 15);
  else
    R = std::ldexp(M / 1024.0f, -14);
  return S ? -R : R;
}

// gfx942 8-bit floats are the FNUZ variants: no infinities, 0x80 is NaN.
float fp8e4m3fnuz(uint8_t V) {
  if (V == 0x80)
    return NAN;
  int S = V >> 7, E = (V >> 3) & 15, M = V & 7;
  float R = E ? std::ldexp(1.0f + M / 8.0f, E - 8) : std::ldexp(M / 8.0f, -7);
  return S ? -R : R;
}
float bf8e5m2fnuz(uint8_t V) {
  if (V == 0x80)
    return NAN;
  int S = V >> 7, E = (V >> 2) & 31, M = V & 3;
  float R = E ? std::ldexp(1.0f + M / 4.0f, E - 16) : std::ldexp(M / 4.0f, -15);
  return S ? -R : R;
}

double elem(ET T, uint64_t Bits) {
  switch (T) {
  case EF32:
  case EXF32:
    return asF(uint32_t(Bits));
  case EF16:
    return h2f16(uint16_t(Bits));
  case EBF16:
    return asF(uint32_t(Bits & 0xffff) << 16);
  case EI8:
    return int8_t(Bits);
  case EFP8:
    return fp8e4m3fnuz(uint8_t(Bits));
  case EBF8:
    return bf8e5m2fnuz(uint8_t(Bits));
  case EF64:
    return asD(Bits);
  }
  return 0;
}

// Reads element E (of Bits width) of lane L of a register operand.
uint64_t readElem(Wave &W, const Opnd &O, unsigned L, unsigned E,
                  unsigned Bits) {
  if (Bits == 64)
    return readElem(W, O, L, 2 * E, 32) |
           readElem(W, O, L, 2 * E + 1, 32) << 32;
  unsigned BitOff = E * Bits, Reg = BitOff / 32, Sh = BitOff % 32;
  uint32_t V;
  if (O.Kind == OK::V)
    V = W.vreg(O.Reg + Reg)[L];
  else if (O.Kind == OK::A)
    V = W.areg(O.Reg + Reg)[L];
  else
    V = readS32(W, O);
  return Bits == 32 ? V : (V >> Sh) & ((1u << Bits) - 1);
}

void hMfma(Wave &W, const Inst &I) {
  const MfmaDesc &D = Descs[I.Aux];
  if (I.Cbsz || I.Abid || I.Blgp)
    return W.fail(ErrorKind::Unsupported, I,
                  "MFMA broadcast/negation controls (cbsz/abid/blgp)");
  if (W.exec() != ~0ull)
    return W.fail(ErrorKind::Unsupported, I, "MFMA with a partial EXEC mask");
  if (I.NSrc < 3 || I.NDst < 1)
    return W.fail(ErrorKind::Invalid, I, "unexpected MFMA operands");
  unsigned M = D.M, N = D.N, K = D.K;
  unsigned Kpl = M * K / 64;
  unsigned BA = bitsOf(D.A), BB = bitsOf(D.B);
  unsigned OutRegs = M * N / 64, Groups = 64 / N;
  // Gather A, B and C.
  std::vector<double> A(M * K), B(K * N);
  for (unsigned L = 0; L < 64; ++L)
    for (unsigned E = 0; E < Kpl; ++E) {
      unsigned K0 = (L / M) * Kpl + E;
      if (L % M < M && K0 < K)
        A[(L % M) * K + K0] = elem(D.A, readElem(W, I.Src[0], L, E, BA));
      unsigned K1 = (L / N) * Kpl + E;
      if (K1 < K)
        B[K1 * N + L % N] = elem(D.B, readElem(W, I.Src[1], L, E, BB));
    }
  bool F64 = D.A == EF64;
  std::vector<uint32_t> Out(64 * OutRegs * (F64 ? 2 : 1));
  for (unsigned L = 0; L < 64; ++L) {
    unsigned J = L % N, G = L / N;
    for (unsigned R = 0; R < OutRegs; ++R) {
      unsigned Row = (R / 4) * (4 * Groups) + 4 * G + R % 4;
      if (F64) {
        double S = asD(readElem(W, I.Src[2], L, R, 64));
        for (unsigned Kk = 0; Kk < K; ++Kk)
          S = std::fma(A[Row * K + Kk], B[Kk * N + J], S);
        uint64_t X = asU64(S);
        Out[2 * R * 64 + L] = uint32_t(X);
        Out[(2 * R + 1) * 64 + L] = uint32_t(X >> 32);
        continue;
      }
      uint32_t C = uint32_t(readElem(W, I.Src[2], L, R, 32));
      if (D.IntOut) {
        uint32_t Acc = C;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          Acc += uint32_t(int32_t(A[Row * K + Kk]) * int32_t(B[Kk * N + J]));
        Out[R * 64 + L] = Acc;
      } else {
        double S = 0;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          S += A[Row * K + Kk] * B[Kk * N + J];
        Out[R * 64 + L] = asU(float(S + double(asF(C))));
      }
    }
  }
  const Opnd &Dst = I.Dst[0];
  for (unsigned R = 0; R < OutRegs * (F64 ? 2 : 1); ++R) {
    uint32_t *P = Dst.Kind == OK::A ? W.areg(Dst.Reg + R) : W.vreg(Dst.Reg + R);
    std::memcpy(P, &Out[R * 64], 64 * 4);
  }
}

void hMfmaUnsupported(Wave &W, const Inst &I) {
  W.fail(ErrorKind::Unsupported, I,
         "this MFMA variant (multi-block, f64 or sparse) is not modelled");
}

} // namespace

void registerMfma(OpTable &T) {
  struct N {
    const char *Name;
    unsigned Idx;
  };
  static const N Names[] = {
      {"v_mfma_f32_32x32x8_f16", 0},     {"v_mfma_f32_32x32x8f16", 0},
      {"v_mfma_f32_16x16x16_f16", 1},    {"v_mfma_f32_16x16x16f16", 1},
      {"v_mfma_f32_16x16x16_bf16", 2},   {"v_mfma_f32_16x16x16bf16_1k", 2},
      {"v_mfma_f32_32x32x8_bf16", 3},    {"v_mfma_f32_32x32x8bf16_1k", 3},
      {"v_mfma_f32_32x32x2_f32", 4},     {"v_mfma_f32_32x32x2f32", 4},
      {"v_mfma_f32_16x16x4_f32", 5},     {"v_mfma_f32_16x16x4f32", 5},
      {"v_mfma_i32_16x16x32_i8", 6},     {"v_mfma_i32_32x32x16_i8", 7},
      {"v_mfma_i32_16x16x16i8", 8},      {"v_mfma_i32_32x32x8i8", 9},
      {"v_mfma_f32_16x16x32_fp8_fp8", 10}, {"v_mfma_f32_16x16x32_fp8_bf8", 11},
      {"v_mfma_f32_16x16x32_bf8_fp8", 12}, {"v_mfma_f32_16x16x32_bf8_bf8", 13},
      {"v_mfma_f32_32x32x16_fp8_fp8", 14}, {"v_mfma_f32_32x32x16_fp8_bf8", 15},
      {"v_mfma_f32_32x32x16_bf8_fp8", 16}, {"v_mfma_f32_32x32x16_bf8_bf8", 17},
      {"v_mfma_f32_16x16x8_xf32", 18},   {"v_mfma_f32_32x32x4_xf32", 19},
      {"v_mfma_f64_16x16x4_f64", 20},    {"v_mfma_f64_16x16x4f64", 20},
  };
  for (const N &E : Names)
    T.add(E.Name, hMfma,
          Descs[E.Idx].IntOut ? Fidelity::Exact : Fidelity::Approximate, E.Idx);
  for (const char *U :
       {"v_mfma_f64_4x4x4_4b_f64",
        "v_mfma_f64_4x4x4f64", "v_mfma_f32_32x32x4_2b_f16", "v_mfma_f32_32x32x4f16",
        "v_mfma_f32_16x16x4_4b_f16", "v_mfma_f32_16x16x4f16",
        "v_mfma_f32_4x4x4_16b_f16", "v_mfma_f32_4x4x4f16",
        "v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_32x32x1f32",
        "v_mfma_f32_16x16x1_4b_f32", "v_mfma_f32_16x16x1f32",
        "v_mfma_f32_4x4x1_16b_f32", "v_mfma_f32_4x4x1f32"})
    T.add(U, hMfmaUnsupported, Fidelity::Unsupported);
}

} // namespace emu
} // namespace asmevo
