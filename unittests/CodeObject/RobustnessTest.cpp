//===- RobustnessTest.cpp - Mutated code objects never crash the readers --===//
//
// A deterministic, bounded fuzz loop over the in-tree kernels: flipped
// bytes, truncations and spliced words in headers, notes, descriptors and
// code must give an error or a result, never a crash. (The libFuzzer target
// in fuzz/ explores the same entry point without bounds.)
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <random>

using namespace asmevo;

namespace {

/// Parses, recovers and emits; returns whether all three succeeded.
bool exercise(mlir::MLIRContext &Ctx, const std::vector<uint8_t> &Bytes) {
  auto CO = CodeObject::parse(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(
          reinterpret_cast<const char *>(Bytes.data()), Bytes.size())),
      "mutant");
  if (!CO) {
    llvm::consumeError(CO.takeError());
    return false;
  }
  auto Op = recoverCodeObject(Ctx, **CO);
  if (!Op) {
    llvm::consumeError(Op.takeError());
    return false;
  }
  auto Out = emitCodeObject(**Op);
  if (!Out) {
    llvm::consumeError(Out.takeError());
    return false;
  }
  return true;
}

TEST(Robustness, MutatedKernelsFailCleanly) {
  mlir::MLIRContext Ctx;
  Ctx.getOrLoadDialect<amdgcn::AMDGCNDialect>();
  std::mt19937_64 Rng(42);
  unsigned Survived = 0, Rejected = 0;
  auto Kernels = test::allTestKernels();
  ASSERT_FALSE(Kernels.empty());
  for (size_t K = 0; K < Kernels.size(); K += 4) {
    auto Buf = llvm::MemoryBuffer::getFile(Kernels[K]);
    ASSERT_TRUE(bool(Buf));
    std::vector<uint8_t> Orig((*Buf)->getBufferStart(),
                              (*Buf)->getBufferEnd());
    for (int Trial = 0; Trial < 60; ++Trial) {
      std::vector<uint8_t> M = Orig;
      switch (Trial % 4) {
      case 0: // flip bytes anywhere
        for (int I = 0; I < 8; ++I)
          M[Rng() % M.size()] ^= uint8_t(1 + Rng() % 255);
        break;
      case 1: // flip bytes in the first 4 KiB (headers, notes, descriptors)
        for (int I = 0; I < 4; ++I)
          M[Rng() % std::min<size_t>(M.size(), 4096)] = uint8_t(Rng());
        break;
      case 2: // truncate
        M.resize(Rng() % M.size());
        break;
      case 3: // random words (foreign bytes for the disassembler)
        for (int I = 0; I < 16; ++I) {
          size_t At = (Rng() % (M.size() / 4)) * 4;
          uint32_t W = uint32_t(Rng());
          memcpy(&M[At], &W, 4);
        }
        break;
      }
      (exercise(Ctx, M) ? Survived : Rejected)++;
    }
  }
  // Both outcomes must occur; a crash would have ended the test.
  EXPECT_GT(Rejected, 0u);
  EXPECT_GT(Survived + Rejected, 100u);
}

} // namespace
