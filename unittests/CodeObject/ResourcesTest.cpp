//===- ResourcesTest.cpp - Extra SGPRs and raised register counts ---------===//
//
// Expected extra-SGPR counts are what LLVM 22 computes: llvm-mc's
// extrasgprs(vcc, flat_scratch, xnack) for each processor (the XNACK
// argument being the target id's "on or any", as LLVM's asm printer passes
// it).
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/Resources.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace asmevo;

namespace {

struct Row {
  const char *Cpu, *Features;
  unsigned None, Vcc, Flat;
};

TEST(Resources, ExtraSGPRsFollowLLVM) {
  const Row Rows[] = {
      // Architected flat scratch: always 6, whatever XNACK says.
      {"gfx942", "", 6, 6, 6},
      {"gfx942", "-xnack", 6, 6, 6},
      // XNACK "any" (unspecified) or on reserves XNACK_MASK: 4.
      {"gfx90a", "", 4, 4, 6},
      {"gfx90a", "+xnack", 4, 4, 6},
      {"gfx90a", "-xnack", 0, 2, 6},
      {"gfx908", "", 4, 4, 6},
      // No XNACK support on Fiji: VCC only, or FLAT_SCRATCH.
      {"gfx803", "", 0, 2, 6},
      // GFX10+: VCC only. (Before GFX8, which LLVM cannot disassemble,
      // FLAT_SCRATCH would count 4.)
      {"gfx1030", "", 0, 2, 0},
  };
  for (const Row &R : Rows) {
    auto TI = TargetInfo::get(R.Cpu, R.Features);
    ASSERT_TRUE(bool(TI)) << llvm::toString(TI.takeError());
    SCOPED_TRACE(std::string(R.Cpu) + " '" + R.Features + "'");
    EXPECT_EQ(numExtraSGPRs(**TI, false, false), R.None);
    EXPECT_EQ(numExtraSGPRs(**TI, true, false), R.Vcc);
    EXPECT_EQ(numExtraSGPRs(**TI, false, true), R.Flat);
    EXPECT_EQ(numExtraSGPRs(**TI, true, true), std::max(R.Vcc, R.Flat));
  }
}

TEST(Resources, FlatScratchFromCodeOrDescriptor) {
  RegisterUsage U;
  KernelDescriptor KD;
  EXPECT_FALSE(kernelUsesFlatScratch(U, KD));
  KD.KernelCodeProperties = 32; // enable_sgpr_flat_scratch_init
  EXPECT_TRUE(kernelUsesFlatScratch(U, KD));
  KD.KernelCodeProperties = 0;
  U.UsesFlatScratch = true;
  EXPECT_TRUE(kernelUsesFlatScratch(U, KD));
}

TEST(Resources, RaiseAddsTheExtraSGPRs) {
  mlir::MLIRContext Ctx;
  mlir::Builder B(&Ctx);
  auto meta = [&](int64_t Sgpr) {
    return B.getDictionaryAttr(
        {B.getNamedAttr(".sgpr_count", B.getI64IntegerAttr(Sgpr)),
         B.getNamedAttr(".vgpr_count", B.getI64IntegerAttr(8))});
  };
  RegisterUsage U;
  U.NumSGPR = 21;
  U.NumVGPR = 4;
  KernelDescriptor KD;
  mlir::DictionaryAttr M = meta(10);
  EXPECT_TRUE(raiseResourceCounts(U, 4, /*HasAGPRFile=*/true, KD, M));
  EXPECT_EQ(M.getAs<mlir::IntegerAttr>(".sgpr_count").getInt(), 25);
  EXPECT_EQ(KD.granulatedWavefrontSgprCount(), 3u); // ceil(25 / 8) - 1
  // Without extras the count is the numbered SGPRs alone.
  KD = KernelDescriptor();
  M = meta(10);
  EXPECT_TRUE(raiseResourceCounts(U, 0, true, KD, M));
  EXPECT_EQ(M.getAs<mlir::IntegerAttr>(".sgpr_count").getInt(), 21);
  EXPECT_EQ(KD.granulatedWavefrontSgprCount(), 2u);
  // Never lowered.
  KD = KernelDescriptor();
  M = meta(40);
  raiseResourceCounts(U, 6, true, KD, M);
  EXPECT_EQ(M.getAs<mlir::IntegerAttr>(".sgpr_count").getInt(), 40);
}

} // namespace
