//===- OpcodeTest.cpp - Per-opcode edge values and failure modes ----------===//
//
// Every expected value below is derived by hand from the ISA definition of
// the instruction (AMD CDNA3 ISA, IEEE-754 for float arithmetic), not from
// the emulator. Instructions are assembled by LLVM's AMDGPU assembler and run
// as a one-wave snippet (emu::runSnippet).
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include "asmevo/Emu/Emulator.h"


#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

uint32_t fbits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

struct Snip {
  std::string CPU = "gfx942";
  SnippetState S;
  RunOptions Opts;
  Memory *Mem = nullptr;
  Snip() { Opts.Budget = 10000; }
  SnippetResult run(std::vector<std::string> Lines) {
    std::vector<uint8_t> Code = test::assembleSnippet(CPU, std::move(Lines));
    if (Code.empty())
      return {};
    return runSnippet(CPU, Code, S, Mem, Opts);
  }
  // Sets lane values of a VGPR (other lanes 0).
  void v(unsigned R, std::initializer_list<uint32_t> Lanes) {
    unsigned L = 0;
    for (uint32_t X : Lanes)
      S.V[R][L++] = X;
  }
};

#define RUN_OK(R)                                                              \
  ASSERT_TRUE((R).Run.ok()) << (R).Run.Message

//===----------------------------------------------------------------------===//
// SALU
//===----------------------------------------------------------------------===//

TEST(EmuSalu, AddCarryAndOverflow) {
  Snip T;
  T.S.S[0] = 0xffffffffu;
  T.S.S[1] = 1;
  T.S.S[4] = 0x7fffffff;
  auto R = T.run({"s_add_u32 s2, s0, s1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 0u);
  EXPECT_TRUE(R.State.SCC); // carry out
  R = T.run({"s_add_i32 s5, s4, s1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[5], 0x80000000u);
  EXPECT_TRUE(R.State.SCC); // signed overflow
  R = T.run({"s_add_u32 s2, s0, s1", "s_addc_u32 s3, 5, 6"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[3], 12u); // 5 + 6 + carry
  EXPECT_FALSE(R.State.SCC);
  R = T.run({"s_sub_u32 s2, 0, 1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 0xffffffffu);
  EXPECT_TRUE(R.State.SCC); // borrow
  T.S.SCC = true;
  R = T.run({"s_subb_u32 s2, 0, 0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 0xffffffffu); // 0 - 0 - borrow
  EXPECT_TRUE(R.State.SCC);
}

TEST(EmuSalu, ShiftsUseLowBits) {
  Snip T;
  T.S.S[0] = 1;
  T.S.S[1] = 0x80000000u;
  auto R = T.run({"s_lshl_b32 s2, s0, 33", "s_lshr_b32 s3, s1, 32",
                  "s_ashr_i32 s4, s1, 31", "s_lshl_b64 s[6:7], s[0:1], 63",
                  "s_lshr_b64 s[8:9], s[0:1], 64"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 2u);          // 33 & 31 = 1
  EXPECT_EQ(R.State.S[3], 0x80000000u); // 32 & 31 = 0
  EXPECT_EQ(R.State.S[4], 0xffffffffu);
  EXPECT_EQ(R.State.S[6], 0u);
  EXPECT_EQ(R.State.S[7], 0x80000000u); // bit 0 of s[0:1] to bit 63
  EXPECT_EQ(R.State.S[8], 1u);          // 64 & 63 = 0: unchanged
  EXPECT_EQ(R.State.S[9], 0x80000000u);
}

TEST(EmuSalu, BitOps) {
  Snip T;
  T.S.S[0] = 0x12345678;
  T.S.S[1] = 0x00000f00;
  T.S.S[10] = 0;
  T.S.S[11] = 0x80;
  auto R = T.run({"s_bfe_u32 s2, s0, 0x80004", "s_bfe_i32 s3, s1, 0x40008",
                  "s_ff1_i32_b32 s4, s10", "s_ff1_i32_b32 s5, s11",
                  "s_flbit_i32_b32 s6, 1", "s_bcnt1_i32_b64 s7, -1",
                  "s_brev_b32 s12, 1", "s_flbit_i32 s13, -1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 0x67u);       // 8 bits from bit 4
  EXPECT_EQ(R.State.S[3], 0xffffffffu); // 0xf sign-extended from 4 bits
  EXPECT_EQ(R.State.S[4], 0xffffffffu); // no bit set: -1
  EXPECT_EQ(R.State.S[5], 7u);
  EXPECT_EQ(R.State.S[6], 31u);
  EXPECT_EQ(R.State.S[7], 64u);
  EXPECT_TRUE(R.State.SCC);
  EXPECT_EQ(R.State.S[12], 0x80000000u);
  EXPECT_EQ(R.State.S[13], 0xffffffffu); // all bits equal the sign: -1
}

TEST(EmuSalu, MulHiAndCompare) {
  Snip T;
  T.S.S[0] = 0x80000000u;
  auto R = T.run({"s_mul_hi_i32 s1, s0, s0", "s_mul_i32 s2, s0, -1",
                  "s_cmp_lt_i32 -1, 0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[1], 0x40000000u); // (-2^31)^2 = 2^62
  EXPECT_EQ(R.State.S[2], 0x80000000u); // wraps
  EXPECT_TRUE(R.State.SCC);
  R = T.run({"s_cmp_lt_u32 -1, 0"});
  RUN_OK(R);
  EXPECT_FALSE(R.State.SCC);
}

TEST(EmuSalu, SaveExec) {
  Snip T;
  T.S.Exec = 0xff;
  T.S.S[0] = 0x0f;
  T.S.S[1] = 0;
  auto R = T.run({"s_and_saveexec_b64 s[2:3], s[0:1]"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[2], 0xffu);
  EXPECT_EQ(R.State.Exec, 0x0full);
  EXPECT_TRUE(R.State.SCC);
  T.S.S[0] = 0xf0;
  R = T.run({"s_and_saveexec_b64 s[2:3], s[0:1]", "s_andn2_saveexec_b64 s[4:5], s[2:3]"});
  RUN_OK(R);
  // exec = 0xf0; then exec = s[2:3] & ~exec = 0xff & ~0xf0 = 0x0f
  EXPECT_EQ(R.State.Exec, 0x0full);
}

//===----------------------------------------------------------------------===//
// VALU integer
//===----------------------------------------------------------------------===//

TEST(EmuValu, CarryChain) {
  Snip T;
  T.S.Exec = 3;
  T.v(0, {0xffffffffu, 1});
  T.v(1, {1, 1});
  auto R = T.run({"v_add_co_u32_e32 v2, vcc, v0, v1",
                  "v_addc_co_u32_e32 v3, vcc, 0, v10, vcc"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0u);
  EXPECT_EQ(R.State.V[2][1], 2u);
  EXPECT_EQ(R.State.V[3][0], 1u); // carry of lane 0 propagated
  EXPECT_EQ(R.State.V[3][1], 0u);
  EXPECT_EQ(R.State.S[106], 0u); // second add: no carry
  R = T.run({"v_sub_co_u32_e32 v2, vcc, 0, v1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0xffffffffu);
  EXPECT_EQ(R.State.S[106], 3u); // borrow in both active lanes only
  EXPECT_EQ(R.State.S[107], 0u);
}

TEST(EmuValu, ShiftsAndMultiplies) {
  Snip T;
  T.v(0, {32, 31});
  T.v(1, {1, 1});
  T.v(4, {1});
  T.v(5, {0});
  T.v(6, {0x80000000u});
  T.v(7, {0x10000});
  auto R = T.run({"v_lshlrev_b32_e32 v2, v0, v1",
                  "v_lshlrev_b64 v[8:9], 63, v[4:5]",
                  "v_lshlrev_b64 v[10:11], 64, v[4:5]",
                  "v_ashrrev_i32_e32 v12, 31, v6", "v_mul_hi_i32 v13, v6, v6",
                  "v_mul_lo_u32 v14, v7, v7", "v_mul_u32_u24_e32 v15, 2, v1",
                  "v_mul_hi_u32 v16, -1, -1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 1u);          // 32 & 31 = 0
  EXPECT_EQ(R.State.V[2][1], 0x80000000u); // 31
  EXPECT_EQ(R.State.V[8][0], 0u);
  EXPECT_EQ(R.State.V[9][0], 0x80000000u);
  EXPECT_EQ(R.State.V[10][0], 1u); // 64 & 63 = 0
  EXPECT_EQ(R.State.V[12][0], 0xffffffffu);
  EXPECT_EQ(R.State.V[13][0], 0x40000000u);
  EXPECT_EQ(R.State.V[14][0], 0u); // 2^32 wraps
  EXPECT_EQ(R.State.V[15][0], 2u);
  EXPECT_EQ(R.State.V[16][0], 0xfffffffeu); // (2^32-1)^2 >> 32
}

// V_LSHL_ADD_U64 (CDNA3 ISA): D.u64 = (S0.u64 << S1.u[2:0]) + S2.u64.
TEST(EmuValu, LshlAdd64) {
  Snip T;
  T.v(4, {0xffffffffu, 1, 0x89abcdefu, 1, 3, 3, 0xffffffffu}); // S0 lo
  T.v(5, {0, 0x80000000u, 0x01234567u, 0, 0, 0, 0xffffffffu}); // S0 hi
  T.v(6, {0, 1, 4, 7, 8, 9, 0xffffffffu});                     // S1
  T.v(8, {1, 0, 0x10, 0xffffffffu, 0, 0, 0x80});               // S2 lo
  T.v(9, {0, 0, 0, 0xffffffffu, 0, 0, 0});                     // S2 hi
  T.S.S[4] = 0x80000001u;
  T.S.S[5] = 0;
  auto R = T.run({"v_lshl_add_u64 v[10:11], v[4:5], v6, v[8:9]",
                  "v_lshl_add_u64 v[12:13], s[4:5], 3, v[8:9]",
                  "v_lshl_add_u64 v[14:15], v[4:5], 0, s[4:5]"});
  RUN_OK(R);
  auto D = [&](unsigned Reg, unsigned L) {
    return uint64_t(R.State.V[Reg][L]) | uint64_t(R.State.V[Reg + 1][L]) << 32;
  };
  EXPECT_EQ(D(10, 0), 0x100000000ull); // carry into the high dword
  EXPECT_EQ(D(10, 1), 2ull);           // bit 63 shifted out
  EXPECT_EQ(D(10, 2), 0x123456789abcdf00ull);
  EXPECT_EQ(D(10, 3), 0x7full);        // 0x80 + 2^64 - 1 wraps
  EXPECT_EQ(D(10, 4), 3ull);           // 8 & 7 = 0
  EXPECT_EQ(D(10, 5), 6ull);           // 9 & 7 = 1
  EXPECT_EQ(D(10, 6), 0ull);           // 2^64 - 0x80 + 0x80 wraps
  EXPECT_EQ(D(12, 0), 0x400000009ull); // 0x80000001 << 3, + 1
  EXPECT_EQ(D(12, 3), 0x400000007ull); // + 2^64 - 1
  EXPECT_EQ(D(14, 2), 0x0123456809abcdf0ull);
}

// Shift counts from an SGPR or a constant (one count for every lane, a
// path of its own in the emulator): only the count's low 5 (32-bit) or 6
// (64-bit) bits are used (CDNA3 ISA, V_LSHLREV_B32 ... V_ASHRREV_I64), 3
// for V_LSHL_ADD_U64; lane values and a partial EXEC as for VGPR counts.
TEST(EmuValu, UniformShiftCounts) {
  Snip T;
  T.v(1, {0x80000001u, 0xf0000000u, 7});
  T.v(2, {0x7fffffffu, 0x80000000u, 0xdead}); // overwritten in lanes 0, 1
  T.v(4, {0x00000003u, 0x80000000u});
  T.v(5, {0x80000000u, 0xffffffffu});
  T.S.S[4] = 33; // 33 & 31 = 1, 33 & 63 = 33
  T.S.S[5] = 32; // & 31 = 0
  T.S.S[6] = 65; // & 63 = 1
  T.S.S[7] = 9;  // & 7 = 1
  T.S.Exec = 0x3;
  auto R =
      T.run({"v_lshrrev_b32_e32 v2, s4, v1", "v_lshlrev_b32_e32 v3, s5, v1",
             "v_ashrrev_i32_e32 v6, s4, v1", "v_ashrrev_i64 v[8:9], s6, v[4:5]",
             "v_lshrrev_b64 v[10:11], 32, v[4:5]",
             "v_lshlrev_b64 v[12:13], s4, v[4:5]",
             "v_lshl_add_u64 v[14:15], v[4:5], s7, v[4:5]"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0x40000000u);
  EXPECT_EQ(R.State.V[2][1], 0x78000000u);
  EXPECT_EQ(R.State.V[2][2], 0xdeadu); // inactive lane kept
  EXPECT_EQ(R.State.V[3][0], 0x80000001u);
  EXPECT_EQ(R.State.V[6][0], 0xc0000000u);
  EXPECT_EQ(R.State.V[6][1], 0xf8000000u);
  // v[4:5] lane 0 = 0x8000000000000003, lane 1 = 0xffffffff80000000.
  EXPECT_EQ(R.State.V[8][0], 0x00000001u);
  EXPECT_EQ(R.State.V[9][0], 0xc0000000u);
  EXPECT_EQ(R.State.V[8][1], 0xc0000000u);
  EXPECT_EQ(R.State.V[9][1], 0xffffffffu);
  EXPECT_EQ(R.State.V[10][0], 0x80000000u);
  EXPECT_EQ(R.State.V[11][0], 0u);
  EXPECT_EQ(R.State.V[12][0], 0u); // << 33
  EXPECT_EQ(R.State.V[13][0], 6u);
  EXPECT_EQ(R.State.V[14][0], 9u); // 3 * x, wrapping: 0x8000000000000009
  EXPECT_EQ(R.State.V[15][0], 0x80000000u);
  EXPECT_EQ(R.State.V[14][1], 0x80000000u); // 3 * 0xffffffff80000000
  EXPECT_EQ(R.State.V[15][1], 0xfffffffeu);
}

TEST(EmuValu, BitfieldPermAlign) {
  Snip T;
  T.v(0, {0x12345678});
  T.v(1, {0x9abcdef0});
  T.S.S[10] = 0xf0;
  T.S.S[11] = 0xff00ff00u;
  T.S.S[12] = 0x07060504;
  T.S.S[13] = 0x0c0d0800;
  auto R = T.run({"v_bfe_u32 v2, v0, 4, 0", "v_bfe_i32 v3, s10, 4, 4",
                  "v_bfi_b32 v4, s11, v0, v1",
                  "v_perm_b32 v5, v0, v1, s12",
                  "v_perm_b32 v6, v0, v1, s13",
                  "v_alignbit_b32 v7, v0, v1, 4",
                  "v_alignbyte_b32 v8, v0, v1, 1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0u);          // width 0
  EXPECT_EQ(R.State.V[3][0], 0xffffffffu); // 0xf as signed 4-bit
  EXPECT_EQ(R.State.V[4][0], 0x12bc56f0u);
  EXPECT_EQ(R.State.V[5][0], 0x12345678u); // bytes 4-7 = S0
  // selectors (msb first): 0x0c -> 0x00, 0x0d -> 0xff, 0x08 -> sign of
  // byte 1 (S1 bit 15: 0xde -> 1 -> 0xff), 0x00 -> byte 0 of S1 (0xf0)
  EXPECT_EQ(R.State.V[6][0], 0x00ffffF0u);
  EXPECT_EQ(R.State.V[7][0], 0x89abcdefu);
  EXPECT_EQ(R.State.V[8][0], 0x789abcdeu);
}

TEST(EmuValu, SadAndLanes) {
  Snip T;
  T.S.Exec = ~0ull;
  for (unsigned L = 0; L < 64; ++L)
    T.S.V[0][L] = L * 10;
  T.S.S[14] = 0x01020304;
  T.S.S[15] = 0x04030201;
  T.v(5, {0x04030201});
  auto R = T.run({"v_sad_u8 v2, s14, v5, 10",
                  "v_readlane_b32 s0, v0, 5", "s_mov_b64 exec, 1",
                  "v_writelane_b32 v3, 7, 63", "s_mov_b64 exec, -1",
                  "v_mbcnt_lo_u32_b32 v4, -1, 0",
                  "v_mbcnt_hi_u32_b32 v4, -1, v4"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 18u); // 3+1+1+3 + 10
  EXPECT_EQ(R.State.S[0], 50u);
  EXPECT_EQ(R.State.V[3][63], 7u); // writelane ignores EXEC
  for (unsigned L = 0; L < 64; ++L)
    EXPECT_EQ(R.State.V[4][L], L); // lane id
}

TEST(EmuValu, CndmaskHonoursExec) {
  Snip T;
  T.S.Exec = 0b0101;
  T.S.S[106] = 0b0011;
  T.v(0, {10, 11, 12, 13});
  T.v(1, {20, 21, 22, 23});
  T.v(2, {99, 99, 99, 99});
  auto R = T.run({"v_cndmask_b32_e32 v2, v0, v1, vcc"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 20u); // vcc set: src1
  EXPECT_EQ(R.State.V[2][1], 99u); // inactive
  EXPECT_EQ(R.State.V[2][2], 12u); // vcc clear: src0
  EXPECT_EQ(R.State.V[2][3], 99u);
}

//===----------------------------------------------------------------------===//
// VALU float
//===----------------------------------------------------------------------===//

TEST(EmuValuFloat, ConvertSaturates) {
  Snip T;
  T.v(0, {0x7fc00000u, fbits(INFINITY), fbits(-INFINITY), fbits(2147483648.0f),
          fbits(-1.5f), fbits(-1.0f), fbits(4294967296.0f)});
  T.S.Exec = 0x7f;
  auto R = T.run({"v_cvt_i32_f32_e32 v1, v0", "v_cvt_u32_f32_e32 v2, v0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[1][0], 0u);          // NaN
  EXPECT_EQ(R.State.V[1][1], 0x7fffffffu); // +inf
  EXPECT_EQ(R.State.V[1][2], 0x80000000u); // -inf
  EXPECT_EQ(R.State.V[1][3], 0x7fffffffu); // 2^31
  EXPECT_EQ(R.State.V[1][4], 0xffffffffu); // trunc(-1.5) = -1
  EXPECT_EQ(R.State.V[2][5], 0u);          // -1 -> 0
  EXPECT_EQ(R.State.V[2][6], 0xffffffffu); // 2^32 saturates
}

TEST(EmuValuFloat, MinMaxZerosAndNaNs) {
  Snip T;
  T.v(0, {0x80000000u, 0x7fc00000u, 0x7f800001u});
  T.v(1, {0x00000000u, fbits(1.0f), fbits(1.0f)});
  T.S.Exec = 7;
  auto R = T.run({"v_max_f32_e32 v2, v0, v1", "v_min_f32_e32 v3, v0, v1",
                  "v_max_f32_e32 v4, v1, v0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0x00000000u); // max(-0, +0) = +0
  EXPECT_EQ(R.State.V[4][0], 0x00000000u);
  EXPECT_EQ(R.State.V[3][0], 0x80000000u); // min(-0, +0) = -0
  EXPECT_EQ(R.State.V[2][1], fbits(1.0f)); // quiet NaN: the number
  EXPECT_EQ(R.State.V[2][2], 0x7fc00001u); // IEEE mode: sNaN -> quiet NaN
}

TEST(EmuValuFloat, DenormalsFmaAndLegacyMul) {
  Snip T;
  T.v(0, {1, 0x3f800001u, 0, 0});
  T.v(1, {1, 0x3f800001u, fbits(INFINITY), fbits(INFINITY)});
  T.v(2, {0, 0xbf800002u});
  T.S.Exec = 0xf;
  auto R = T.run({"v_add_f32_e32 v3, v0, v1", "v_fma_f32 v4, v0, v1, v2",
                  "v_mul_f32_e32 v5, v0, v1", "v_add_f32_e32 v5, v5, v2",
                  "v_mul_legacy_f32 v6, v0, v1", "v_mul_f32_e32 v7, v0, v1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[3][0], 2u); // denormals are kept (MODE f32 denorm on)
  // (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly with one rounding
  EXPECT_EQ(R.State.V[4][1], 0x28800000u);
  EXPECT_EQ(R.State.V[5][1], 0u); // separately rounded: 0
  EXPECT_EQ(R.State.V[6][2], 0u); // legacy: 0 * inf = 0
  EXPECT_TRUE(std::isnan([&] {
    float F;
    std::memcpy(&F, &R.State.V[7][3], 4);
    return F;
  }()));
}

TEST(EmuValuFloat, Modifiers) {
  Snip T;
  T.v(0, {fbits(1.0f), fbits(0.75f)});
  T.v(1, {fbits(-2.0f), fbits(0.75f)});
  T.S.Exec = 3;
  auto R = T.run({"v_add_f32_e64 v2, -v0, |v1|", "v_add_f32_e64 v3, v0, v1 clamp",
                  "v_add_f32_e64 v4, v0, v1 mul:2", "v_add_f32_e64 v5, v0, v1 div:2"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], fbits(1.0f)); // -1 + 2
  EXPECT_EQ(R.State.V[3][1], fbits(1.0f)); // 1.5 clamped
  EXPECT_EQ(R.State.V[3][0], 0u);          // -1 clamped to +0
  EXPECT_EQ(R.State.V[4][1], fbits(3.0f));
  EXPECT_EQ(R.State.V[5][1], fbits(0.75f));
}

// The same output modifiers and clamp on f64 and f16 results (each width
// has its own path in applyOmodClamp).
TEST(EmuValuFloat, ModifiersF64F16) {
  auto dbits = [](double D) {
    uint64_t X;
    std::memcpy(&X, &D, 8);
    return X;
  };
  Snip T;
  // f64 operands 1.5 and -2.75 in v[0:1], v[2:3]; f16 1.5 (0x3e00) and
  // -2.75 (0xc180) in v6, v7.
  T.v(0, {uint32_t(dbits(1.5))});
  T.v(1, {uint32_t(dbits(1.5) >> 32)});
  T.v(2, {uint32_t(dbits(-2.75))});
  T.v(3, {uint32_t(dbits(-2.75) >> 32)});
  T.v(6, {0x3e00});
  T.v(7, {0xc180});
  T.S.Exec = 1;
  auto R = T.run({"v_add_f64 v[8:9], v[0:1], v[0:1] mul:4",
                  "v_add_f64 v[10:11], v[0:1], v[2:3] clamp",
                  "v_add_f64 v[12:13], v[0:1], v[0:1] clamp div:2",
                  "v_add_f16_e64 v14, v6, v7 mul:2",
                  "v_add_f16_e64 v15, v6, v6 clamp",
                  "v_add_f16_e64 v16, v6, v7 div:2"});
  RUN_OK(R);
  auto d = [&](unsigned Lo) {
    return uint64_t(R.State.V[Lo][0]) | uint64_t(R.State.V[Lo + 1][0]) << 32;
  };
  EXPECT_EQ(d(8), dbits(12.0));                  // (1.5 + 1.5) * 4
  EXPECT_EQ(d(10), dbits(0.0));                  // -1.25 clamped to +0
  EXPECT_EQ(d(12), dbits(1.0));                  // 1.5 clamped
  EXPECT_EQ(R.State.V[14][0] & 0xffff, 0xc100u); // -1.25 * 2 = -2.5
  EXPECT_EQ(R.State.V[15][0] & 0xffff, 0x3c00u); // 3 clamped to 1
  EXPECT_EQ(R.State.V[16][0] & 0xffff, 0xb900u); // -1.25 / 2 = -0.625
}

TEST(EmuValuFloat, HalfConversions) {
  Snip T;
  T.v(0, {fbits(1.0f + 0x1p-11f), fbits(1.0f + 3 * 0x1p-11f), fbits(65520.0f),
          fbits(0x1p-25f), fbits(0.75f * 0x1p-24f), fbits(-0.0f)});
  T.v(1, {0x0001, 0x7c00, 0xfc00, 0x3c00});
  T.S.Exec = 0x3f;
  auto R = T.run({"v_cvt_f16_f32_e32 v2, v0", "v_cvt_f32_f16_e32 v3, v1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0] & 0xffff, 0x3c00u); // tie to even: 1.0
  EXPECT_EQ(R.State.V[2][1] & 0xffff, 0x3c02u); // tie to even: 1+2^-9
  EXPECT_EQ(R.State.V[2][2] & 0xffff, 0x7c00u); // overflow: inf
  EXPECT_EQ(R.State.V[2][3] & 0xffff, 0x0000u); // 2^-25: tie to even 0
  EXPECT_EQ(R.State.V[2][4] & 0xffff, 0x0001u); // 0.75*2^-24 -> 2^-24
  EXPECT_EQ(R.State.V[2][5] & 0xffff, 0x8000u); // -0
  EXPECT_EQ(R.State.V[3][0], 0x33800000u);      // 2^-24
  EXPECT_EQ(R.State.V[3][1], fbits(INFINITY));
  EXPECT_EQ(R.State.V[3][2], fbits(-INFINITY));
  EXPECT_EQ(R.State.V[3][3], fbits(1.0f));
}

TEST(EmuValuFloat, FrexpLdexpClass) {
  Snip T;
  T.v(0, {fbits(8.0f), fbits(INFINITY), fbits(-INFINITY), 0x7fc00000u});
  T.S.Exec = 0xf;
  T.S.S[16] = uint32_t(-149);
  T.S.S[17] = 128;
  auto R = T.run({"v_frexp_mant_f32_e32 v1, v0", "v_frexp_exp_i32_f32_e32 v2, v0",
                  "v_ldexp_f32 v3, 1.0, s17", "v_ldexp_f32 v4, 1.0, s16",
                  "v_cmp_class_f32_e64 s[0:1], v0, 4",
                  "v_cmp_u_f32_e64 s[2:3], v0, v0",
                  "v_cmp_lt_f32_e64 s[4:5], v0, 1.0",
                  "v_cmp_nge_f32_e64 s[6:7], v0, 1.0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[1][0], fbits(0.5f));
  EXPECT_EQ(R.State.V[1][1], fbits(INFINITY)); // inf passes through
  EXPECT_EQ(R.State.V[2][0], 4u);
  EXPECT_EQ(R.State.V[3][0], fbits(INFINITY)); // 2^128 overflows
  EXPECT_EQ(R.State.V[4][0], 1u);              // 2^-149: smallest denormal
  EXPECT_EQ(R.State.S[0], 0b0100u);            // class bit 2: -inf
  EXPECT_EQ(R.State.S[2], 0b1000u);            // unordered: NaN lane
  EXPECT_EQ(R.State.S[4], 0b0100u);            // -inf < 1; NaN false
  EXPECT_EQ(R.State.S[6], 0b1100u);            // !(x >= 1): -inf and NaN
}

//===----------------------------------------------------------------------===//
// DPP / SDWA
//===----------------------------------------------------------------------===//

TEST(EmuCrossLane, DppRowShr) {
  Snip T;
  for (unsigned L = 0; L < 64; ++L) {
    T.S.V[0][L] = 100 + L;
    T.S.V[2][L] = 0xdead;
    T.S.V[3][L] = 0xdead;
  }
  auto R = T.run({"v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf",
                  "v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0xf bank_mask:0xf "
                  "bound_ctrl:0",
                  "v_mov_b32_dpp v4, v0 row_bcast:15 row_mask:0xa bank_mask:0xf"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0xdeadu); // invalid source: lane not written
  EXPECT_EQ(R.State.V[2][1], 100u);
  EXPECT_EQ(R.State.V[2][16], 0xdeadu); // row boundary
  EXPECT_EQ(R.State.V[2][17], 116u);
  EXPECT_EQ(R.State.V[3][0], 0u); // bound_ctrl: invalid source reads 0
  EXPECT_EQ(R.State.V[4][16], 115u); // lane 15 broadcast into row 1
  EXPECT_EQ(R.State.V[4][0], 0u);    // row 0 masked (row_mask 0xa)
  EXPECT_EQ(R.State.V[4][48], 147u); // lane 47 into row 3
}

TEST(EmuCrossLane, SdwaSelects) {
  Snip T;
  T.v(0, {0x11223344});
  T.v(2, {0xaaaabbbb});
  T.S.Exec = 1;
  auto R = T.run({"v_mov_b32_sdwa v2, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
                  "src0_sel:BYTE_1",
                  "v_mov_b32_sdwa v3, v0 dst_sel:BYTE_0 dst_unused:UNUSED_PAD "
                  "src0_sel:BYTE_3"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][0], 0x0033bbbbu);
  EXPECT_EQ(R.State.V[3][0], 0x00000011u);
}

//===----------------------------------------------------------------------===//
// Memory, scoreboard and failure modes
//===----------------------------------------------------------------------===//

struct MemSnip : Snip {
  Memory M;
  Region *Buf = nullptr;
  MemSnip() {
    Buf = *M.map(0x10000, 256, PermRW, "buf");
    auto *RO = *M.map(0x20000, 256, PermRead, "ro");
    (void)RO;
    for (unsigned K = 0; K < 64; ++K) {
      uint32_t V = 1000 + K;
      std::memcpy(Buf->Data.data() + 4 * K, &V, 4);
    }
    Mem = &M;
    S.S[0] = 0x10000;
    S.S[1] = 0;
    S.S[2] = 0x20000;
    S.S[3] = 0;
    S.Exec = 0xf;
    for (unsigned L = 0; L < 64; ++L)
      S.V[0][L] = 4 * L;
  }
};

TEST(EmuMemory, LoadNeedsWaitcnt) {
  MemSnip T;
  auto R = T.run({"global_load_dword v1, v0, s[0:1]", "s_waitcnt vmcnt(0)",
                  "v_add_u32_e32 v2, 1, v1"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[2][3], 1004u);
  R = T.run({"global_load_dword v1, v0, s[0:1]", "v_add_u32_e32 v2, 1, v1"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  EXPECT_NE(R.Run.Message.find("reads v1 (lane 0)"), std::string::npos)
      << R.Run.Message;
  // vmcnt counts in order: vmcnt(1) covers the older load only.
  R = T.run({"global_load_dword v1, v0, s[0:1]",
             "global_load_dword v3, v0, s[0:1] offset:4", "s_waitcnt vmcnt(1)",
             "v_mov_b32_e32 v4, v1", "v_mov_b32_e32 v5, v3"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  EXPECT_NE(R.Run.Message.find("v_mov_b32_e32 v5, v3"), std::string::npos)
      << R.Run.Message;
}

// d16_hi stores write the high half of the data register (they used to
// take it from uninitialized bytes: found by the corpus pipeline run).
TEST(EmuMemory, StoreD16Hi) {
  MemSnip T;
  auto R = T.run({"v_mov_b32_e32 v1, 0xabcd1234",
                  "global_store_short_d16_hi v0, v1, s[0:1] offset:2",
                  "global_store_byte_d16_hi v0, v1, s[0:1] offset:64"});
  RUN_OK(R);
  uint16_t H;
  std::memcpy(&H, T.Buf->Data.data() + 2, 2);
  EXPECT_EQ(H, 0xabcdu);
  EXPECT_EQ(T.Buf->Data[64], 0xcdu);
  // The bytes next to the stored ones keep their values (1000 = 0x3e8).
  EXPECT_EQ(T.Buf->Data[0], 0xe8u);
  EXPECT_EQ(T.Buf->Data[65], 0x03u); // 1016 = 0x3f8 at 64: byte 1 is 0x03
  R = T.run({"v_mov_b32_e32 v1, 0x5678beef", "v_mov_b32_e32 v2, 0",
             "ds_write_b16_d16_hi v2, v1 offset:8", "s_waitcnt lgkmcnt(0)",
             "ds_read_u16 v3, v2 offset:8", "s_waitcnt lgkmcnt(0)"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[3][0], 0x5678u);
}

// D16 loads: without SRAM ECC ("-sramecc") the unused half of the
// destination is kept, as LLVM assumes (GCNSubtarget::
// d16PreservesUnusedBits); with it on or "any" the hardware's unused half is
// not specified: zeroed in plain runs and kept when a verifier's observer
// asks for the other rule (docs/emulator.md). Each rule is exact, so the
// loads are counted apart from the approximate opcodes.
struct D16Form {
  const char *Load; // "<load> v1, <addr>"
  bool Hi;          // writes the high half
  uint16_t Value;   // the 16 bits it writes (hand-derived)
};
// Global buffer word 0 is 1000 = 0x000003e8; LDS bytes 8..9 are 0x34 0x12
// and byte 10 is 0x80.
const D16Form D16Forms[] = {
    {"global_load_short_d16 v1, v0, s[0:1]", false, 0x03e8},
    {"global_load_short_d16_hi v1, v0, s[0:1]", true, 0x03e8},
    {"global_load_ubyte_d16 v1, v0, s[0:1]", false, 0x00e8},
    {"global_load_sbyte_d16_hi v1, v0, s[0:1]", true, 0xffe8},
    {"ds_read_u16_d16 v1, v2 offset:8", false, 0x1234},
    {"ds_read_u16_d16_hi v1, v2 offset:8", true, 0x1234},
    {"ds_read_i8_d16 v1, v2 offset:10", false, 0xff80},
    {"ds_read_u8_d16_hi v1, v2 offset:10", true, 0x0080},
};

struct D16Snip : MemSnip {
  explicit D16Snip(const char *Features) {
    S.Features = Features;
    for (unsigned L = 0; L < 64; ++L) {
      S.V[1][L] = 0xaaaa5555u;
      S.V[2][L] = 0; // LDS address
    }
    S.Lds[8] = 0x34;
    S.Lds[9] = 0x12;
    S.Lds[10] = 0x80;
  }
  // Lane 0's v1 after the load (lane 4 is inactive: EXEC = 0xf).
  uint32_t load(const D16Form &F) {
    auto R = run({F.Load, "s_waitcnt vmcnt(0) lgkmcnt(0)"});
    EXPECT_TRUE(R.Run.ok()) << F.Load << ": " << R.Run.Message;
    EXPECT_EQ(R.State.V[1][4], 0xaaaa5555u) << F.Load;
    return R.State.V[1][0];
  }
};

uint32_t d16Expect(const D16Form &F, uint32_t Other) {
  return F.Hi ? uint32_t(F.Value) << 16 | (Other & 0xffff)
              : (Other & 0xffff0000u) | F.Value;
}

TEST(EmuMemory, D16KeepsUnusedHalfWithoutSramEcc) {
  for (const char *CPU : {"gfx942", "gfx90a"}) {
    D16Snip T("-sramecc");
    T.CPU = CPU;
    for (const D16Form &F : D16Forms)
      EXPECT_EQ(T.load(F), d16Expect(F, 0xaaaa5555u)) << CPU << " " << F.Load;
    // Exact here: not refused as approximate.
    T.Opts.RefuseApproximate = true;
    EXPECT_EQ(T.load(D16Forms[0]), d16Expect(D16Forms[0], 0xaaaa5555u));
  }
}

TEST(EmuMemory, D16ZeroesUnusedHalfUnderSramEcc) {
  for (const char *Features : {"+sramecc", "", "+sramecc,-xnack"}) {
    D16Snip T(Features);
    for (const D16Form &F : D16Forms)
      EXPECT_EQ(T.load(F), d16Expect(F, 0)) << Features << " " << F.Load;
    auto Counted = T.run({D16Forms[0].Load, "ds_read_u16_d16 v3, v2 offset:8",
                          "s_waitcnt vmcnt(0) lgkmcnt(0)"});
    RUN_OK(Counted);
    EXPECT_EQ(Counted.Run.D16UnspecifiedLoads, 2u) << Features;
    EXPECT_TRUE(Counted.Run.ApproximateOps.empty()) << Features;
    // Not specified bit for bit: refused on request.
    T.Opts.RefuseApproximate = true;
    for (const D16Form &F : D16Forms) {
      auto R = T.run({F.Load, "s_waitcnt vmcnt(0) lgkmcnt(0)"});
      EXPECT_EQ(R.Run.Kind, ErrorKind::Approximate) << F.Load;
    }
  }
}

// A verifier's observer asks for the other rule: the unused half is kept.
TEST(EmuMemory, D16KeepsUnusedHalfWhenObserverAsks) {
  struct KeepD16 : Memory::Observer {
    unsigned Asked = 0, Approx = 0;
    Region *access(Memory &M, uint64_t A, uint64_t L, bool) override {
      return M.find(A, L);
    }
    uint32_t approx(uint64_t, unsigned, unsigned, uint64_t) override {
      ++Approx;
      return 0;
    }
    bool keepD16Unused() override {
      ++Asked;
      return true;
    }
  } Obs;
  for (const char *Features : {"+sramecc", ""}) {
    D16Snip T(Features);
    T.M.Obs = &Obs;
    Obs.Asked = Obs.Approx = 0;
    for (const D16Form &F : D16Forms)
      EXPECT_EQ(T.load(F), d16Expect(F, 0xaaaa5555u))
          << Features << " " << F.Load;
    // Each load asked for the rule (once per wave); none is an approximate
    // operation, whose operands a strict verifier would compare.
    EXPECT_EQ(Obs.Asked, std::size(D16Forms)) << Features;
    EXPECT_EQ(Obs.Approx, 0u) << Features;
    T.M.Obs = nullptr;
  }
}

// Stores and full-width loads are not affected by the setting.
TEST(EmuMemory, D16StoresAndWideLoadsUnderSramEcc) {
  D16Snip T("");
  T.Opts.RefuseApproximate = true;
  auto R = T.run({"global_store_short_d16_hi v0, v1, s[0:1] offset:2",
                  "global_load_ushort v3, v0, s[0:1]", "s_waitcnt vmcnt(0)"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[3][0], 0x03e8u);
  uint16_t H;
  std::memcpy(&H, T.Buf->Data.data() + 2, 2);
  EXPECT_EQ(H, 0xaaaau);
}

TEST(EmuMemory, SmemOutOfOrder) {
  MemSnip T;
  auto R = T.run({"s_load_dword s4, s[0:1], 0x0", "ds_read_b32 v1, v0",
                  "s_waitcnt lgkmcnt(1)", "v_mov_b32_e32 v2, v1"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race) << R.Run.Message; // SMEM may land last
  R = T.run({"s_load_dword s4, s[0:1], 0x0", "s_load_dword s5, s[0:1], 0x4",
             "s_waitcnt lgkmcnt(1)", "s_mov_b32 s6, s4"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race) << R.Run.Message;
  R = T.run({"s_load_dword s4, s[0:1], 0x0", "s_load_dword s5, s[0:1], 0x4",
             "s_waitcnt lgkmcnt(0)", "s_add_u32 s6, s4, s5"});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[6], 2001u);
  // In-order LDS: lgkmcnt(1) after two ds_reads covers the first.
  R = T.run({"ds_read_b32 v1, v0", "ds_read_b32 v2, v0 offset:4",
             "s_waitcnt lgkmcnt(1)", "v_mov_b32_e32 v3, v1"});
  RUN_OK(R);
}

TEST(EmuMemory, Faults) {
  MemSnip T;
  auto R = T.run({"global_load_dword v1, v0, s[0:1] offset:256"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  EXPECT_NE(R.Run.Message.find("address 0x10100 (lane 0)"), std::string::npos)
      << R.Run.Message;
  R = T.run({"global_store_dword v0, v0, s[2:3]"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  EXPECT_NE(R.Run.Message.find("read-only"), std::string::npos) << R.Run.Message;
  // Misaligned LDS: a fault in the strict mode only (LdsAlignTest.cpp).
  T.Opts.StrictLdsAlignment = true;
  R = T.run({"v_mov_b32_e32 v1, 2", "ds_write_b32 v1, v0"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  EXPECT_NE(R.Run.Message.find("misaligned LDS"), std::string::npos)
      << R.Run.Message;
  T.Opts.StrictLdsAlignment = false;
  R = T.run({"v_mov_b32_e32 v1, 0x10000", "ds_write_b32 v1, v0"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
}

TEST(EmuMemory, BudgetAndUnsupported) {
  Snip T;
  T.Opts.Budget = 500;
  auto R = T.run({"s_branch 0xffff"}); // branch to itself
  EXPECT_EQ(R.Run.Kind, ErrorKind::Budget) << R.Run.Message;
  R = T.run({"v_cvt_pknorm_i16_f32 v0, v1, v2"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported);
  EXPECT_NE(R.Run.Message.find("v_cvt_pknorm_i16_f32"), std::string::npos)
      << R.Run.Message;
  T.Opts.RefuseApproximate = true;
  R = T.run({"v_exp_f32_e32 v0, v1"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Approximate) << R.Run.Message;
}

TEST(EmuMemory, LdsAtomicsAndPermute) {
  Snip T;
  T.S.Exec = ~0ull;
  for (unsigned L = 0; L < 64; ++L) {
    T.S.V[0][L] = 0;      // all lanes: address 0
    T.S.V[1][L] = L + 1;  // add values
    T.S.V[2][L] = (63 - L) * 4;
  }
  auto R = T.run({"ds_add_u32 v0, v1", "s_waitcnt lgkmcnt(0)",
                  "ds_read_b32 v3, v0", "ds_bpermute_b32 v4, v2, v1",
                  "s_waitcnt lgkmcnt(0)"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[3][5], 64u * 65 / 2);
  EXPECT_EQ(R.State.V[4][0], 64u); // lane 0 reads lane 63's value
}

TEST(EmuTarget, Gfx90aRuns) {
  Snip T;
  T.CPU = "gfx90a";
  T.v(0, {5});
  T.S.Exec = 1;
  auto R = T.run({"v_add_u32_e32 v1, 7, v0"});
  RUN_OK(R);
  EXPECT_EQ(R.State.V[1][0], 12u);
}

} // namespace

namespace {
TEST(EmuValu, DotProducts) {
  Snip T;
  T.v(0, {0x80ff0102u}); // bytes (lsb first): 2, 1, -1, -128
  T.v(1, {0x7f020304u}); // 4, 3, 2, 127
  T.v(2, {10});
  T.S.Exec = 1;
  auto R = T.run({"v_dot4c_i32_i8_e32 v2, v0, v1"});
  ASSERT_TRUE(R.Run.ok()) << R.Run.Message;
  // 10 + 2*4 + 1*3 + (-1)*2 + (-128)*127 = 10 + 8 + 3 - 2 - 16256
  EXPECT_EQ(int32_t(R.State.V[2][0]), -16237);
}

// Integer clamp of the dot products: exact when the positive and the
// negative terms each sum into the destination's range (no partial sum can
// saturate, whatever the order), refused otherwise; every integer dot opcode
// the emulator implements, on both targets.
TEST(EmuValu, DotProductClamp) {
  for (const char *CPU : {"gfx942", "gfx90a"}) {
    SCOPED_TRACE(CPU);
    auto run = [&](const std::string &Line, uint32_t A, uint32_t B,
                   uint32_t C) {
      Snip T;
      T.CPU = CPU;
      T.v(0, {A});
      T.v(1, {B});
      T.v(2, {C});
      T.S.Exec = 1;
      return T.run({Line});
    };
    const uint32_t A = 0x80ff0102u, B = 0x7f020304u; // +8 +3 -2 -16256
    // In range with clamp: the exact sum.
    auto R = run("v_dot4_i32_i8 v3, v0, v1, v2 clamp", A, B, 10);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), -16237);
    // Positive terms reach INT32_MAX exactly: still in range.
    R = run("v_dot4_i32_i8 v3, v0, v1, v2 clamp", A, B, INT32_MAX - 11);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), INT32_MAX - 11 - 16247);
    // One more and acc + 8 + 3 passes INT32_MAX: saturating after each
    // partial sum in that order gives INT32_MAX - 16258, once at the end
    // INT32_MAX - 16247. Refused.
    R = run("v_dot4_i32_i8 v3, v0, v1, v2 clamp", A, B, INT32_MAX - 10);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    EXPECT_NE(R.Run.Message.find("order of saturation"), std::string::npos)
        << R.Run.Message;
    // Without clamp the same sum wraps, in any order.
    R = run("v_dot4_i32_i8 v3, v0, v1, v2", A, B, INT32_MAX - 10);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), INT32_MAX - 10 - 16247);
    R = run("v_dot4c_i32_i8_e64 v2, v0, v1 clamp", A, B, 10);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[2][0]), -16237);
    R = run("v_dot4c_i32_i8_e64 v2, v0, v1 clamp", A, B, INT32_MAX - 10);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    // Negative side: acc - 2 - 16256 below INT32_MIN is refused even though
    // the final sum (+ 11) would not be.
    R = run("v_dot4_i32_i8 v3, v0, v1, v2 clamp", A, B,
            uint32_t(INT32_MIN + 16257));
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    R = run("v_dot4_i32_i8 v3, v0, v1, v2 clamp", A, B,
            uint32_t(INT32_MIN + 16258));
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), INT32_MIN + 16258 - 16247);

    // Unsigned: 1*4 + 2*3 + 3*2 + 4*1 = 20.
    const uint32_t UA = 0x04030201u, UB = 0x01020304u;
    R = run("v_dot4_u32_u8 v3, v0, v1, v2 clamp", UA, UB, UINT32_MAX - 20);
    RUN_OK(R);
    EXPECT_EQ(R.State.V[3][0], UINT32_MAX);
    R = run("v_dot4_u32_u8 v3, v0, v1, v2 clamp", UA, UB, UINT32_MAX - 19);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    R = run("v_dot4_u32_u8 v3, v0, v1, v2", UA, UB, UINT32_MAX - 19);
    RUN_OK(R);
    EXPECT_EQ(R.State.V[3][0], 0u); // wraps
    // 0xffff * 0x2 + 0x3 * 0x4 = 131082.
    R = run("v_dot2_u32_u16 v3, v0, v1, v2 clamp", 0x0003ffffu, 0x00040002u, 5);
    RUN_OK(R);
    EXPECT_EQ(R.State.V[3][0], 131087u);
    R = run("v_dot2_u32_u16 v3, v0, v1, v2 clamp", 0xffffffffu, 0xffffffffu, 0);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    // u4: 15*15 * 8 = 1800.
    R = run("v_dot8_u32_u4 v3, v0, v1, v2 clamp", 0xffffffffu, 0xffffffffu, 7);
    RUN_OK(R);
    EXPECT_EQ(R.State.V[3][0], 1807u);
    R = run("v_dot8_u32_u4 v3, v0, v1, v2 clamp", 0xffffffffu, 0xffffffffu,
            UINT32_MAX - 1799);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;

    // i16: (-32768)^2 twice is 2^31: the products alone pass INT32_MAX, so a
    // negative accumulator does not help (any grouping may add them first).
    R = run("v_dot2_i32_i16 v3, v0, v1, v2 clamp", 0x80008000u, 0x80008000u,
            uint32_t(-5));
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
    R = run("v_dot2_i32_i16 v3, v0, v1, v2", 0x80008000u, 0x80008000u,
            uint32_t(-5));
    RUN_OK(R);
    EXPECT_EQ(R.State.V[3][0], 0x7ffffffbu);
    // -2 * 3 + 5 * -7 = -41.
    R = run("v_dot2_i32_i16 v3, v0, v1, v2 clamp", 0x0005fffeu, 0xfff90003u,
            100);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), 59);
    // i4: nibbles (lsb first) 7, -8, 1, 0... times 7, 7, -1, 0...:
    // 49 - 56 - 1 = -8.
    R = run("v_dot8_i32_i4 v3, v0, v1, v2 clamp", 0x00000187u, 0x00000f77u, 3);
    RUN_OK(R);
    EXPECT_EQ(int32_t(R.State.V[3][0]), -5);
    R = run("v_dot8_i32_i4 v3, v0, v1, v2 clamp", 0x00000187u, 0x00000f77u,
            INT32_MAX - 48);
    EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  }
}
} // namespace

namespace {
TEST(EmuMemory, LdsDmaNeedsVmcnt) {
  MemSnip T;
  T.S.Exec = ~0ull;
  T.S.S[124] = 64; // M0: LDS base
  // V# over buf: base 0x10000, num_records 256, raw.
  T.S.S[8] = 0x10000;
  T.S.S[9] = 0;
  T.S.S[10] = 256;
  T.S.S[11] = 0x00027000;
  auto R = T.run({"buffer_load_dword v0, s[8:11], 0 offen lds",
                  "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v1, 64",
                  "ds_read_b32 v2, v1 offset:12", "s_waitcnt lgkmcnt(0)"});
  ASSERT_TRUE(R.Run.ok()) << "msg: " << R.Run.Message;
  EXPECT_EQ(R.State.V[2][0], 1003u); // lane 3's dword (1000 + 3)
  EXPECT_EQ(R.State.V[2][5], 1003u);
  R = T.run({"buffer_load_dword v0, s[8:11], 0 offen lds",
             "v_mov_b32_e32 v1, 64", "ds_read_b32 v2, v1 offset:12"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race) << R.Run.Message;
  EXPECT_NE(R.Run.Message.find("LDS-DMA"), std::string::npos) << R.Run.Message;
}
} // namespace
