//===- MfmaTest.cpp - MFMA/SMFMAC layouts against a host matrix product ---===//
//
// Independent reference for the matrix instructions: operands are filled
// with random values, every matrix element is located *forwards* (element ->
// register, lane) with the gfx9 formulas of AMD's Matrix Instruction
// Calculator (CDNA2/CDNA3 operand layout tables), the expected D is a plain
// host matrix product per block, and each D element is read back from its
// documented location. The emulator walks the layout the other way
// (register -> element), so a layout slip in either shows up here. Values
// are small integers so float products and sums are exact and the
// comparison is bit for bit even though float MFMA is declared approximate.
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include "asmevo/Emu/Emulator.h"


#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

enum class T { F32, F16, BF16, I8, FP8, BF8, F64 };

unsigned bitsOf(T X) {
  switch (X) {
  case T::F64:
    return 64;
  case T::F32:
    return 32;
  case T::F16:
  case T::BF16:
    return 16;
  default:
    return 8;
  }
}

// Encodes the small integer V exactly in type X (IEEE binary16/32/64,
// bfloat16 = top half of binary32, FNUZ fp8 e4m3 bias 8 and bf8 e5m2 bias
// 16 as defined for gfx942 in the CDNA3 ISA).
uint64_t encode(T X, int V) {
  auto floatBits = [](float F) {
    uint32_t U;
    std::memcpy(&U, &F, 4);
    return U;
  };
  auto minifloat = [](int V, unsigned MantBits, int Bias, unsigned Width) {
    if (V == 0)
      return uint64_t(0);
    unsigned A = std::abs(V), E = 31 - __builtin_clz(A);
    uint64_t Mant = uint64_t(A - (1u << E)) << (MantBits - E);
    return uint64_t(V < 0) << (Width - 1) | uint64_t(E + Bias) << MantBits |
           Mant;
  };
  switch (X) {
  case T::F32:
    return floatBits(float(V));
  case T::BF16:
    return floatBits(float(V)) >> 16;
  case T::F16:
    return minifloat(V, 10, 15, 16);
  case T::FP8:
    return minifloat(V, 3, 8, 8);
  case T::BF8:
    return minifloat(V, 2, 16, 8);
  case T::I8:
    return uint8_t(int8_t(V));
  case T::F64: {
    double D = V;
    uint64_t U;
    std::memcpy(&U, &D, 8);
    return U;
  }
  }
  return 0;
}

int range(T X) { return X == T::BF8 ? 4 : X == T::I8 ? 100 : 8; }

struct Case {
  const char *CPU, *Op;
  unsigned M, N, K, B;
  T A, Bt;
  bool IntOut, F64Out, Sparse;
  unsigned Cbsz = 0, Abid = 0, Blgp = 0;
};

// Register file positions used by the snippet.
constexpr unsigned RA = 0, RB = 8, RIdx = 16, RC = 32, RD = 72;

struct Regs {
  std::vector<std::array<uint32_t, 64>> V =
      std::vector<std::array<uint32_t, 64>>(128);
  void put(unsigned Base, unsigned Lane, unsigned Slot, unsigned Bits,
           uint64_t X) {
    if (Bits == 64) {
      V[Base + 2 * Slot][Lane] = uint32_t(X);
      V[Base + 2 * Slot + 1][Lane] = uint32_t(X >> 32);
      return;
    }
    unsigned Off = Slot * Bits, R = Base + Off / 32, Sh = Off % 32;
    uint32_t Mask = Bits == 32 ? ~0u : ((1u << Bits) - 1) << Sh;
    V[R][Lane] = (V[R][Lane] & ~Mask) | (uint32_t(X << Sh) & Mask);
  }
  uint64_t get(unsigned Base, unsigned Lane, unsigned Slot, unsigned Bits) {
    if (Bits == 64)
      return V[Base + 2 * Slot][Lane] | uint64_t(V[Base + 2 * Slot + 1][Lane])
                                            << 32;
    unsigned Off = Slot * Bits, R = Base + Off / 32, Sh = Off % 32;
    return Bits == 32 ? V[R][Lane] : (V[R][Lane] >> Sh) & ((1u << Bits) - 1);
  }
};

// Calculator: input matrix lane (gfx9 __get_input_reg_lanes).
unsigned inLane(unsigned M, unsigned Kpl, unsigned B, unsigned I, unsigned K,
                unsigned Blk) {
  return Blk * M + (K / Kpl) * M * B + I;
}
unsigned blgp(unsigned Lane, unsigned P) {
  switch (P) {
  case 1:
    return Lane % 32;
  case 2:
    return Lane < 32 ? Lane + 32 : Lane;
  case 3:
    return (Lane + 16) % 64;
  case 4:
    return Lane % 16;
  case 5:
    return Lane < 16    ? Lane + 16
           : Lane >= 48 ? Lane - 32
           : Lane >= 32 ? Lane - 16
                        : Lane;
  case 6:
    return Lane >= 48  ? Lane - 16
           : Lane < 16 ? Lane + 32
           : Lane < 32 ? Lane + 16
                       : Lane;
  case 7:
    return Lane + (3 - Lane / 16) * 16;
  }
  return Lane;
}
// Calculator: output location (gfx9 __get_output_reg_lanes); returns the
// register (pair for f64) and the lane.
std::pair<unsigned, unsigned> outLoc(unsigned M, unsigned N, unsigned I,
                                     unsigned J, unsigned Blk, bool F64) {
  unsigned Mpr = 64 / N, H = F64 ? 1 : 4;
  unsigned Bpr = (64 + M * N / H - 1) / (M * N / H);
  unsigned Reg = Blk * (M * N / 64) + (I / (H * Mpr)) * H + I % H;
  unsigned Lane = (Blk % Bpr) * N + ((I / H) % Mpr) * Bpr * N + J;
  return {Reg, Lane};
}

void runCase(const Case &C, unsigned Seed) {
  SCOPED_TRACE(std::string(C.CPU) + " " + C.Op + " seed " +
               std::to_string(Seed));
  std::mt19937 Rng(Seed);
  auto rnd = [&](T X) {
    int R = range(X);
    return int(Rng() % (2 * R + 1)) - R;
  };
  unsigned KA = C.Sparse ? C.K / 2 : C.K;
  unsigned KplA = KA * C.M * C.B / 64, KplB = C.K * C.N * C.B / 64;
  unsigned BA = bitsOf(C.A), BBits = bitsOf(C.Bt);
  bool F64 = C.F64Out;
  unsigned OutBits = F64 ? 64 : 32;
  Regs R;
  // Fill A, B with values and keep them by (block, row, k) / (block, k, col).
  std::vector<int> AV(C.B * C.M * KA), BV(C.B * C.K * C.N);
  for (unsigned Blk = 0; Blk < C.B; ++Blk)
    for (unsigned I = 0; I < C.M; ++I)
      for (unsigned K = 0; K < KA; ++K) {
        int X = rnd(C.A);
        AV[(Blk * C.M + I) * KA + K] = X;
        R.put(RA, inLane(C.M, KplA, C.B, I, K, Blk), K % KplA, BA,
              encode(C.A, X));
      }
  for (unsigned Blk = 0; Blk < C.B; ++Blk)
    for (unsigned K = 0; K < C.K; ++K)
      for (unsigned J = 0; J < C.N; ++J) {
        int X = rnd(C.Bt);
        BV[(Blk * C.K + K) * C.N + J] = X;
        R.put(RB, inLane(C.N, KplB, C.B, J, K, Blk), K % KplB, BBits,
              encode(C.Bt, X));
      }
  // Sparse index sets: every 2-bit pair a strictly increasing pair.
  if (C.Sparse)
    for (unsigned L = 0; L < 64; ++L) {
      uint32_t W = 0;
      for (unsigned P = 0; P < 8; ++P) {
        static const unsigned Pairs[6][2] = {{0, 1}, {0, 2}, {0, 3},
                                             {1, 2}, {1, 3}, {2, 3}};
        const unsigned *Q = Pairs[Rng() % 6];
        W |= (Q[0] | Q[1] << 2) << (4 * P);
      }
      R.V[RIdx][L] = W;
    }
  // C (the destination for SMFMAC).
  unsigned CBase = C.Sparse ? RD : RC;
  std::vector<int64_t> CV(C.B * C.M * C.N);
  for (unsigned Blk = 0; Blk < C.B; ++Blk)
    for (unsigned I = 0; I < C.M; ++I)
      for (unsigned J = 0; J < C.N; ++J) {
        int X = int(Rng() % 201) - 100;
        CV[(Blk * C.M + I) * C.N + J] = X;
        auto [Reg, Lane] = outLoc(C.M, C.N, I, J, Blk, F64);
        uint64_t Bits = C.IntOut ? uint32_t(X)
                        : F64    ? encode(T::F64, X)
                                 : encode(T::F32, X);
        R.put(CBase, Lane, Reg, OutBits, Bits);
      }
  // Effective operands as the hardware sees them (calculator transforms).
  auto effA = [&](unsigned Blk, unsigned I, unsigned K) -> int64_t {
    if (!C.Sparse) {
      unsigned P = 1u << C.Cbsz, Src = (Blk / P) * P + C.Abid;
      return AV[(Src * C.M + I) * KA + K];
    }
    unsigned G = K / 4, Pos = K % 4;
    unsigned Set = C.Cbsz ? 0 : C.Abid * 2 * KplA;
    for (unsigned Cc = 2 * G; Cc < 2 * G + 2; ++Cc) {
      unsigned Lane = inLane(C.M, KplA, 1, I, Cc, 0);
      unsigned Idx = (R.V[RIdx][Lane] >> (Set + 2 * (Cc % KplA))) & 3;
      if (Idx == Pos)
        return AV[(Blk * C.M + I) * KA + Cc];
    }
    return 0;
  };
  auto effB = [&](unsigned Blk, unsigned K, unsigned J) -> int64_t {
    unsigned Lane = inLane(C.N, KplB, C.B, J, K, Blk);
    unsigned Src = blgp(Lane, C.Blgp);
    // The value in register slot K % KplB of lane Src: find it in BV.
    for (unsigned B2 = 0; B2 < C.B; ++B2)
      for (unsigned K2 = K % KplB; K2 < C.K; K2 += KplB)
        for (unsigned J2 = 0; J2 < C.N; ++J2)
          if (inLane(C.N, KplB, C.B, J2, K2, B2) == Src)
            return BV[(B2 * C.K + K2) * C.N + J2];
    ADD_FAILURE() << "no B element at lane " << Src;
    return 0;
  };
  // Assemble and run.
  std::string Text = std::string(C.Op) + " ";
  auto range_ = [](unsigned Base, unsigned N) {
    return N == 1 ? "v" + std::to_string(Base)
                  : "v[" + std::to_string(Base) + ":" +
                        std::to_string(Base + N - 1) + "]";
  };
  unsigned NOut = C.M * C.N * C.B / 64 * (F64 ? 2 : 1);
  unsigned NA = std::max(1u, KplA * BA / 32),
           NB = std::max(1u, KplB * BBits / 32);
  Text += range_(RD, NOut) + ", " + range_(RA, NA) + ", " + range_(RB, NB) +
          ", " + (C.Sparse ? range_(RIdx, 1) : range_(RC, NOut));
  if (C.Cbsz)
    Text += " cbsz:" + std::to_string(C.Cbsz);
  if (C.Abid)
    Text += " abid:" + std::to_string(C.Abid);
  if (C.Blgp)
    Text += " blgp:" + std::to_string(C.Blgp);
  std::vector<uint8_t> Code = test::assembleSnippet(C.CPU, {Text});
  ASSERT_FALSE(Code.empty()) << Text;
  SnippetState S;
  S.V = R.V;
  RunOptions O;
  O.Budget = 100;
  SnippetResult Res = runSnippet(C.CPU, Code, S, nullptr, O);
  ASSERT_TRUE(Res.Run.ok()) << Text << ": " << Res.Run.Message;
  Regs Out;
  Out.V = Res.State.V;
  unsigned Bad = 0;
  for (unsigned Blk = 0; Blk < C.B; ++Blk)
    for (unsigned I = 0; I < C.M; ++I)
      for (unsigned J = 0; J < C.N; ++J) {
        int64_t Sum = CV[(Blk * C.M + I) * C.N + J];
        for (unsigned K = 0; K < C.K; ++K)
          Sum += effA(Blk, I, K) * effB(Blk, K, J);
        auto [Reg, Lane] = outLoc(C.M, C.N, I, J, Blk, F64);
        uint64_t Got = Out.get(RD, Lane, Reg, OutBits);
        uint64_t Want = C.IntOut ? uint32_t(int32_t(Sum))
                        : F64    ? encode(T::F64, int(Sum))
                                 : encode(T::F32, int(Sum));
        if (Got != Want && Bad++ < 5)
          ADD_FAILURE() << Text << ": D[" << I << "][" << J << "] block " << Blk
                        << " = " << std::hex << Got << ", want " << Want;
      }
}

// Every MFMA/SMFMAC shape of CDNA2 (gfx90a) and CDNA3 (gfx942), with the
// dimensions of AMD's calculator tables.
const Case Cases[] = {
    // gfx942 single block.
    {"gfx942", "v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, T::F16, T::F16, false,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, T::F16, T::F16, false,
     false, false},
    {"gfx942", "v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, T::BF16, T::BF16, false,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, T::BF16, T::BF16,
     false, false, false},
    {"gfx942", "v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, T::F32, T::F32, false,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, T::F32, T::F32, false,
     false, false},
    {"gfx942", "v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, T::I8, T::I8, true,
     false, false},
    {"gfx942", "v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, T::I8, T::I8, true,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x32_fp8_bf8", 16, 16, 32, 1, T::FP8, T::BF8,
     false, false, false},
    {"gfx942", "v_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16, 1, T::BF8, T::FP8,
     false, false, false},
    {"gfx942", "v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, T::F64, T::F64, false,
     true, false},
    // gfx942 multi-block.
    {"gfx942", "v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, T::F32, T::F32, false,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, T::F32, T::F32, false,
     false, false},
    {"gfx942", "v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, T::F32, T::F32, false,
     false, false},
    {"gfx942", "v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, T::F16, T::F16, false,
     false, false},
    {"gfx942", "v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, T::F16, T::F16, false,
     false, false},
    {"gfx942", "v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, T::F16, T::F16, false,
     false, false},
    {"gfx942", "v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, T::I8, T::I8, true,
     false, false},
    {"gfx942", "v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, T::I8, T::I8, true,
     false, false},
    {"gfx942", "v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, T::I8, T::I8, true,
     false, false},
    {"gfx942", "v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, T::BF16, T::BF16,
     false, false, false},
    {"gfx942", "v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, T::BF16, T::BF16,
     false, false, false},
    {"gfx942", "v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, T::BF16, T::BF16,
     false, false, false},
    {"gfx942", "v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, T::F64, T::F64, false,
     true, false},
    // Broadcast controls.
    {"gfx942", "v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, T::F32, T::F32, false,
     false, false, 1, 1, 0},
    {"gfx942", "v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, T::F16, T::F16, false,
     false, false, 2, 3, 0},
    {"gfx942", "v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, T::F32, T::F32, false,
     false, false, 0, 0, 3},
    {"gfx942", "v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, T::F32, T::F32, false,
     false, false, 0, 0, 6},
    {"gfx942", "v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, T::I8, T::I8, true,
     false, false, 4, 5, 5},
    // gfx942 SMFMAC.
    {"gfx942", "v_smfmac_f32_16x16x32_f16", 16, 16, 32, 1, T::F16, T::F16,
     false, false, true},
    {"gfx942", "v_smfmac_f32_32x32x16_f16", 32, 32, 16, 1, T::F16, T::F16,
     false, false, true},
    {"gfx942", "v_smfmac_f32_16x16x32_bf16", 16, 16, 32, 1, T::BF16, T::BF16,
     false, false, true},
    {"gfx942", "v_smfmac_f32_32x32x16_bf16", 32, 32, 16, 1, T::BF16, T::BF16,
     false, false, true},
    {"gfx942", "v_smfmac_i32_16x16x64_i8", 16, 16, 64, 1, T::I8, T::I8, true,
     false, true},
    {"gfx942", "v_smfmac_i32_32x32x32_i8", 32, 32, 32, 1, T::I8, T::I8, true,
     false, true},
    {"gfx942", "v_smfmac_f32_16x16x64_fp8_bf8", 16, 16, 64, 1, T::FP8, T::BF8,
     false, false, true},
    {"gfx942", "v_smfmac_f32_32x32x32_bf8_fp8", 32, 32, 32, 1, T::BF8, T::FP8,
     false, false, true},
    {"gfx942", "v_smfmac_f32_16x16x32_f16", 16, 16, 32, 1, T::F16, T::F16,
     false, false, true, 0, 3, 0},
    {"gfx942", "v_smfmac_i32_16x16x64_i8", 16, 16, 64, 1, T::I8, T::I8, true,
     false, true, 0, 1, 0},
    {"gfx942", "v_smfmac_f32_32x32x16_bf16", 32, 32, 16, 1, T::BF16, T::BF16,
     false, false, true, 1, 2, 0},
    // gfx90a.
    {"gfx90a", "v_mfma_f32_32x32x8f16", 32, 32, 8, 1, T::F16, T::F16, false,
     false, false, 0, 0, 2},
    {"gfx90a", "v_mfma_i32_16x16x16i8", 16, 16, 16, 1, T::I8, T::I8, true,
     false, false},
    {"gfx90a", "v_mfma_i32_32x32x8i8", 32, 32, 8, 1, T::I8, T::I8, true, false,
     false},
    {"gfx90a", "v_mfma_f32_32x32x1f32", 32, 32, 1, 2, T::F32, T::F32, false,
     false, false},
    {"gfx90a", "v_mfma_f32_16x16x1f32", 16, 16, 1, 4, T::F32, T::F32, false,
     false, false},
    {"gfx90a", "v_mfma_f32_4x4x1f32", 4, 4, 1, 16, T::F32, T::F32, false, false,
     false},
    {"gfx90a", "v_mfma_f32_32x32x4f16", 32, 32, 4, 2, T::F16, T::F16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_16x16x4f16", 16, 16, 4, 4, T::F16, T::F16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_4x4x4f16", 4, 4, 4, 16, T::F16, T::F16, false, false,
     false},
    {"gfx90a", "v_mfma_i32_32x32x4i8", 32, 32, 4, 2, T::I8, T::I8, true, false,
     false},
    {"gfx90a", "v_mfma_i32_16x16x4i8", 16, 16, 4, 4, T::I8, T::I8, true, false,
     false},
    {"gfx90a", "v_mfma_i32_4x4x4i8", 4, 4, 4, 16, T::I8, T::I8, true, false,
     false},
    {"gfx90a", "v_mfma_f32_32x32x4bf16_1k", 32, 32, 4, 2, T::BF16, T::BF16,
     false, false, false},
    {"gfx90a", "v_mfma_f32_16x16x4bf16_1k", 16, 16, 4, 4, T::BF16, T::BF16,
     false, false, false},
    {"gfx90a", "v_mfma_f32_4x4x4bf16_1k", 4, 4, 4, 16, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_32x32x8bf16_1k", 32, 32, 8, 1, T::BF16, T::BF16,
     false, false, false},
    {"gfx90a", "v_mfma_f32_16x16x16bf16_1k", 16, 16, 16, 1, T::BF16, T::BF16,
     false, false, false},
    {"gfx90a", "v_mfma_f32_32x32x2bf16", 32, 32, 2, 2, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_16x16x2bf16", 16, 16, 2, 4, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_4x4x2bf16", 4, 4, 2, 16, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_32x32x4bf16", 32, 32, 4, 1, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f32_16x16x8bf16", 16, 16, 8, 1, T::BF16, T::BF16, false,
     false, false},
    {"gfx90a", "v_mfma_f64_16x16x4f64", 16, 16, 4, 1, T::F64, T::F64, false,
     true, false},
    {"gfx90a", "v_mfma_f64_4x4x4f64", 4, 4, 4, 4, T::F64, T::F64, false, true,
     false},
    {"gfx90a", "v_mfma_f32_4x4x1f32", 4, 4, 1, 16, T::F32, T::F32, false, false,
     false, 3, 5, 7},
};

TEST(EmuMfma, LayoutsMatchHostProduct) {
  for (const Case &C : Cases)
    for (unsigned Seed = 1; Seed <= 2; ++Seed)
      runCase(C, Seed);
}

SnippetResult runOne(const char *CPU, const std::string &Text,
                     const SnippetState &S) {
  std::vector<uint8_t> Code = test::assembleSnippet(CPU, {Text});
  SnippetState S2 = S;
  S2.V.resize(128);
  return runSnippet(CPU, Code, S2);
}

TEST(EmuMfma, Refusals) {
  SnippetState S;
  // An SMFMAC index pair that is not strictly increasing with a nonzero A
  // value: the hardware's result is not specified.
  S.V.resize(128);
  for (unsigned L = 0; L < 64; ++L)
    S.V[16][L] = 0xe4e4e4e4; // pairs (0,1),(2,3): valid
  S.V[16][7] = 0xe4e4e4e5;   // lane 7: pair (1,1)
  S.V[0][7] = 0x3c00;        // lane 7: A values 1.0 and 0 of that pair
  auto R = runOne(
      "gfx942", "v_smfmac_f32_16x16x32_f16 v[72:75], v[0:1], v[8:11], v16", S);
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  EXPECT_NE(R.Run.Message.find("nonzero A value (lane 7,"), std::string::npos)
      << R.Run.Message;
  // gfx942 f64 MFMA: the BLGP field negates operands (not modelled).
  R = runOne("gfx942",
             "v_mfma_f64_16x16x4_f64 v[72:79], v[0:1], v[8:9], v[32:39] "
             "neg:[1,0,0]",
             SnippetState());
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  // Partial EXEC.
  SnippetState P;
  P.Exec = 0xffff;
  R = runOne("gfx942", "v_mfma_f32_4x4x1_16b_f32 v[72:75], v0, v8, v[32:35]",
             P);
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
}

// SMFMAC v_smfmac_f32_16x16x32_f16 with A = B = 1.0, C = 0 and the pairs
// (0,1), (2,3) in every lane's index set 0 (v16): every D element is 16.
// Lane L of A (v[0:1]) holds row L % 16, compressed k 4 * (L / 16) to +3
// (two groups: v0 the first, v1 the second); lane L of B (v[8:11]) column
// L % 16, dense k 8 * (L / 16) to +7; D[i][j] is v[72 + i % 4], lane
// 16 * (i / 4) + j.
const char *SmfmacF16 =
    "v_smfmac_f32_16x16x32_f16 v[72:75], v[0:1], v[8:11], v16";
SnippetState smfmacOnes() {
  SnippetState S;
  S.V.resize(128);
  for (unsigned L = 0; L < 64; ++L) {
    S.V[0][L] = S.V[1][L] = 0x3c003c00;
    for (unsigned R = 8; R < 12; ++R)
      S.V[R][L] = 0x3c003c00;
    S.V[16][L] = 0xe4;
  }
  return S;
}
float smfmacD(const SnippetResult &R, unsigned I, unsigned J) {
  float F;
  uint32_t U = R.State.V[72 + I % 4][16 * (I / 4) + J];
  std::memcpy(&F, &U, 4);
  return F;
}

// A pair that is not strictly increasing whose two A values, and those
// after it in the lane's run, are zero, the B values they could meet
// finite: every interpretation adds nothing (row 7 loses the 2 of its 16
// products lane 7's second group held).
TEST(EmuMfma, SmfmacZeroPairAccepted) {
  // (1,1), (2,1) decreasing, (3,3); +0 and -0.
  for (uint32_t Nibble : {0x5u, 0x6u, 0xfu})
    for (uint32_t Zeros : {0u, 0x80000000u}) {
      SnippetState S = smfmacOnes();
      S.V[16][7] = Nibble << 4 | 0x4;
      S.V[1][7] = Zeros;
      auto R = runOne("gfx942", SmfmacF16, S);
      ASSERT_TRUE(R.Run.ok()) << Nibble << ": " << R.Run.Message;
      for (unsigned I = 0; I < 16; ++I)
        for (unsigned J = 0; J < 16; ++J)
          EXPECT_EQ(smfmacD(R, I, J), I == 7 ? 14.0f : 16.0f)
              << "D[" << I << "][" << J << "] nibble " << Nibble;
    }
  // i8 (exact): v_smfmac_i32_16x16x64_i8, A = B = 1, 32 products a row;
  // lane 7's last group (bytes 2, 3 of v1) the pair (0,0) with zeros.
  SnippetState S;
  S.V.resize(128);
  for (unsigned L = 0; L < 64; ++L) {
    S.V[0][L] = S.V[1][L] = 0x01010101;
    for (unsigned R = 8; R < 12; ++R)
      S.V[R][L] = 0x01010101;
    S.V[16][L] = 0xe4e4;
  }
  S.V[16][7] = 0x04e4;
  S.V[1][7] = 0x00000101;
  auto R = runOne("gfx942",
                  "v_smfmac_i32_16x16x64_i8 v[72:75], v[0:1], v[8:11], v16", S);
  ASSERT_TRUE(R.Run.ok()) << R.Run.Message;
  for (unsigned I = 0; I < 16; ++I)
    for (unsigned J = 0; J < 16; ++J)
      EXPECT_EQ(R.State.V[72 + I % 4][16 * (I / 4) + J], I == 7 ? 30u : 32u)
          << "D[" << I << "][" << J << "]";
}

TEST(EmuMfma, SmfmacPairRefusals) {
  // Nonzero A values: (1,1) and the decreasing (2,1), one value nonzero.
  for (uint32_t Nibble : {0x5u, 0x6u})
    for (uint32_t A : {0x3c00u, 0x3c000000u}) {
      SnippetState S = smfmacOnes();
      S.V[16][7] = 0xe0 | Nibble;
      S.V[0][7] = A;
      auto R = runOne("gfx942", SmfmacF16, S);
      EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
      std::string Want =
          "SMFMAC index pair not strictly increasing with a nonzero A value "
          "(lane 7, pair (" +
          std::string(Nibble == 5 ? "1,1" : "2,1") +
          ") at element 0, nonzero element " + (A >> 16 ? "1" : "0") + ")";
      EXPECT_NE(R.Run.Message.find(Want), std::string::npos) << R.Run.Message;
    }
  // A NaN A value is not a zero.
  SnippetState S = smfmacOnes();
  S.V[16][7] = 0xe5;
  S.V[0][7] = 0x7e00;
  auto R = runOne("gfx942", SmfmacF16, S);
  EXPECT_NE(R.Run.Message.find("nonzero A value (lane 7,"), std::string::npos)
      << R.Run.Message;
  // The pair's values are zero, but a later value of the lane's run (the
  // second group, v1) is not.
  S = smfmacOnes();
  S.V[16][7] = 0xe5;
  S.V[0][7] = 0;
  R = runOne("gfx942", SmfmacF16, S);
  EXPECT_NE(R.Run.Message.find("nonzero A value (lane 7,"), std::string::npos)
      << R.Run.Message;
  // Zero A values, but a B value of their group (dense k 2, column 3: lane
  // 3, element 2) or of the later one (dense k 5: element 5) is Inf: 0 x
  // Inf is NaN under some interpretations.
  for (unsigned Reg : {9u, 10u}) {
    S = smfmacOnes();
    S.V[16][7] = 0xe5;
    S.V[0][7] = S.V[1][7] = 0;
    S.V[Reg][3] = Reg == 9 ? 0x3c007c00 : 0x7c003c00;
    R = runOne("gfx942", SmfmacF16, S);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    EXPECT_NE(R.Run.Message.find("SMFMAC index pair not strictly increasing "
                                 "(lane 7; zero A values meeting an Inf/NaN "
                                 "B value)"),
              std::string::npos)
        << R.Run.Message;
  }
}

// With a verifier's seed (Memory::Observer::unspecifiedSeed) a row whose
// result is not specified gets, instead of a refusal, values that are a
// function of the seed and of the operands feeding each element: the same
// when run again, others under another seed, and a B value changes only
// its column. The other rows are computed as before.
struct UnspecifiedSeed : Memory::Observer {
  uint64_t Seed;
  explicit UnspecifiedSeed(uint64_t Seed) : Seed(Seed) {}
  Region *access(Memory &M, uint64_t A, uint64_t L, bool) override {
    return M.find(A, L);
  }
  uint32_t approx(uint64_t, unsigned, unsigned, uint64_t) override { return 0; }
  uint64_t unspecifiedSeed() override { return Seed; }
};
SnippetResult runSeeded(const SnippetState &S, uint64_t Seed) {
  Memory M;
  UnspecifiedSeed Obs(Seed);
  M.Obs = &Obs;
  std::vector<uint8_t> Code = test::assembleSnippet("gfx942", {SmfmacF16});
  SnippetState S2 = S;
  S2.V.resize(128);
  return runSnippet("gfx942", Code, S2, &M);
}
std::vector<uint32_t> smfmacRow(const SnippetResult &R, unsigned I) {
  std::vector<uint32_t> Row;
  for (unsigned J = 0; J < 16; ++J)
    Row.push_back(R.State.V[72 + I % 4][16 * (I / 4) + J]);
  return Row;
}

TEST(EmuMfma, SmfmacUnspecifiedRows) {
  SnippetState S = smfmacOnes();
  S.V[16][7] = 0xe5;  // lane 7 (row 7): the pair (1,1)
  S.V[0][7] = 0x3c00; // with a nonzero A value
  auto R1 = runSeeded(S, 1);
  ASSERT_TRUE(R1.Run.ok()) << R1.Run.Message;
  EXPECT_EQ(R1.Run.UnspecifiedResults, 1u);
  for (unsigned I = 0; I < 16; ++I)
    if (I != 7)
      for (unsigned J = 0; J < 16; ++J)
        EXPECT_EQ(smfmacD(R1, I, J), 16.0f) << "D[" << I << "][" << J << "]";
  std::vector<uint32_t> Row7 = smfmacRow(R1, 7);
  EXPECT_NE(Row7, smfmacRow(R1, 6)); // not the exact products
  EXPECT_EQ(smfmacRow(runSeeded(S, 1), 7), Row7);
  std::vector<uint32_t> Other = smfmacRow(runSeeded(S, 2), 7);
  for (unsigned J = 0; J < 16; ++J)
    EXPECT_NE(Other[J], Row7[J]) << J;
  // B of column 3 (lane 3) changes row 7's column 3 only.
  SnippetState B = S;
  B.V[9][3] = 0x40004000;
  std::vector<uint32_t> RowB = smfmacRow(runSeeded(B, 1), 7);
  for (unsigned J = 0; J < 16; ++J)
    EXPECT_EQ(RowB[J] != Row7[J], J == 3) << J;
  // Zero A values at the pair that meet an Inf B value: unspecified too.
  SnippetState Z = smfmacOnes();
  Z.V[16][7] = 0xe5;
  Z.V[0][7] = Z.V[1][7] = 0;
  Z.V[9][3] = 0x3c007c00;
  auto RZ = runSeeded(Z, 1);
  ASSERT_TRUE(RZ.Run.ok()) << RZ.Run.Message;
  EXPECT_EQ(RZ.Run.UnspecifiedResults, 1u);
  EXPECT_NE(smfmacRow(RZ, 7), smfmacRow(runSeeded(Z, 2), 7));
  // Without a seed both are refused (SmfmacPairRefusals).
  EXPECT_EQ(runSeeded(S, 0).Run.Kind, ErrorKind::Unsupported);
}

// Only the selected positions are multiplied. A B value that only
// compressed-out positions meet (dense k 2 of every row: the pair (0,1))
// being Inf made the zero-filled dense product NaN before; now it adds
// nothing. At a selected position (dense k 0) the Inf reaches D.
TEST(EmuMfma, SmfmacCompressedOutPositions) {
  SnippetState S = smfmacOnes();
  S.V[9][3] = 0x3c007c00; // B[2][3] = Inf
  auto R = runOne("gfx942", SmfmacF16, S);
  ASSERT_TRUE(R.Run.ok()) << R.Run.Message;
  for (unsigned I = 0; I < 16; ++I)
    for (unsigned J = 0; J < 16; ++J)
      EXPECT_EQ(smfmacD(R, I, J), 16.0f) << "D[" << I << "][" << J << "]";
  S = smfmacOnes();
  S.V[8][3] = 0x3c007c00; // B[0][3] = Inf
  R = runOne("gfx942", SmfmacF16, S);
  ASSERT_TRUE(R.Run.ok()) << R.Run.Message;
  for (unsigned I = 0; I < 16; ++I) {
    EXPECT_EQ(smfmacD(R, I, 3), INFINITY) << I;
    EXPECT_EQ(smfmacD(R, I, 2), 16.0f) << I;
  }
}

// Float MFMA and SMFMAC are approximate: the oracle compares the questions
// (operation and operand bits) K0 and K1 ask of them. A matrix
// instruction's result in one lane depends on every lane's operands, the
// broadcast controls, and for SMFMAC the accumulator held in the
// destination, so every lane's question covers all of them.
struct QuestionLog : Memory::Observer {
  std::vector<uint64_t> Keys = std::vector<uint64_t>(64);
  unsigned Asked = 0;
  Region *access(Memory &M, uint64_t A, uint64_t L, bool) override {
    return M.find(A, L);
  }
  uint32_t approx(uint64_t, unsigned, unsigned Lane, uint64_t K) override {
    ++Asked;
    Keys[Lane] = K;
    return 0;
  }
};
std::vector<uint64_t> questions(const std::string &Text,
                                const SnippetState &S) {
  Memory M;
  QuestionLog Obs;
  M.Obs = &Obs;
  std::vector<uint8_t> Code = test::assembleSnippet("gfx942", {Text});
  SnippetState S2 = S;
  S2.V.resize(128);
  auto R = runSnippet("gfx942", Code, S2, &M);
  EXPECT_TRUE(R.Run.ok()) << Text << ": " << R.Run.Message;
  EXPECT_EQ(Obs.Asked, 64u) << Text;
  return Obs.Keys;
}

TEST(EmuMfma, ApproximateQuestionsCoverTheWave) {
  SnippetState S = smfmacOnes();
  std::vector<uint64_t> Base = questions(SmfmacF16, S);
  // Another lane's B value changes lane 0's question.
  SnippetState B = S;
  B.V[9][5] = 0x40004000;
  EXPECT_NE(questions(SmfmacF16, B)[0], Base[0]);
  // Another lane's index set.
  SnippetState Idx = S;
  Idx.V[16][40] = 0xe8;
  EXPECT_NE(questions(SmfmacF16, Idx)[0], Base[0]);
  // The accumulator, read from the destination.
  SnippetState C = S;
  C.V[73][9] = 0x3f800000;
  EXPECT_NE(questions(SmfmacF16, C)[0], Base[0]);
  // A register the instruction does not read changes nothing.
  SnippetState U = S;
  U.V[100][3] = 1;
  EXPECT_EQ(questions(SmfmacF16, U), Base);
  // MFMA broadcast controls.
  const char *Mfma = "v_mfma_f32_4x4x1_16b_f32 v[72:75], v0, v8, v[32:35]";
  std::vector<uint64_t> Plain = questions(Mfma, S);
  EXPECT_NE(questions(std::string(Mfma) + " cbsz:1 abid:1", S)[0], Plain[0]);
  EXPECT_NE(questions(std::string(Mfma) + " blgp:2", S)[0], Plain[0]);
}

} // namespace
