//===- DialectTest.cpp - Building and verifying amdgcn ops in C++ ---------===//

#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

struct DialectTest : public ::testing::Test {
  DialectTest() {
    Ctx.getOrLoadDialect<AMDGCNDialect>();
    // Keep verifier messages out of the test log; tests look at the result.
    Ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  }
  MLIRContext Ctx;
};

TEST_F(DialectTest, WaitcntFieldsRoundTrip) {
  OpBuilder B(&Ctx);
  auto CO = CodeObjectOp::create(B, UnknownLoc::get(&Ctx), "amdgcn-amd-amdhsa--gfx942");
  B.setInsertionPointToStart(&CO.getBodyBlock());
  int64_t Imm = WaitcntOp::encodeCounts(5, 7, 15);
  auto W = WaitcntOp::create(B, UnknownLoc::get(&Ctx), 0x10, Imm);
  EXPECT_EQ(W.getVmcnt(), 5u);
  EXPECT_EQ(W.getExpcnt(), 7u);
  EXPECT_EQ(W.getLgkmcnt(), 15u);
  // vmcnt's high bits live in SIMM16[15:14].
  EXPECT_EQ(WaitcntOp::encodeCounts(63, 7, 15), 0xCF7F);
  auto W2 = WaitcntOp::create(B, UnknownLoc::get(&Ctx), -1, 0xCF7F);
  EXPECT_EQ(W2.getVmcnt(), 63u);
  W->erase();
  W2->erase();
  CO->erase();
}

TEST_F(DialectTest, InstOpVerifiesItsEncoding) {
  const char *Good = R"mlir(
    amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
      amdgcn.kernel @k attributes {descriptor = {}} {
        amdgcn.inst v_add_u32_e32 "v0, s2, v0"
        amdgcn.s_endpgm
      }
    })mlir";
  OwningOpRef<Operation *> Op = parseSourceString(Good, ParserConfig(&Ctx));
  ASSERT_TRUE(Op);
  ASSERT_TRUE(succeeded(verify(*Op)));
  InstOp I;
  Op->walk([&](InstOp X) { I = X; });
  ASSERT_TRUE(I);
  EXPECT_EQ(I.getEnc().size(), 1u);
  EXPECT_EQ(uint32_t(I.getEnc()[0]), 0x68000002u);
  // A word that is not an instruction fails verification.
  I.setEnc(ArrayRef<int32_t>{int32_t(0xFFFFFFFF)});
  EXPECT_TRUE(failed(verify(*Op)));
}

TEST_F(DialectTest, GetTargetInfoFollowsTheCodeObject) {
  const char *Src = R"mlir(
    amdgcn.code_object "amdgcn-amd-amdhsa--gfx90a:xnack-" {
      amdgcn.func @f attributes {addr = 0 : i64} {
        amdgcn.s_endpgm
      }
    })mlir";
  OwningOpRef<Operation *> Op = parseSourceString(Src, ParserConfig(&Ctx));
  ASSERT_TRUE(Op);
  EndpgmOp E;
  Op->walk([&](EndpgmOp X) { E = X; });
  auto TI = getTargetInfoFor(E);
  ASSERT_TRUE(bool(TI));
  EXPECT_EQ((*TI)->cpu(), "gfx90a");
  EXPECT_EQ((*TI)->features(), "-xnack");
}

} // namespace
