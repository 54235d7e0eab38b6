//===- Salu.cpp - Scalar ALU, program control and SMEM -------------------===//
//
// Semantics from AMD's CDNA3 ISA reference (SOP1/SOP2/SOPC/SOPK/SOPP/SMEM
// chapters); SCC rules per instruction as documented there.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

inline uint32_t S0(Wave &W, const Inst &I) { return readS32(W, I.Src[0]); }
inline uint32_t S1(Wave &W, const Inst &I) { return readS32(W, I.Src[1]); }
inline uint64_t S0_64(Wave &W, const Inst &I) { return readS64(W, I.Src[0]); }
inline uint64_t S1_64(Wave &W, const Inst &I) { return readS64(W, I.Src[1]); }

#define SOP2_32(NAME, ...)                                                    \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint32_t a = S0(W, I), b = S1(W, I), d = 0;                                \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS32(W, I.Dst[0], d);                                                  \
  }
#define SOP2_64(NAME, ...)                                                    \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint64_t a = S0_64(W, I), b = S1_64(W, I), d = 0;                          \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS64(W, I.Dst[0], d);                                                  \
  }
// 64-bit result from a 64-bit and a 32-bit source (shifts, bfe).
#define SOP2_64_32(NAME, ...)                                                 \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint64_t a = S0_64(W, I), d = 0;                                           \
    uint32_t b = S1(W, I);                                                     \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS64(W, I.Dst[0], d);                                                  \
  }

SOP2_32(s_add_u32, { uint64_t r = uint64_t(a) + b; d = r; scc = r >> 32; })
SOP2_32(s_sub_u32, { d = a - b; scc = b > a; })
SOP2_32(s_add_i32, {
  d = a + b;
  scc = ((a ^ ~b) & (a ^ d)) >> 31;
})
SOP2_32(s_sub_i32, {
  d = a - b;
  scc = ((a ^ b) & (a ^ d)) >> 31;
})
SOP2_32(s_addc_u32, {
  uint64_t r = uint64_t(a) + b + scc;
  d = r;
  scc = r >> 32;
})
SOP2_32(s_subb_u32, {
  uint64_t r = uint64_t(a) - b - scc;
  d = r;
  scc = (uint64_t(b) + scc) > a;
})
SOP2_32(s_min_i32, { scc = int32_t(a) < int32_t(b); d = scc ? a : b; })
SOP2_32(s_min_u32, { scc = a < b; d = scc ? a : b; })
SOP2_32(s_max_i32, { scc = int32_t(a) > int32_t(b); d = scc ? a : b; })
SOP2_32(s_max_u32, { scc = a > b; d = scc ? a : b; })
SOP2_32(s_cselect_b32, { d = scc ? a : b; })
SOP2_64(s_cselect_b64, { d = scc ? a : b; })
SOP2_32(s_and_b32, { d = a & b; scc = d != 0; })
SOP2_64(s_and_b64, { d = a & b; scc = d != 0; })
SOP2_32(s_or_b32, { d = a | b; scc = d != 0; })
SOP2_64(s_or_b64, { d = a | b; scc = d != 0; })
SOP2_32(s_xor_b32, { d = a ^ b; scc = d != 0; })
SOP2_64(s_xor_b64, { d = a ^ b; scc = d != 0; })
SOP2_32(s_andn2_b32, { d = a & ~b; scc = d != 0; })
SOP2_64(s_andn2_b64, { d = a & ~b; scc = d != 0; })
SOP2_32(s_orn2_b32, { d = a | ~b; scc = d != 0; })
SOP2_64(s_orn2_b64, { d = a | ~b; scc = d != 0; })
SOP2_32(s_nand_b32, { d = ~(a & b); scc = d != 0; })
SOP2_64(s_nand_b64, { d = ~(a & b); scc = d != 0; })
SOP2_32(s_nor_b32, { d = ~(a | b); scc = d != 0; })
SOP2_64(s_nor_b64, { d = ~(a | b); scc = d != 0; })
SOP2_32(s_xnor_b32, { d = ~(a ^ b); scc = d != 0; })
SOP2_64(s_xnor_b64, { d = ~(a ^ b); scc = d != 0; })
SOP2_32(s_lshl_b32, { d = a << (b & 31); scc = d != 0; })
SOP2_64_32(s_lshl_b64, { d = a << (b & 63); scc = d != 0; })
SOP2_32(s_lshr_b32, { d = a >> (b & 31); scc = d != 0; })
SOP2_64_32(s_lshr_b64, { d = a >> (b & 63); scc = d != 0; })
SOP2_32(s_ashr_i32, { d = uint32_t(int32_t(a) >> (b & 31)); scc = d != 0; })
SOP2_64_32(s_ashr_i64, { d = uint64_t(int64_t(a) >> (b & 63)); scc = d != 0; })
SOP2_32(s_bfm_b32, { d = ((1u << (a & 31)) - 1) << (b & 31); })
void h_s_bfm_b64(Wave &W, const Inst &I) {
  uint32_t a = S0(W, I), b = S1(W, I);
  writeS64(W, I.Dst[0], ((1ull << (a & 63)) - 1) << (b & 63));
}
SOP2_32(s_mul_i32, { d = uint32_t(int32_t(a) * int64_t(int32_t(b))); })
SOP2_32(s_mul_hi_u32, { d = uint32_t((uint64_t(a) * b) >> 32); })
SOP2_32(s_mul_hi_i32, {
  d = uint32_t(uint64_t(int64_t(int32_t(a)) * int64_t(int32_t(b))) >> 32);
})
// BFE: offset S1[4:0] (S1[5:0] for 64-bit), width S1[22:16].
SOP2_32(s_bfe_u32, {
  unsigned off = b & 31, w = (b >> 16) & 0x7f;
  d = w == 0 ? 0 : w >= 32 ? a >> off : (a >> off) & ((1u << w) - 1);
  scc = d != 0;
})
SOP2_32(s_bfe_i32, {
  unsigned off = b & 31, w = (b >> 16) & 0x7f;
  if (w == 0)
    d = 0;
  else if (w >= 32)
    d = uint32_t(int32_t(a) >> off);
  else
    d = uint32_t((int32_t((a >> off) << (32 - w))) >> (32 - w));
  scc = d != 0;
})
SOP2_64_32(s_bfe_u64, {
  unsigned off = b & 63, w = (b >> 16) & 0x7f;
  d = w == 0 ? 0 : w >= 64 ? a >> off : (a >> off) & ((1ull << w) - 1);
  scc = d != 0;
})
SOP2_64_32(s_bfe_i64, {
  unsigned off = b & 63, w = (b >> 16) & 0x7f;
  if (w == 0)
    d = 0;
  else if (w >= 64)
    d = uint64_t(int64_t(a) >> off);
  else
    d = uint64_t((int64_t((a >> off) << (64 - w))) >> (64 - w));
  scc = d != 0;
})
SOP2_32(s_absdiff_i32, {
  int64_t r = int64_t(int32_t(a)) - int32_t(b);
  d = uint32_t(r < 0 ? -r : r);
  scc = d != 0;
})
#define LSHL_ADD(N)                                                            \
  SOP2_32(s_lshl##N##_add_u32, {                                               \
    uint64_t r = (uint64_t(a) << N) + b;                                       \
    d = uint32_t(r);                                                           \
    scc = (r >> 32) != 0;                                                      \
  })
LSHL_ADD(1)
LSHL_ADD(2)
LSHL_ADD(3)
LSHL_ADD(4)
SOP2_32(s_pack_ll_b32_b16, { d = (a & 0xffff) | (b << 16); })
SOP2_32(s_pack_lh_b32_b16, { d = (a & 0xffff) | (b & 0xffff0000u); })
SOP2_32(s_pack_hh_b32_b16, { d = (a >> 16) | (b & 0xffff0000u); })

// SOP1.
#define SOP1_32(NAME, ...)                                                    \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint32_t a = S0(W, I), d = 0;                                              \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS32(W, I.Dst[0], d);                                                  \
  }
#define SOP1_64(NAME, ...)                                                    \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint64_t a = S0_64(W, I), d = 0;                                           \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS64(W, I.Dst[0], d);                                                  \
  }
// 32-bit result from a 64-bit source.
#define SOP1_32_64(NAME, ...)                                                 \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint64_t a = S0_64(W, I);                                                  \
    uint32_t d = 0;                                                            \
    bool &scc = W.SCC;                                                         \
    (void)scc;                                                                 \
    __VA_ARGS__;                                                               \
    writeS32(W, I.Dst[0], d);                                                  \
  }

SOP1_32(s_mov_b32, { d = a; })
SOP1_64(s_mov_b64, { d = a; })
void h_s_cmov_b32(Wave &W, const Inst &I) {
  if (W.SCC)
    writeS32(W, I.Dst[0], S0(W, I));
}
void h_s_cmov_b64(Wave &W, const Inst &I) {
  if (W.SCC)
    writeS64(W, I.Dst[0], S0_64(W, I));
}
SOP1_32(s_not_b32, { d = ~a; scc = d != 0; })
SOP1_64(s_not_b64, { d = ~a; scc = d != 0; })
SOP1_32(s_brev_b32, { d = llvm::reverseBits<uint32_t>(a); })
SOP1_64(s_brev_b64, { d = llvm::reverseBits<uint64_t>(a); })
SOP1_32(s_bcnt0_i32_b32, { d = 32 - __builtin_popcount(a); scc = d != 0; })
SOP1_32_64(s_bcnt0_i32_b64, { d = 64 - __builtin_popcountll(a); scc = d != 0; })
SOP1_32(s_bcnt1_i32_b32, { d = __builtin_popcount(a); scc = d != 0; })
SOP1_32_64(s_bcnt1_i32_b64, { d = __builtin_popcountll(a); scc = d != 0; })
SOP1_32(s_ff0_i32_b32, { d = ~a ? __builtin_ctz(~a) : ~0u; })
SOP1_32_64(s_ff0_i32_b64, { d = ~a ? __builtin_ctzll(~a) : ~0u; })
SOP1_32(s_ff1_i32_b32, { d = a ? __builtin_ctz(a) : ~0u; })
SOP1_32_64(s_ff1_i32_b64, { d = a ? __builtin_ctzll(a) : ~0u; })
SOP1_32(s_flbit_i32_b32, { d = a ? __builtin_clz(a) : ~0u; })
SOP1_32_64(s_flbit_i32_b64, { d = a ? __builtin_clzll(a) : ~0u; })
// Count of leading bits equal to the sign bit; -1 for 0 and -1.
SOP1_32(s_flbit_i32, {
  uint32_t x = int32_t(a) < 0 ? ~a : a;
  d = x ? __builtin_clz(x) : ~0u;
})
SOP1_32_64(s_flbit_i32_i64, {
  uint64_t x = int64_t(a) < 0 ? ~a : a;
  d = x ? __builtin_clzll(x) : ~0u;
})
SOP1_32(s_sext_i32_i8, { d = uint32_t(int32_t(int8_t(a))); })
SOP1_32(s_sext_i32_i16, { d = uint32_t(int32_t(int16_t(a))); })
void h_s_bitset0_b32(Wave &W, const Inst &I) {
  writeS32(W, I.Dst[0], readS32(W, I.Dst[0]) & ~(1u << (S0(W, I) & 31)));
}
void h_s_bitset1_b32(Wave &W, const Inst &I) {
  writeS32(W, I.Dst[0], readS32(W, I.Dst[0]) | (1u << (S0(W, I) & 31)));
}
void h_s_bitset0_b64(Wave &W, const Inst &I) {
  writeS64(W, I.Dst[0], readS64(W, I.Dst[0]) & ~(1ull << (S0(W, I) & 63)));
}
void h_s_bitset1_b64(Wave &W, const Inst &I) {
  writeS64(W, I.Dst[0], readS64(W, I.Dst[0]) | (1ull << (S0(W, I) & 63)));
}
SOP1_32(s_abs_i32, {
  d = int32_t(a) < 0 ? 0u - a : a;
  scc = d != 0;
})
void h_s_getpc_b64(Wave &W, const Inst &I) { writeS64(W, I.Dst[0], W.PC); }
void h_s_setpc_b64(Wave &W, const Inst &I) { W.PC = S0_64(W, I); }
void h_s_swappc_b64(Wave &W, const Inst &I) {
  uint64_t T = S0_64(W, I);
  writeS64(W, I.Dst[0], W.PC);
  W.PC = T;
}
void h_s_call_b64(Wave &W, const Inst &I) {
  writeS64(W, I.Dst[0], W.PC);
  W.PC = I.PC + 4 + I.Off * 4;
}

// saveexec family: D = EXEC (old); EXEC = f(S0, EXEC); SCC = EXEC != 0.
#define SAVEEXEC(NAME, EXPR)                                                   \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint64_t s = S0_64(W, I), e = W.exec();                                    \
    uint64_t n = EXPR;                                                         \
    writeS64(W, I.Dst[0], e);                                                  \
    W.setExec(n);                                                              \
    W.SCC = n != 0;                                                            \
  }
SAVEEXEC(s_and_saveexec_b64, s &e)
SAVEEXEC(s_or_saveexec_b64, s | e)
SAVEEXEC(s_xor_saveexec_b64, s ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec_b64, ~s & e)
SAVEEXEC(s_orn1_saveexec_b64, ~s | e)
// wrexec: EXEC = f(S0, EXEC); D = EXEC (new); SCC = EXEC != 0.
void h_s_andn1_wrexec_b64(Wave &W, const Inst &I) {
  uint64_t n = ~S0_64(W, I) & W.exec();
  W.setExec(n);
  writeS64(W, I.Dst[0], n);
  W.SCC = n != 0;
}
void h_s_andn2_wrexec_b64(Wave &W, const Inst &I) {
  uint64_t n = S0_64(W, I) & ~W.exec();
  W.setExec(n);
  writeS64(W, I.Dst[0], n);
  W.SCC = n != 0;
}
void h_s_bitreplicate_b64_b32(Wave &W, const Inst &I) {
  uint32_t a = S0(W, I);
  uint64_t d = 0;
  for (int K = 0; K < 32; ++K)
    if (a >> K & 1)
      d |= 3ull << (2 * K);
  writeS64(W, I.Dst[0], d);
}
// s_movrels: D = SGPR[S0.addr + M0]; s_movreld: SGPR[D.addr + M0] = S0.
void h_s_movrels_b32(Wave &W, const Inst &I) {
  if (I.Src[0].Kind != OK::S)
    return W.fail(ErrorKind::Unsupported, I, "s_movrels with a constant");
  unsigned R = I.Src[0].Reg + W.S[SM0];
  if (R >= 102)
    return W.fail(ErrorKind::Fault, I, "s_movrels index out of range");
  writeS32(W, I.Dst[0], W.S[R]);
}
void h_s_movreld_b32(Wave &W, const Inst &I) {
  unsigned R = I.Dst[0].Reg + W.S[SM0];
  if (I.Dst[0].Kind != OK::S || R >= 102)
    return W.fail(ErrorKind::Fault, I, "s_movreld index out of range");
  W.S[R] = S0(W, I);
}

// SOPC.
#define SOPC32(NAME, EXPR)                                                     \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint32_t a = S0(W, I), b = S1(W, I);                                       \
    W.SCC = (EXPR);                                                            \
  }
SOPC32(s_cmp_eq_i32, a == b)
SOPC32(s_cmp_lg_i32, a != b)
SOPC32(s_cmp_gt_i32, int32_t(a) > int32_t(b))
SOPC32(s_cmp_ge_i32, int32_t(a) >= int32_t(b))
SOPC32(s_cmp_lt_i32, int32_t(a) < int32_t(b))
SOPC32(s_cmp_le_i32, int32_t(a) <= int32_t(b))
SOPC32(s_cmp_eq_u32, a == b)
SOPC32(s_cmp_lg_u32, a != b)
SOPC32(s_cmp_gt_u32, a > b)
SOPC32(s_cmp_ge_u32, a >= b)
SOPC32(s_cmp_lt_u32, a < b)
SOPC32(s_cmp_le_u32, a <= b)
SOPC32(s_bitcmp0_b32, ((a >> (b & 31)) & 1) == 0)
SOPC32(s_bitcmp1_b32, ((a >> (b & 31)) & 1) == 1)
void h_s_bitcmp0_b64(Wave &W, const Inst &I) {
  W.SCC = ((S0_64(W, I) >> (S1(W, I) & 63)) & 1) == 0;
}
void h_s_bitcmp1_b64(Wave &W, const Inst &I) {
  W.SCC = ((S0_64(W, I) >> (S1(W, I) & 63)) & 1) == 1;
}
void h_s_cmp_eq_u64(Wave &W, const Inst &I) { W.SCC = S0_64(W, I) == S1_64(W, I); }
void h_s_cmp_lg_u64(Wave &W, const Inst &I) { W.SCC = S0_64(W, I) != S1_64(W, I); }
// gfx9: M0[7:0] = S0[7:0], M0[15:12] = mode (SOPC ssrc1 field), enable.
void h_s_set_gpr_idx_on(Wave &W, const Inst &I) {
  uint32_t M0 = W.S[SM0];
  M0 = (M0 & ~0xf0ffu) | (S0(W, I) & 0xff) | ((I.C0 & 0xf) << 12);
  W.S[SM0] = M0;
  W.GprIdxOn = true;
}
void h_s_set_gpr_idx_off(Wave &W, const Inst &I) { W.GprIdxOn = false; }
void h_s_set_gpr_idx_mode(Wave &W, const Inst &I) {
  W.S[SM0] = (W.S[SM0] & ~0xf000u) | ((I.C0 & 0xf) << 12);
}
void h_s_set_gpr_idx_idx(Wave &W, const Inst &I) {
  W.S[SM0] = (W.S[SM0] & ~0xffu) | (S0(W, I) & 0xff);
}

// SOPK.
void h_s_movk_i32(Wave &W, const Inst &I) { writeS32(W, I.Dst[0], uint32_t(I.Off)); }
void h_s_cmovk_i32(Wave &W, const Inst &I) {
  if (W.SCC)
    writeS32(W, I.Dst[0], uint32_t(I.Off));
}
void h_s_addk_i32(Wave &W, const Inst &I) {
  uint32_t a = readS32(W, I.Dst[0]), b = uint32_t(I.Off), d = a + b;
  W.SCC = ((a ^ ~b) & (a ^ d)) >> 31;
  writeS32(W, I.Dst[0], d);
}
void h_s_mulk_i32(Wave &W, const Inst &I) {
  uint32_t a = readS32(W, I.Dst[0]);
  writeS32(W, I.Dst[0], uint32_t(int64_t(int32_t(a)) * I.Off));
}
#define SOPK_CMP(NAME, EXPR)                                                   \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    uint32_t a = S0(W, I);                                                     \
    int32_t si = int32_t(I.Off);                                               \
    uint32_t ui = I.C0;                                                        \
    (void)si;                                                                  \
    (void)ui;                                                                  \
    W.SCC = (EXPR);                                                            \
  }
SOPK_CMP(s_cmpk_eq_i32, int32_t(a) == si)
SOPK_CMP(s_cmpk_lg_i32, int32_t(a) != si)
SOPK_CMP(s_cmpk_gt_i32, int32_t(a) > si)
SOPK_CMP(s_cmpk_ge_i32, int32_t(a) >= si)
SOPK_CMP(s_cmpk_lt_i32, int32_t(a) < si)
SOPK_CMP(s_cmpk_le_i32, int32_t(a) <= si)
SOPK_CMP(s_cmpk_eq_u32, a == ui)
SOPK_CMP(s_cmpk_lg_u32, a != ui)
SOPK_CMP(s_cmpk_gt_u32, a > ui)
SOPK_CMP(s_cmpk_ge_u32, a >= ui)
SOPK_CMP(s_cmpk_lt_u32, a < ui)
SOPK_CMP(s_cmpk_le_u32, a <= ui)

// Hardware registers (gfx9 ids): 1 MODE, 3 TRAPSTS, 4 HW_ID, 15 SH_MEM_BASES.
bool hwregRead(Wave &W, unsigned Id, uint32_t &V) {
  switch (Id) {
  case 1:
    V = W.Mode;
    return true;
  case 3:
    V = W.TrapSts;
    return true;
  case 4: // HW_ID: wave id [3:0]; the rest (SIMD, CU, SE...) modelled as 0.
    V = W.Id & 0xf;
    return true;
  case 15: // SH_MEM_BASES: private base [63:48] in [15:0], shared in [31:16].
    V = uint32_t(Emulator::PrivateApertureBase >> 48) |
        uint32_t(Emulator::SharedApertureBase >> 48) << 16;
    return true;
  default:
    return false;
  }
}
void h_s_getreg_b32(Wave &W, const Inst &I) {
  unsigned Id = I.C0 & 0x3f, Off = (I.C0 >> 6) & 31, Size = ((I.C0 >> 11) & 31) + 1;
  uint32_t V;
  if (!hwregRead(W, Id, V))
    return W.fail(ErrorKind::Unsupported, I,
                  formatv("s_getreg of hardware register {0}", Id).str());
  V >>= Off;
  if (Size < 32)
    V &= (1u << Size) - 1;
  writeS32(W, I.Dst[0], V);
}
void setreg(Wave &W, const Inst &I, uint32_t Simm, uint32_t Val) {
  unsigned Id = Simm & 0x3f, Off = (Simm >> 6) & 31, Size = ((Simm >> 11) & 31) + 1;
  uint32_t Mask = (Size >= 32 ? ~0u : ((1u << Size) - 1)) << Off;
  if (Id == 1) {
    W.Mode = (W.Mode & ~Mask) | ((Val << Off) & Mask);
    W.Ieee = (W.Mode >> 9) & 1;
    W.Dx10Clamp = (W.Mode >> 8) & 1;
  } else if (Id == 3) {
    W.TrapSts = (W.TrapSts & ~Mask) | ((Val << Off) & Mask);
  } else {
    W.fail(ErrorKind::Unsupported, I,
           formatv("s_setreg of hardware register {0}", Id).str());
  }
}
void h_s_setreg_b32(Wave &W, const Inst &I) { setreg(W, I, I.C0, S0(W, I)); }
void h_s_setreg_imm32_b32(Wave &W, const Inst &I) {
  // SOPK with a literal: simm16 describes the register, the literal the value.
  setreg(W, I, I.C0, I.C1);
}

// SOPP.
void h_s_nop(Wave &, const Inst &) {}
void h_s_endpgm(Wave &W, const Inst &I) {
  // Scalar stores must leave the scalar cache (s_dcache_wb) before the wave
  // ends: LLVM's SIInsertWaitcnts inserts one for that reason.
  if (!W.SDirty.empty() && !scalarEndCheck(W, I))
    return;
  W.St = Wave::Done;
  W.Stop = true;
}
void h_s_branch(Wave &W, const Inst &I) { W.PC = I.PC + 4 + I.Off * 4; }
#define CBRANCH(NAME, COND)                                                    \
  void h_##NAME(Wave &W, const Inst &I) {                                      \
    if (COND)                                                                  \
      W.PC = I.PC + 4 + I.Off * 4;                                             \
  }
CBRANCH(s_cbranch_scc0, !W.SCC)
CBRANCH(s_cbranch_scc1, W.SCC)
CBRANCH(s_cbranch_vccz, W.vcc() == 0)
CBRANCH(s_cbranch_vccnz, W.vcc() != 0)
CBRANCH(s_cbranch_execz, W.exec() == 0)
CBRANCH(s_cbranch_execnz, W.exec() != 0)
void h_s_barrier(Wave &W, const Inst &) {
  W.St = Wave::Barrier;
  W.Stop = true;
}
void h_s_waitcnt(Wave &W, const Inst &I) {
  uint32_t S = I.C0;
  unsigned VM = (S & 0xf) | ((S >> 14) & 3) << 4;
  unsigned LGKM = (S >> 8) & 0xf;
  W.SB.waitVM(VM);
  W.SB.waitLGKM(LGKM);
  if (LGKM == 0 && W.SWbIssued) // s_dcache_wb completed
    scalarWriteBack(W);
}
void h_s_trap(Wave &W, const Inst &I) {
  W.fail(ErrorKind::Fault, I, "s_trap executed (the kernel trapped)");
}
void h_s_sendmsg(Wave &W, const Inst &I) {
  W.fail(ErrorKind::Unsupported, I, "s_sendmsg is not modelled");
}

// SMEM. Scalar loads read dwords at (base + offset) & ~3.
void smemLoad(Wave &W, const Inst &I, unsigned Dwords) {
  uint64_t Base = readS64(W, I.Src[0]) & 0xffffffffffffull;
  int64_t Off = I.Off;
  if (I.NSrc >= 2)
    Off += readS32(W, I.Src[1]);
  uint64_t Addr = (Base + Off) & ~3ull;
  uint32_t Buf[16];
  Region *R = W.C->findRegion(Addr, Dwords * 4, false, W.Id);
  if (!R || !(R->Perms & PermRead))
    return W.fail(ErrorKind::Fault, I,
                  formatv("scalar load of {0} bytes at {1:x}: {2}", Dwords * 4,
                          Addr, R ? "not readable" : "unmapped")
                      .str());
  std::memcpy(Buf, R->Data.data() + (Addr - R->Base), Dwords * 4);
  if (W.TrackGlobal) // cross-wave and dispatch-wide races
    W.GAcc.push_back({Addr, Dwords * 4, uint8_t(I.C2 ? 65 : 64), false, false});
  for (unsigned K = 0; K < Dwords; ++K)
    W.S[(I.Dst[0].Reg + K) & 127] = Buf[K];
}
// s_buffer_load: base from the V# in Src[0] (4 SGPRs), range-checked per
// dword against num_records (out of range: 0).
void sbufLoad(Wave &W, const Inst &I, unsigned Dwords) {
  if (I.Src[0].Kind != OK::S)
    return W.fail(ErrorKind::Invalid, I, "bad s_buffer_load resource");
  uint32_t *D = &W.S[I.Src[0].Reg];
  uint64_t Base = (uint64_t(D[1] & 0xffff) << 32) | D[0];
  uint32_t Num = D[2];
  int64_t Off = I.Off;
  if (I.NSrc >= 2)
    Off += readS32(W, I.Src[1]);
  uint64_t O = uint64_t(Off) & ~3ull;
  for (unsigned K = 0; K < Dwords; ++K) {
    uint64_t B = O + K * 4;
    uint32_t V = 0;
    if (B + 4 <= Num) {
      Region *R = W.C->findRegion(Base + B, 4, false, W.Id);
      if (!R || !(R->Perms & PermRead))
        return W.fail(ErrorKind::Fault, I,
                      formatv("s_buffer_load at {0:x}: unmapped", Base + B).str());
      std::memcpy(&V, R->Data.data() + (Base + B - R->Base), 4);
      if (W.TrackGlobal) // cross-wave and dispatch-wide races
        W.GAcc.push_back({Base + B, 4, uint8_t(I.C2 ? 65 : 64), false, false});
    }
    W.S[(I.Dst[0].Reg + K) & 127] = V;
  }
}
template <unsigned N> void h_s_load(Wave &W, const Inst &I) { smemLoad(W, I, N); }
template <unsigned N> void h_s_buffer_load(Wave &W, const Inst &I) {
  sbufLoad(W, I, N);
}
void h_s_memtime(Wave &W, const Inst &I) {
  // Deterministic stand-in for the clock: the wave's instruction count.
  writeS64(W, I.Dst[0], W.Executed);
}
void h_s_dcache_nop(Wave &, const Inst &) {}

// Scalar stores and atomics (CDNA3 ISA, SMEM): the address is formed as
// for scalar loads; sdata is Src[0], the base Src[1], soffset Src[2]. The
// written bytes stay in the wave's scalar cache until s_dcache_wb
// (Wave::SDirty, GlobalRace.cpp).
struct SmemTarget {
  uint64_t Base = 0;
  int64_t Off = 0;
  uint32_t NumRecords = 0; // s_buffer_*: V# num_records (bytes)
  bool Buffer = false;
};
bool smemTarget(Wave &W, const Inst &I, bool Buffer, SmemTarget &T) {
  if (I.NSrc < 2 || I.Src[0].Kind != OK::S || I.Src[1].Kind != OK::S) {
    W.fail(ErrorKind::Invalid, I, "unexpected scalar store/atomic operands");
    return false;
  }
  T.Buffer = Buffer;
  if (Buffer) {
    const uint32_t *D = &W.S[I.Src[1].Reg & 127];
    T.Base = (uint64_t(D[1] & 0xffff) << 32) | D[0];
    T.NumRecords = D[2];
  } else {
    T.Base = readS64(W, I.Src[1]) & 0xffffffffffffull;
  }
  T.Off = I.Off;
  if (I.NSrc >= 3) {
    // An SGPR offset without IMM: experiments recorded in Mesa's ACO
    // errata found that SMEM stores then take the offset from M0, not from
    // the encoded SGPR as LLVM assumes; refused rather than guessed.
    if (!I.C1) {
      W.fail(ErrorKind::Unsupported, I,
             "scalar store/atomic with an SGPR offset and IMM=0 (the "
             "hardware's offset source is not documented)");
      return false;
    }
    T.Off += readS32(W, I.Src[2]);
  }
  return true;
}
// A plain scalar store stays in the scalar cache until s_dcache_wb; with
// glc (globally coherent) it is written through, and atomics are performed
// in memory (hipSPARSELt's split-K kernels count finished workgroups with
// s_atomic_dec and never write the scalar cache back).
void noteScalarWrite(Wave &W, const Inst &I, uint64_t Addr, unsigned Len,
                     bool Atomic) {
  bool Through = Atomic || I.C2;
  if (W.TrackGlobal)
    W.GAcc.push_back({Addr, Len, uint8_t(Through ? 65 : 64), true, Atomic});
  if (Through)
    return;
  if (!W.SDirty.empty() && W.SDirty.back().second == Addr)
    W.SDirty.back().second = Addr + Len;
  else
    W.SDirty.push_back({Addr, Addr + Len});
}
uint8_t *scalarWritable(Wave &W, const Inst &I, uint64_t Addr, unsigned Len,
                        uint8_t Perms) {
  Region *R = W.C->findRegion(Addr, Len, true, W.Id);
  if (!R || (R->Perms & Perms) != Perms) {
    W.fail(ErrorKind::Fault, I,
           formatv("scalar write of {0} bytes at {1:x}: {2}", Len, Addr,
                   !R ? "unmapped or out of bounds" : "region is read-only")
               .str());
    return nullptr;
  }
  return R->Data.data() + (Addr - R->Base);
}
void smemStore(Wave &W, const Inst &I, unsigned Dwords, bool Buffer) {
  SmemTarget T;
  if (!smemTarget(W, I, Buffer, T))
    return;
  uint64_t O = uint64_t(T.Off) & ~3ull;
  for (unsigned K = 0; K < Dwords; ++K) {
    // s_buffer_store: dwords beyond num_records are dropped, as for loads.
    if (Buffer && O + 4 * K + 4 > T.NumRecords)
      continue;
    uint64_t Addr =
        Buffer ? T.Base + O + 4 * K : ((T.Base + T.Off) & ~3ull) + 4 * K;
    uint8_t *P = scalarWritable(W, I, Addr, 4, PermWrite);
    if (!P)
      return;
    uint32_t V = W.S[(I.Src[0].Reg + K) & 127];
    std::memcpy(P, &V, 4);
    noteScalarWrite(W, I, Addr, 4, false);
  }
}
template <unsigned N> void h_s_store(Wave &W, const Inst &I) {
  smemStore(W, I, N, false);
}
template <unsigned N> void h_s_buffer_store(Wave &W, const Inst &I) {
  smemStore(W, I, N, true);
}
// Aux: atomic op code (atomicOpCode) | bytes << 8 | buffer << 16.
void h_s_atomic(Wave &W, const Inst &I) {
  unsigned Op = I.Aux & 0xff, N = (I.Aux >> 8) & 0xff;
  bool Buffer = (I.Aux >> 16) & 1;
  SmemTarget T;
  if (!smemTarget(W, I, Buffer, T))
    return;
  uint64_t Addr;
  if (Buffer) {
    uint64_t O = uint64_t(T.Off) & ~3ull;
    if (O + N > T.NumRecords)
      return W.fail(ErrorKind::Unsupported, I,
                    formatv("s_buffer_atomic at offset {0:x} outside "
                            "num_records {1:x}: the result is not documented",
                            O, T.NumRecords)
                        .str());
    Addr = T.Base + O;
  } else {
    Addr = (T.Base + T.Off) & ~3ull;
  }
  if (Addr % N)
    return W.fail(
        ErrorKind::Fault, I,
        formatv("misaligned 64-bit scalar atomic at {0:x}", Addr).str());
  uint8_t *P = scalarWritable(W, I, Addr, N, PermRW);
  if (!P)
    return;
  unsigned DW = N / 4, Data = I.Src[0].Reg;
  uint64_t D = W.S[Data & 127], C = W.S[(Data + DW) & 127];
  if (DW == 2) {
    D |= uint64_t(W.S[(Data + 1) & 127]) << 32;
    C |= uint64_t(W.S[(Data + 3) & 127]) << 32;
  }
  uint64_t Old;
  {
    std::lock_guard<std::mutex> G(W.C->Sh->lockFor(uintptr_t(P)));
    Old = atomicRmw(P, N, Op, D, C);
  }
  // glc: the pre-op value returns in sdst (the RTN form has the def).
  if (I.NDst && I.Dst[0].Kind == OK::S)
    for (unsigned K = 0; K < DW; ++K)
      W.S[(I.Dst[0].Reg + K) & 127] = uint32_t(Old >> (32 * K));
  noteScalarWrite(W, I, Addr, N, true);
}
// s_dcache_wb: the scalar cache's dirty lines go to memory; complete at the
// next s_waitcnt lgkmcnt(0) (or s_endpgm).
void h_s_dcache_wb(Wave &W, const Inst &) { W.SWbIssued = W.SDirty.size(); }

} // namespace

void registerSalu(OpTable &T) {
#define R(NAME) T.add(#NAME, h_##NAME)
  R(s_add_u32); R(s_sub_u32); R(s_add_i32); R(s_sub_i32); R(s_addc_u32);
  R(s_subb_u32); R(s_min_i32); R(s_min_u32); R(s_max_i32); R(s_max_u32);
  R(s_cselect_b32); R(s_cselect_b64); R(s_and_b32); R(s_and_b64); R(s_or_b32);
  R(s_or_b64); R(s_xor_b32); R(s_xor_b64); R(s_andn2_b32); R(s_andn2_b64);
  R(s_orn2_b32); R(s_orn2_b64); R(s_nand_b32); R(s_nand_b64); R(s_nor_b32);
  R(s_nor_b64); R(s_xnor_b32); R(s_xnor_b64); R(s_lshl_b32); R(s_lshl_b64);
  R(s_lshr_b32); R(s_lshr_b64); R(s_ashr_i32); R(s_ashr_i64); R(s_bfm_b32);
  R(s_bfm_b64); R(s_mul_i32); R(s_mul_hi_u32); R(s_mul_hi_i32); R(s_bfe_u32);
  R(s_bfe_i32); R(s_bfe_u64); R(s_bfe_i64); R(s_absdiff_i32);
  R(s_lshl1_add_u32); R(s_lshl2_add_u32); R(s_lshl3_add_u32);
  R(s_lshl4_add_u32); R(s_pack_ll_b32_b16); R(s_pack_lh_b32_b16);
  R(s_pack_hh_b32_b16);
  R(s_mov_b32); R(s_mov_b64); R(s_cmov_b32); R(s_cmov_b64); R(s_not_b32);
  R(s_not_b64); R(s_brev_b32); R(s_brev_b64); R(s_bcnt0_i32_b32);
  R(s_bcnt0_i32_b64); R(s_bcnt1_i32_b32); R(s_bcnt1_i32_b64);
  R(s_ff0_i32_b32); R(s_ff0_i32_b64); R(s_ff1_i32_b32); R(s_ff1_i32_b64);
  R(s_flbit_i32_b32); R(s_flbit_i32_b64); R(s_flbit_i32); R(s_flbit_i32_i64);
  R(s_sext_i32_i8); R(s_sext_i32_i16); R(s_bitset0_b32); R(s_bitset1_b32);
  R(s_bitset0_b64); R(s_bitset1_b64); R(s_abs_i32); R(s_getpc_b64);
  R(s_setpc_b64); R(s_swappc_b64); R(s_call_b64);
  R(s_and_saveexec_b64); R(s_or_saveexec_b64); R(s_xor_saveexec_b64);
  R(s_andn2_saveexec_b64); R(s_orn2_saveexec_b64); R(s_nand_saveexec_b64);
  R(s_nor_saveexec_b64); R(s_xnor_saveexec_b64); R(s_andn1_saveexec_b64);
  R(s_orn1_saveexec_b64); R(s_andn1_wrexec_b64); R(s_andn2_wrexec_b64);
  R(s_bitreplicate_b64_b32); R(s_movrels_b32); R(s_movreld_b32);
  R(s_cmp_eq_i32); R(s_cmp_lg_i32); R(s_cmp_gt_i32); R(s_cmp_ge_i32);
  R(s_cmp_lt_i32); R(s_cmp_le_i32); R(s_cmp_eq_u32); R(s_cmp_lg_u32);
  R(s_cmp_gt_u32); R(s_cmp_ge_u32); R(s_cmp_lt_u32); R(s_cmp_le_u32);
  R(s_bitcmp0_b32); R(s_bitcmp1_b32); R(s_bitcmp0_b64); R(s_bitcmp1_b64);
  R(s_cmp_eq_u64); R(s_cmp_lg_u64); R(s_set_gpr_idx_on);
  R(s_set_gpr_idx_off); R(s_set_gpr_idx_mode); R(s_set_gpr_idx_idx);
  R(s_movk_i32); R(s_cmovk_i32); R(s_addk_i32); R(s_mulk_i32);
  R(s_cmpk_eq_i32); R(s_cmpk_lg_i32); R(s_cmpk_gt_i32); R(s_cmpk_ge_i32);
  R(s_cmpk_lt_i32); R(s_cmpk_le_i32); R(s_cmpk_eq_u32); R(s_cmpk_lg_u32);
  R(s_cmpk_gt_u32); R(s_cmpk_ge_u32); R(s_cmpk_lt_u32); R(s_cmpk_le_u32);
  R(s_getreg_b32); R(s_setreg_b32); R(s_setreg_imm32_b32);
  R(s_nop); R(s_endpgm); R(s_branch); R(s_cbranch_scc0); R(s_cbranch_scc1);
  R(s_cbranch_vccz); R(s_cbranch_vccnz); R(s_cbranch_execz);
  R(s_cbranch_execnz); R(s_barrier); R(s_waitcnt); R(s_trap); R(s_sendmsg);
#undef R
  for (const char *N : {"s_sleep", "s_setprio", "s_icache_inv", "s_incperflevel",
                        "s_decperflevel", "s_ttracedata", "s_sethalt_0"})
    T.add(N, h_s_nop);
  T.add("s_load_dword", h_s_load<1>);
  T.add("s_load_dwordx2", h_s_load<2>);
  T.add("s_load_dwordx4", h_s_load<4>);
  T.add("s_load_dwordx8", h_s_load<8>);
  T.add("s_load_dwordx16", h_s_load<16>);
  T.add("s_buffer_load_dword", h_s_buffer_load<1>);
  T.add("s_buffer_load_dwordx2", h_s_buffer_load<2>);
  T.add("s_buffer_load_dwordx4", h_s_buffer_load<4>);
  T.add("s_buffer_load_dwordx8", h_s_buffer_load<8>);
  T.add("s_buffer_load_dwordx16", h_s_buffer_load<16>);
  T.add("s_memtime", h_s_memtime, Fidelity::Approximate);
  T.add("s_memrealtime", h_s_memtime, Fidelity::Approximate);
  T.add("s_dcache_inv", h_s_dcache_nop);
  T.add("s_dcache_wb", h_s_dcache_wb);
  T.add("s_dcache_inv_vol", h_s_dcache_nop);
  T.add("s_dcache_wb_vol", h_s_dcache_wb);
  // Scalar stores and atomics (LLVM: HasScalarStores/HasScalarAtomics, both
  // set for gfx90a and gfx942).
  T.add("s_store_dword", h_s_store<1>);
  T.add("s_store_dwordx2", h_s_store<2>);
  T.add("s_store_dwordx4", h_s_store<4>);
  T.add("s_buffer_store_dword", h_s_buffer_store<1>);
  T.add("s_buffer_store_dwordx2", h_s_buffer_store<2>);
  T.add("s_buffer_store_dwordx4", h_s_buffer_store<4>);
  for (const char *Op : {"swap", "cmpswap", "add", "sub", "smin", "umin",
                         "smax", "umax", "and", "or", "xor", "inc", "dec"}) {
    unsigned C = atomicOpCode(Op);
    for (bool Buffer : {false, true}) {
      std::string Name =
          std::string(Buffer ? "s_buffer_atomic_" : "s_atomic_") + Op;
      uint32_t B = Buffer ? 1u << 16 : 0;
      T.add(Name, h_s_atomic, Fidelity::Exact, C | 4u << 8 | B);
      T.add(Name + "_x2", h_s_atomic, Fidelity::Exact, C | 8u << 8 | B);
    }
  }
}

} // namespace emu
} // namespace asmevo
