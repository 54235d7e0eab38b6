//===- Fp8CvtTest.cpp - f32 -> fp8/bf8 conversions (gfx942 FNUZ) ----------===//
//
// Expected codes are worked out by hand from the formats (CDNA3 ISA: fp8 =
// e4m3 bias 8, bf8 = e5m2 bias 16, FNUZ: no infinities, 0x80 the only NaN,
// no negative zero) and IEEE round to nearest even; the cases that the
// documentation leaves open (overflow, infinity, clamp) must be refused.
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

uint32_t fb(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

SnippetResult run(const std::string &Text, SnippetState S) {
  std::vector<uint8_t> Code = test::assembleSnippet("gfx942", {Text});
  RunOptions O;
  O.Budget = 100;
  return runSnippet("gfx942", Code, S, nullptr, O);
}

// Converts X (in lane 0, Y as the second source) and returns v1 of lane 0.
uint32_t cvt(const std::string &Op, uint32_t X, uint32_t Y, uint32_t Old,
             const std::string &Mods = "") {
  SnippetState S;
  S.Exec = 1;
  S.V[1][0] = Old;
  S.V[2][0] = X;
  S.V[3][0] = Y;
  auto R = run(Op + " v1, v2, v3" + Mods, S);
  EXPECT_TRUE(R.Run.ok()) << Op << ": " << R.Run.Message;
  return R.State.V[1][0];
}
uint8_t fp8(float X) { return cvt("v_cvt_pk_fp8_f32", fb(X), 0, 0) & 0xff; }
uint8_t bf8(float X) { return cvt("v_cvt_pk_bf8_f32", fb(X), 0, 0) & 0xff; }

TEST(EmuFp8Cvt, Fp8RoundToNearestEven) {
  EXPECT_EQ(fp8(1.0f), 0x40);                  // E = 0 + 8
  EXPECT_EQ(fp8(-2.0f), 0xc8);                 // sign, E = 9
  EXPECT_EQ(fp8(240.0f), 0x7f);                // largest finite: 1.875 * 2^7
  EXPECT_EQ(fp8(247.0f), 0x7f);                // below the 248 midpoint
  EXPECT_EQ(fp8(0.1f), 0x25);                  // 1.6 * 2^-4: mantissa 4.8 -> 5
  EXPECT_EQ(fp8(1.0625f), 0x40);               // tie between M=0 and M=1: even
  EXPECT_EQ(fp8(1.1875f), 0x42);               // tie between M=1 and M=2: even
  EXPECT_EQ(fp8(std::ldexp(1.0f, -7)), 0x08);  // smallest normal
  EXPECT_EQ(fp8(std::ldexp(1.0f, -10)), 0x01); // smallest subnormal
  EXPECT_EQ(fp8(std::ldexp(1.0f, -11)), 0x00); // tie with 0: even
  EXPECT_EQ(fp8(std::ldexp(1.5f, -11)), 0x01);
  EXPECT_EQ(fp8(std::ldexp(7.5f, -10)), 0x08);  // subnormal rounds to normal
  EXPECT_EQ(fp8(-std::ldexp(1.0f, -12)), 0x00); // no negative zero
  EXPECT_EQ(fp8(-0.0f), 0x00);
  EXPECT_EQ(fp8(std::ldexp(1.0f, -140)), 0x00); // f32 denormal
  EXPECT_EQ(fp8(NAN), 0x80);
}

TEST(EmuFp8Cvt, Bf8RoundToNearestEven) {
  EXPECT_EQ(bf8(1.0f), 0x40);                  // E = 0 + 16
  EXPECT_EQ(bf8(57344.0f), 0x7f);              // 1.75 * 2^15
  EXPECT_EQ(bf8(1.125f), 0x40);                // tie: even
  EXPECT_EQ(bf8(1.375f), 0x42);                // tie between M=1 and M=2: even
  EXPECT_EQ(bf8(-3.0f), 0xc6);                 // 1.5 * 2^1: E = 17, M = 2
  EXPECT_EQ(bf8(std::ldexp(1.0f, -17)), 0x01); // smallest subnormal
  EXPECT_EQ(bf8(std::ldexp(1.0f, -15)), 0x04); // smallest normal
  EXPECT_EQ(bf8(NAN), 0x80);
}

TEST(EmuFp8Cvt, PackedWordSelectKeepsTheOtherWord) {
  // D.word = {f8(S1), f8(S0)}: S0 in the low byte.
  EXPECT_EQ(cvt("v_cvt_pk_fp8_f32", fb(1.0f), fb(-2.0f), 0xaabbccdd),
            0xaabbc840u);
  EXPECT_EQ(cvt("v_cvt_pk_fp8_f32", fb(1.0f), fb(-2.0f), 0xaabbccdd,
                " op_sel:[0,0,1]"),
            0xc840ccddu);
  EXPECT_EQ(cvt("v_cvt_pk_bf8_f32", fb(-2.0f), fb(1.0f), 0x12345678,
                " op_sel:[0,0,1]"),
            0x40c45678u); // bf8(-2) = 0x80 | 17 << 2
}

TEST(EmuFp8Cvt, StochasticRoundingIsDeterministicInTheRandomBits) {
  // 1.0625 drops 20 fraction bits worth exactly half an fp8 ulp: it rounds
  // up exactly when the low 20 random bits bring the dropped part to 2^20.
  EXPECT_EQ(cvt("v_cvt_sr_fp8_f32", fb(1.0625f), 0, 0xaabbccdd), 0xaabbcc40u);
  EXPECT_EQ(cvt("v_cvt_sr_fp8_f32", fb(1.0625f), 0x80000, 0xaabbccdd,
                " op_sel:[0,0,1,1]"),
            0x41bbccddu);
  EXPECT_EQ(cvt("v_cvt_sr_fp8_f32", fb(1.0625f), 0xfff7ffff, 0xaabbccdd,
                " op_sel:[0,0,1,0]"),
            0xaabb40ddu);
  EXPECT_EQ(
      cvt("v_cvt_sr_bf8_f32", fb(1.0f), 0xffffffff, 0, " op_sel:[0,0,0,1]"),
      0x00400000u); // exact values never move
}

TEST(EmuFp8Cvt, UndocumentedCasesAreRefused) {
  SnippetState S;
  S.Exec = 3;
  S.V[2][0] = fb(1.0f);
  S.V[2][1] = fb(248.0f); // rounds past 240: overflow
  auto R = run("v_cvt_pk_fp8_f32 v1, v2, v2", S);
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  EXPECT_NE(R.Run.Message.find("v_cvt_pk_fp8_f32"), std::string::npos);
  EXPECT_NE(R.Run.Message.find("lane 1"), std::string::npos);
  S.V[2][1] = fb(INFINITY);
  R = run("v_cvt_sr_bf8_f32 v1, v2, v3", S);
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  RunOptions O;
  // Stochastic rounding is approximate: refused under --refuse-approx.
  std::vector<uint8_t> Code =
      test::assembleSnippet("gfx942", {"v_cvt_sr_fp8_f32 v1, v2, v3"});
  ASSERT_FALSE(Code.empty());
  O.RefuseApproximate = true;
  auto R2 = runSnippet("gfx942", Code, S, nullptr, O);
  EXPECT_EQ(R2.Run.Kind, ErrorKind::Approximate) << R2.Run.Message;
}

} // namespace
