//===- Mfma.cpp - Matrix fused multiply-add (MFMA, SMFMAC) ---------------===//
//
// MFMA and SMFMAC with the CDNA2/CDNA3 register layouts as AMD's Matrix
// Instruction Calculator defines them (gfx9 rules; B blocks, per-lane
// element count kpl = K * M * B / 64):
//   A (M x K, block b): lane = i + M * b + M * B * (k / kpl), element k % kpl;
//   B (K x N, block b): lane = j + N * b + N * B * (k / kpl), same packing,
//                       then the BLGP lane pattern;
//   CBSZ/ABID: block b reads the A block (b / 2^cbsz) * 2^cbsz + abid;
//   C/D (block b): h = 4 rows per register group (1 for f64), mpr = 64 / N,
//              bpr = ceil(64 * h / (M * N)) blocks side by side in one
//              register; register b * (M * N / 64) + (i / (h * mpr)) * h +
//              i % h, lane (b % bpr) * N + ((i / h) % mpr) * bpr * N + j.
// The handler walks the layout backwards (register/lane -> element); the
// unit test (unittests/Emu/MfmaTest.cpp) places elements forwards from the
// same tables and checks against a plain host matrix product.
//
// SMFMAC (gfx942): A is 4:2 structured-sparse. Its compressed M x K/2 matrix
// has the dense layout of an M x (K/2) A operand; each compressed element c
// of a row carries a 2-bit position in its dense group of four k (dense
// k = 4 * (c / 2) + idx) in the index VGPR at bit 2 * (c % kpl) of the set
// chosen by ABID (sets of 2 * kpl bits; set 0 when CBSZ != 0), in the same
// lane as the A element (hipSPARSELt's compressor writes them so). The
// accumulator is the destination. Only the two selected positions of a group
// are multiplied (a compressed-out position meeting an Inf/NaN B value adds
// nothing, not NaN): the compressed-out values are "not stored" (AMD's
// calculator) and the instruction does K/2 multiplies an output in the
// cycles of a dense MFMA of half the K. Inferred, not stated by a source;
// refusing where it matters made the oracle's D16-kept reruns of
// hipSPARSELt's f16/bf16 kernels fail (garbage B halves).
// Index pairs that are not strictly increasing: no source in reach (AMD's
// calculator, a CDNA4 opcode table, MLIR amdgpu.sparse_mfma, hipSPARSELt,
// whose compress_kernel never writes one) says what the hardware computes.
// The pair is accepted only when its two A values, and the later ones of
// the lane's run, are zero and every B value they could meet is finite:
// each multiplier input they can feed is then one of those zeros, a
// combination of them (sum, select, bitwise OR/AND: still a zero) or a
// compressed-out zero, so every interpretation (summed, first or second
// wins, positions taken in either order, dense or selected-only products,
// a decoder that consumes one value too few and shifts the later ones)
// adds only zeros. Otherwise it is refused, unless a verifier gives a seed
// (Memory::Observer::unspecifiedSeed): then the row's elements are hashes
// of the seed and the operands feeding each, a fixed function of the
// operands as hardware's would be, and the verifier tries two seeds.
//
// Integer MFMA is exact (wrapping i32 accumulation). Float MFMA is declared
// approximate: the order and precision of the hardware's internal
// accumulation are not specified bit for bit; the emulator sums the
// products in double and rounds once when adding C. f64 MFMA: sequential
// fma over k (approximate). Refused: gfx942 f64 negation (BLGP field of
// DGEMM), BLGP/CBSZ/ABID on instructions that do not define them, and a
// partial EXEC mask.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cmath>

namespace asmevo {
namespace emu {

namespace {

enum ET : uint8_t { EF32, EF16, EBF16, EI8, EFP8, EBF8, EXF32, EF64 };

struct MfmaDesc {
  uint8_t M, N, K, Blocks;
  ET A, B;
  bool IntOut;
  bool Sparse;
  bool Bcast; // CBSZ/ABID broadcast defined (multi-block)
  bool Blgp;  // BLGP lane patterns defined
};

// Blgp per AMD's calculator: gfx90a defines it on every non-f64 MFMA;
// gfx942 only on f32 and multi-block ones (the table names the gfx942
// variant; registerMfma adjusts for gfx90a names).
static const MfmaDesc Descs[] = {
    {32, 32, 8, 1, EF16, EF16, false, false, false, false},    // 0
    {16, 16, 16, 1, EF16, EF16, false, false, false, false},   // 1
    {16, 16, 16, 1, EBF16, EBF16, false, false, false, false}, // 2
    {32, 32, 8, 1, EBF16, EBF16, false, false, false, false},  // 3
    {32, 32, 2, 1, EF32, EF32, false, false, false, true},     // 4
    {16, 16, 4, 1, EF32, EF32, false, false, false, true},     // 5
    {16, 16, 32, 1, EI8, EI8, true, false, false, false},      // 6 (gfx942)
    {32, 32, 16, 1, EI8, EI8, true, false, false, false},      // 7 (gfx942)
    {16, 16, 16, 1, EI8, EI8, true, false, false, true},       // 8 (gfx90a)
    {32, 32, 8, 1, EI8, EI8, true, false, false, true},        // 9 (gfx90a)
    {16, 16, 32, 1, EFP8, EFP8, false, false, false, false},   // 10
    {16, 16, 32, 1, EFP8, EBF8, false, false, false, false},   // 11
    {16, 16, 32, 1, EBF8, EFP8, false, false, false, false},   // 12
    {16, 16, 32, 1, EBF8, EBF8, false, false, false, false},   // 13
    {32, 32, 16, 1, EFP8, EFP8, false, false, false, false},   // 14
    {32, 32, 16, 1, EFP8, EBF8, false, false, false, false},   // 15
    {32, 32, 16, 1, EBF8, EFP8, false, false, false, false},   // 16
    {32, 32, 16, 1, EBF8, EBF8, false, false, false, false},   // 17
    {16, 16, 8, 1, EXF32, EXF32, false, false, false, false},  // 18
    {32, 32, 4, 1, EXF32, EXF32, false, false, false, false},  // 19
    {16, 16, 4, 1, EF64, EF64, false, false, false, false},    // 20
    // Multi-block.
    {32, 32, 1, 2, EF32, EF32, false, false, true, true},   // 21
    {16, 16, 1, 4, EF32, EF32, false, false, true, true},   // 22
    {4, 4, 1, 16, EF32, EF32, false, false, true, true},    // 23
    {32, 32, 4, 2, EF16, EF16, false, false, true, true},   // 24
    {16, 16, 4, 4, EF16, EF16, false, false, true, true},   // 25
    {4, 4, 4, 16, EF16, EF16, false, false, true, true},    // 26
    {32, 32, 4, 2, EI8, EI8, true, false, true, true},      // 27
    {16, 16, 4, 4, EI8, EI8, true, false, true, true},      // 28
    {4, 4, 4, 16, EI8, EI8, true, false, true, true},       // 29
    {32, 32, 4, 2, EBF16, EBF16, false, false, true, true}, // 30
    {16, 16, 4, 4, EBF16, EBF16, false, false, true, true}, // 31
    {4, 4, 4, 16, EBF16, EBF16, false, false, true, true},  // 32
    {4, 4, 4, 4, EF64, EF64, false, false, false, false},   // 33
    // gfx90a bf16 (pre-_1k: two bf16 per VGPR, half the K).
    {32, 32, 2, 2, EBF16, EBF16, false, false, true, true},  // 34
    {16, 16, 2, 4, EBF16, EBF16, false, false, true, true},  // 35
    {4, 4, 2, 16, EBF16, EBF16, false, false, true, true},   // 36
    {32, 32, 4, 1, EBF16, EBF16, false, false, false, true}, // 37
    {16, 16, 8, 1, EBF16, EBF16, false, false, false, true}, // 38
    // SMFMAC (gfx942); K is the dense K.
    {16, 16, 32, 1, EF16, EF16, false, true, true, false},   // 39
    {32, 32, 16, 1, EF16, EF16, false, true, true, false},   // 40
    {16, 16, 32, 1, EBF16, EBF16, false, true, true, false}, // 41
    {32, 32, 16, 1, EBF16, EBF16, false, true, true, false}, // 42
    {16, 16, 64, 1, EI8, EI8, true, true, true, false},      // 43
    {32, 32, 32, 1, EI8, EI8, true, true, true, false},      // 44
    {16, 16, 64, 1, EBF8, EBF8, false, true, true, false},   // 45
    {16, 16, 64, 1, EBF8, EFP8, false, true, true, false},   // 46
    {16, 16, 64, 1, EFP8, EBF8, false, true, true, false},   // 47
    {16, 16, 64, 1, EFP8, EFP8, false, true, true, false},   // 48
    {32, 32, 32, 1, EBF8, EBF8, false, true, true, false},   // 49
    {32, 32, 32, 1, EBF8, EFP8, false, true, true, false},   // 50
    {32, 32, 32, 1, EFP8, EBF8, false, true, true, false},   // 51
    {32, 32, 32, 1, EFP8, EFP8, false, true, true, false},   // 52
};
// Aux bit: the gfx90a spelling, whose 16x16x16/32x32x8 f16 forms define BLGP.
constexpr uint32_t AuxGfx90aBlgp = 0x100;

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
    return fp8e4m3fnuzToF32(uint8_t(Bits));
  case EBF8:
    return bf8e5m2fnuzToF32(uint8_t(Bits));
  case EF64:
    return asD(Bits);
  }
  return 0;
}

// Reads element E (of Bits width) of lane L of a register operand.
uint64_t readElem(Wave &W, const Opnd &O, unsigned L, unsigned E,
                  unsigned Bits) {
  if (Bits == 64 && O.Kind == OK::Imm)
    return O.Imm;
  if (Bits == 64)
    return readElem(W, O, L, 2 * E, 32) | readElem(W, O, L, 2 * E + 1, 32)
                                              << 32;
  unsigned BitOff = E * Bits, Reg = BitOff / 32, Sh = BitOff % 32;
  const uint32_t *P = W.lanes(O, Reg);
  uint32_t V = P ? P[L] : readS32(W, O);
  return Bits == 32 ? V : (V >> Sh) & ((1u << Bits) - 1);
}

// BLGP: the lane of B's registers that feeds lane L (AMD's calculator).
unsigned blgpLane(unsigned L, unsigned Blgp) {
  switch (Blgp) {
  case 1: // broadcast lanes 0-31
    return L % 32;
  case 2: // broadcast lanes 32-63
    return L % 32 + 32;
  case 3: // rotate down by 16
    return (L + 16) % 64;
  case 4: // broadcast lanes 0-15 ... 7: lanes 48-63
  case 5:
  case 6:
  case 7:
    return L % 16 + 16 * (Blgp - 4);
  default:
    return L;
  }
}

void hMfma(Wave &W, const Inst &I) {
  const MfmaDesc &D = Descs[I.Aux & 0xff];
  bool HasBlgp = D.Blgp || (I.Aux & AuxGfx90aBlgp);
  if (I.Blgp && !HasBlgp)
    return W.fail(ErrorKind::Unsupported, I,
                  D.A == EF64 ? "f64 MFMA negation (blgp field) is not modelled"
                              : "BLGP on an MFMA that does not define it");
  if ((I.Cbsz || I.Abid) && !D.Bcast)
    return W.fail(ErrorKind::Unsupported, I,
                  "CBSZ/ABID on an MFMA that does not define them");
  if (W.exec() != ~0ull)
    return W.fail(ErrorKind::Unsupported, I, "MFMA with a partial EXEC mask");
  if (I.NSrc < 3 || I.NDst < 1)
    return W.fail(ErrorKind::Invalid, I, "unexpected MFMA operands");
  const unsigned M = D.M, N = D.N, K = D.K, NB = D.Blocks;
  const bool F64 = D.A == EF64;
  // Dense K of A as stored: half for the sparse A of SMFMAC.
  const unsigned KA = D.Sparse ? K / 2 : K;
  const unsigned KplA = KA * M * NB / 64, KplB = K * N * NB / 64;
  const unsigned BA = bitsOf(D.A), BB = bitsOf(D.B);
  // Operands: SMFMAC reads C from the destination and the index VGPR from
  // the source that is neither A, B nor the tied accumulator.
  const Opnd *COp = &I.Src[2], *IdxOp = nullptr;
  if (D.Sparse) {
    COp = &I.Dst[0];
    for (unsigned S = 2; S < I.NSrc; ++S)
      if (I.Src[S].Count == 1 && I.Src[S].isVReg())
        IdxOp = &I.Src[S];
    if (!IdxOp)
      return W.fail(ErrorKind::Invalid, I, "SMFMAC without an index VGPR");
  }
  unsigned ABlock[16];
  for (unsigned B = 0; B < NB; ++B) {
    unsigned P = 1u << I.Cbsz;
    ABlock[B] = D.Sparse ? B : (B / P) * P + I.Abid;
    if (!D.Sparse && (P > NB || I.Abid >= P))
      return W.fail(ErrorKind::Unsupported, I,
                    "CBSZ/ABID select a block the MFMA does not have");
  }
  unsigned IdxShift = 0;
  if (D.Sparse && I.Cbsz == 0) {
    IdxShift = I.Abid * 2 * KplA;
    if (IdxShift + 2 * KplA > 32)
      return W.fail(ErrorKind::Unsupported, I,
                    "SMFMAC ABID selects an index set beyond the VGPR");
  }
  // Gather A and B as dense [block][row][k] / [block][k][col] arrays,
  // walking lanes and elements (register -> element direction).
  std::vector<double> A(size_t(NB) * M * K, 0.0), B(size_t(NB) * K * N);
  // SMFMAC: the dense positions a row's selected values occupy (the
  // products summed), and per lane with a non-increasing pair the dense k
  // range from that pair to the end of the lane's run, whose A values are
  // all zero (nothing summed; their B values checked below).
  std::vector<uint8_t> Sel(D.Sparse ? A.size() : 0);
  struct ZeroRun {
    unsigned Lane, KBegin, KEnd;
  };
  std::vector<ZeroRun> ZeroRuns;
  // With a verifier's seed (Memory::Observer::unspecifiedSeed), a row whose
  // result is not specified gets hashed values instead of a refusal.
  Memory::Observer *Obs = W.C->Sh->Mem->Obs;
  const uint64_t UnspecSeed = Obs ? Obs->unspecifiedSeed() : 0;
  std::vector<uint8_t> UnspecRow(D.Sparse ? size_t(NB) * M : 0);
  bool AnyUnspec = false;
  for (unsigned L = 0; L < 64; ++L) {
    unsigned Row = L % M, Blk = (L / M) % NB, KBase = (L / (M * NB)) * KplA;
    for (unsigned E = 0; E < KplA && KBase + E < KA; ++E) {
      unsigned Kc = KBase + E;
      double X = elem(D.A, readElem(W, I.Src[0], L, E, BA));
      if (!D.Sparse) {
        A[(size_t(Blk) * M + Row) * K + Kc] = X;
        continue;
      }
      if (Kc % 2 == 0)
        continue; // the group is placed with its second value
      uint32_t IdxV = W.lanes(*IdxOp)[L];
      unsigned Pos0 = (IdxV >> (IdxShift + 2 * (E - 1))) & 3;
      unsigned Pos1 = (IdxV >> (IdxShift + 2 * E)) & 3;
      double X0 = elem(D.A, readElem(W, I.Src[0], L, E - 1, BA));
      size_t Base = (size_t(Blk) * M + Row) * K + 4 * (Kc / 2);
      if (Pos0 < Pos1) {
        A[Base + Pos0] = X0;
        A[Base + Pos1] = X;
        Sel[Base + Pos0] = Sel[Base + Pos1] = 1;
        continue;
      }
      // Every A value from this pair to the end of the lane's run must be
      // zero (NaN is not): a decoder that consumed one value too few here
      // would shift the later ones.
      unsigned End = std::min(KBase + KplA, KA);
      bool Unspec = false;
      for (unsigned E2 = E - 1; KBase + E2 < End && !Unspec; ++E2) {
        if (elem(D.A, readElem(W, I.Src[0], L, E2, BA)) == 0)
          continue;
        if (UnspecSeed) {
          UnspecRow[size_t(Blk) * M + Row] = 1;
          Unspec = AnyUnspec = true;
          continue;
        }
        return W.fail(ErrorKind::Unsupported, I,
                      "SMFMAC index pair not strictly increasing with a "
                      "nonzero A value (lane " +
                          std::to_string(L) + ", pair (" +
                          std::to_string(Pos0) + "," + std::to_string(Pos1) +
                          ") at element " + std::to_string(E - 1) +
                          ", nonzero element " + std::to_string(E2) +
                          "): the hardware's result is not specified");
      }
      if (!Unspec)
        ZeroRuns.push_back({L, 4 * (Kc / 2), 2 * End});
      break;
    }
  }
  bool NonFiniteB = false;
  for (unsigned L = 0; L < 64; ++L) {
    unsigned Src = blgpLane(L, I.Blgp);
    unsigned Col = L % N, Blk = (L / N) % NB, KBase = (L / (N * NB)) * KplB;
    for (unsigned E = 0; E < KplB && KBase + E < K; ++E) {
      double X = elem(D.B, readElem(W, I.Src[1], Src, E, BB));
      NonFiniteB |= !std::isfinite(X);
      B[(size_t(Blk) * K + KBase + E) * N + Col] = X;
    }
  }
  // Those zeros are harmless only if no B value they could meet is Inf/NaN
  // (0 x Inf is NaN under some interpretations, nothing under others).
  // SMFMAC has one block.
  if (NonFiniteB)
    for (const ZeroRun &Z : ZeroRuns)
      for (unsigned Kk = Z.KBegin; Kk < Z.KEnd; ++Kk)
        for (unsigned J = 0; J < N; ++J)
          if (!std::isfinite(B[size_t(Kk) * N + J])) {
            if (UnspecSeed) {
              UnspecRow[size_t((Z.Lane / M) % NB) * M + Z.Lane % M] = 1;
              AnyUnspec = true;
              continue;
            }
            return W.fail(
                ErrorKind::Unsupported, I,
                "SMFMAC index pair not strictly increasing (lane " +
                    std::to_string(Z.Lane) +
                    "; zero A values meeting an Inf/NaN B value): the "
                    "hardware's result is not specified");
          }
  // An unspecified element is a function of the instruction and of the
  // operands that feed it (its row's A values and indices, its column's B
  // values, its accumulator), so K0 and K1 that ask the same question get
  // the same answer under one seed.
  std::vector<uint64_t> RowKey, ColKey;
  uint64_t InstKey = UnspecSeed;
  if (AnyUnspec) {
    ++W.C->UnspecifiedResults;
    if (I.D)
      for (char Ch : baseMnemonic(I.D->Mnemonic))
        InstKey = mixHash(InstKey, uint8_t(Ch));
    InstKey = mixHash(InstKey, I.Cbsz | I.Abid << 8 | I.Blgp << 16);
    RowKey.assign(size_t(NB) * M, 0);
    ColKey.assign(size_t(NB) * N, 0);
    for (unsigned L = 0; L < 64; ++L) {
      size_t RK = size_t((L / M) % NB) * M + L % M;
      RowKey[RK] = mixHash(RowKey[RK], W.lanes(*IdxOp)[L]);
      for (unsigned E = 0; E < KplA; ++E)
        RowKey[RK] = mixHash(RowKey[RK], readElem(W, I.Src[0], L, E, BA));
      size_t CK = size_t((L / N) % NB) * N + L % N;
      for (unsigned E = 0; E < KplB; ++E)
        ColKey[CK] = mixHash(ColKey[CK],
                             readElem(W, I.Src[1], blgpLane(L, I.Blgp), E, BB));
    }
  }
  // Output layout parameters.
  const unsigned H = F64 ? 1 : 4, Mpr = 64 / N;
  const unsigned Bpr = std::max(1u, 64 * H / (M * N));
  const unsigned RB = M * N / 64; // registers (pairs for f64) per block
  const unsigned OutRegs = M * N * NB / 64;
  std::vector<uint32_t> Out(64 * OutRegs * (F64 ? 2 : 1));
  for (unsigned R = 0; R < OutRegs; ++R)
    for (unsigned L = 0; L < 64; ++L) {
      unsigned J = L % N, T = L / N;
      unsigned Blk = Bpr > 1 ? T % Bpr : R / RB;
      unsigned Q = T / Bpr, RR = Bpr > 1 ? R : R % RB;
      unsigned Row = (RR / H) * (H * Mpr) + Q * H + RR % H;
      const double *ARow = &A[(size_t(ABlock[Blk]) * M + Row) * K];
      const double *BCol = &B[size_t(Blk) * K * N + J];
      if (F64) {
        double S = asD(readElem(W, *COp, L, R, 64));
        for (unsigned Kk = 0; Kk < K; ++Kk)
          S = std::fma(ARow[Kk], BCol[Kk * N], S);
        uint64_t X = asU64(S);
        Out[2 * R * 64 + L] = uint32_t(X);
        Out[(2 * R + 1) * 64 + L] = uint32_t(X >> 32);
        continue;
      }
      uint32_t C = uint32_t(readElem(W, *COp, L, R, 32));
      if (AnyUnspec && UnspecRow[size_t(ABlock[Blk]) * M + Row]) {
        uint64_t X = mixHash(InstKey, RowKey[size_t(ABlock[Blk]) * M + Row]);
        X = mixHash(mixHash(X, ColKey[size_t(Blk) * N + J]), C);
        Out[R * 64 + L] = uint32_t(mixHash(X, Row << 16 | J));
        continue;
      }
      if (D.IntOut) {
        uint32_t Acc = C;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          Acc += uint32_t(int32_t(ARow[Kk]) * int32_t(BCol[Kk * N]));
        Out[R * 64 + L] = Acc;
      } else if (D.Sparse) {
        // Selected positions only (see the file comment).
        const uint8_t *SRow = &Sel[(size_t(ABlock[Blk]) * M + Row) * K];
        double S = 0;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          if (SRow[Kk])
            S += ARow[Kk] * BCol[Kk * N];
        Out[R * 64 + L] = asU(float(S + double(asF(C))));
      } else {
        double S = 0;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          S += ARow[Kk] * BCol[Kk * N];
        Out[R * 64 + L] = asU(float(S + double(asF(C))));
      }
    }
  const Opnd &Dst = I.Dst[0];
  for (unsigned R = 0; R < OutRegs * (F64 ? 2 : 1); ++R) {
    uint32_t *P = W.lanes(Dst, R);
    std::memcpy(P, &Out[R * 64], 64 * 4);
  }
}

} // namespace

void registerMfma(OpTable &T) {
  struct N {
    const char *Name;
    uint32_t Idx;
  };
  static const N Names[] = {
      {"v_mfma_f32_32x32x8_f16", 0},
      {"v_mfma_f32_32x32x8f16", 0 | AuxGfx90aBlgp},
      {"v_mfma_f32_16x16x16_f16", 1},
      {"v_mfma_f32_16x16x16f16", 1 | AuxGfx90aBlgp},
      {"v_mfma_f32_16x16x16_bf16", 2},
      {"v_mfma_f32_16x16x16bf16_1k", 2 | AuxGfx90aBlgp},
      {"v_mfma_f32_32x32x8_bf16", 3},
      {"v_mfma_f32_32x32x8bf16_1k", 3 | AuxGfx90aBlgp},
      {"v_mfma_f32_32x32x2_f32", 4},
      {"v_mfma_f32_32x32x2f32", 4},
      {"v_mfma_f32_16x16x4_f32", 5},
      {"v_mfma_f32_16x16x4f32", 5},
      {"v_mfma_i32_16x16x32_i8", 6},
      {"v_mfma_i32_32x32x16_i8", 7},
      {"v_mfma_i32_16x16x16i8", 8},
      {"v_mfma_i32_32x32x8i8", 9},
      {"v_mfma_f32_16x16x32_fp8_fp8", 10},
      {"v_mfma_f32_16x16x32_fp8_bf8", 11},
      {"v_mfma_f32_16x16x32_bf8_fp8", 12},
      {"v_mfma_f32_16x16x32_bf8_bf8", 13},
      {"v_mfma_f32_32x32x16_fp8_fp8", 14},
      {"v_mfma_f32_32x32x16_fp8_bf8", 15},
      {"v_mfma_f32_32x32x16_bf8_fp8", 16},
      {"v_mfma_f32_32x32x16_bf8_bf8", 17},
      {"v_mfma_f32_16x16x8_xf32", 18},
      {"v_mfma_f32_32x32x4_xf32", 19},
      {"v_mfma_f64_16x16x4_f64", 20},
      {"v_mfma_f64_16x16x4f64", 20},
      {"v_mfma_f32_32x32x1_2b_f32", 21},
      {"v_mfma_f32_32x32x1f32", 21},
      {"v_mfma_f32_16x16x1_4b_f32", 22},
      {"v_mfma_f32_16x16x1f32", 22},
      {"v_mfma_f32_4x4x1_16b_f32", 23},
      {"v_mfma_f32_4x4x1f32", 23},
      {"v_mfma_f32_32x32x4_2b_f16", 24},
      {"v_mfma_f32_32x32x4f16", 24},
      {"v_mfma_f32_16x16x4_4b_f16", 25},
      {"v_mfma_f32_16x16x4f16", 25},
      {"v_mfma_f32_4x4x4_16b_f16", 26},
      {"v_mfma_f32_4x4x4f16", 26},
      {"v_mfma_i32_32x32x4_2b_i8", 27},
      {"v_mfma_i32_32x32x4i8", 27},
      {"v_mfma_i32_16x16x4_4b_i8", 28},
      {"v_mfma_i32_16x16x4i8", 28},
      {"v_mfma_i32_4x4x4_16b_i8", 29},
      {"v_mfma_i32_4x4x4i8", 29},
      {"v_mfma_f32_32x32x4_2b_bf16", 30},
      {"v_mfma_f32_32x32x4bf16_1k", 30},
      {"v_mfma_f32_16x16x4_4b_bf16", 31},
      {"v_mfma_f32_16x16x4bf16_1k", 31},
      {"v_mfma_f32_4x4x4_16b_bf16", 32},
      {"v_mfma_f32_4x4x4bf16_1k", 32},
      {"v_mfma_f64_4x4x4_4b_f64", 33},
      {"v_mfma_f64_4x4x4f64", 33},
      {"v_mfma_f32_32x32x2bf16", 34},
      {"v_mfma_f32_16x16x2bf16", 35},
      {"v_mfma_f32_4x4x2bf16", 36},
      {"v_mfma_f32_32x32x4bf16", 37},
      {"v_mfma_f32_16x16x8bf16", 38},
      {"v_smfmac_f32_16x16x32_f16", 39},
      {"v_smfmac_f32_32x32x16_f16", 40},
      {"v_smfmac_f32_16x16x32_bf16", 41},
      {"v_smfmac_f32_32x32x16_bf16", 42},
      {"v_smfmac_i32_16x16x64_i8", 43},
      {"v_smfmac_i32_32x32x32_i8", 44},
      {"v_smfmac_f32_16x16x64_bf8_bf8", 45},
      {"v_smfmac_f32_16x16x64_bf8_fp8", 46},
      {"v_smfmac_f32_16x16x64_fp8_bf8", 47},
      {"v_smfmac_f32_16x16x64_fp8_fp8", 48},
      {"v_smfmac_f32_32x32x32_bf8_bf8", 49},
      {"v_smfmac_f32_32x32x32_bf8_fp8", 50},
      {"v_smfmac_f32_32x32x32_fp8_bf8", 51},
      {"v_smfmac_f32_32x32x32_fp8_fp8", 52},
  };
  for (const N &E : Names)
    T.add(E.Name, hMfma,
          Descs[E.Idx & 0xff].IntOut ? Fidelity::Exact : Fidelity::Approximate,
          E.Idx);
}

} // namespace emu
} // namespace asmevo
