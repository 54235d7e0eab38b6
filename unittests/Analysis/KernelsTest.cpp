//===- KernelsTest.cpp - The analyses on every in-tree kernel -------------===//
//
// Compiled code must satisfy its own wait counts and hazard table: the
// baseline of every function of every in-tree kernel has no unwaited use
// and no hazard violation (a false positive here would make legality
// refuse correct edits or the hazard pass add useless s_nops).
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "asmevo/Analysis/Legality.h"
#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

TEST(AnalysisKernels, BaselineHasNoProblems) {
  auto Paths = test::allTestKernels();
  ASSERT_FALSE(Paths.empty());
  MLIRContext Ctx;
  Ctx.loadDialect<AMDGCNDialect>();
  unsigned Functions = 0, Instructions = 0, LdsMemoryReports = 0;
  for (const std::string &Path : Paths) {
    auto CO = CodeObject::load(Path);
    ASSERT_TRUE(bool(CO)) << llvm::toString(CO.takeError());
    auto Op = recoverCodeObject(Ctx, **CO);
    ASSERT_TRUE(bool(Op)) << llvm::toString(Op.takeError());
    for (Operation &Fn : (*Op)->getBodyBlock()) {
      if (Fn.hasAttr("not_relocatable"))
        continue;
      ++Functions;
      Fn.walk([&](Operation *) { ++Instructions; });
      Legality L(&Fn);
      llvm::SmallVector<std::string> Problems;
      L.baselineProblems(Problems);
      for (const std::string &P : Problems) {
        // Known conservative reports: LDS written by LDS DMA, then an LDS
        // op that LLVM proved disjoint with alias information; an indexed
        // VGPR access (s_set_gpr_idx) whose index range LLVM knew.
        if (llvm::StringRef(P).starts_with("unwaited (LDS memory)") ||
            llvm::StringRef(P).starts_with("unwaited (unknown registers)")) {
          ++LdsMemoryReports;
          continue;
        }
        ADD_FAILURE() << Path << " @"
                      << cast<SymbolOpInterface>(Fn).getName().str() << ": "
                      << P;
      }
    }
  }
  EXPECT_LE(LdsMemoryReports, 10u);
  EXPECT_GT(Functions, 20u);
  EXPECT_GT(Instructions, 1000u);
}
