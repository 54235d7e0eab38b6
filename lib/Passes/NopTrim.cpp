//===- NopTrim.cpp - Remove wait states hazards do not need ---------------===//
//
// Each s_nop is shrunk to the fewest wait states that keep every hazard
// pair across it satisfied: try deleting it, then smaller counts (a
// binary search over the count), each through the legality checks.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_NOPTRIM
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct NopTrimPass : public asmevo::impl::NopTrimBase<NopTrimPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-nop-trim";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      Legality L(Fn, C, Refs);
      OpBuilder B(Fn->getContext());
      SmallVector<NopOp> Nops;
      Block *Entry = &Fn->getRegion(0).front();
      Fn->walk([&](NopOp N) {
        Block *B = N->getBlock();
        if (keepAlignment && B != Entry && B->hasNoPredecessors())
          return;
        Nops.push_back(N);
      });
      long Removed = 0, Deleted = 0;
      for (NopOp N : Nops) {
        unsigned Have = unsigned(N.getImm() & 0xf) + 1;
        if (N.getImm() > 0xf)
          continue; // bits outside SIMM16[3:0]: keep as written
        std::string Text = L.cache().describe(N);
        // Delete entirely?
        if (L.erase(N)) {
          Removed += Have;
          ++Deleted;
          if (verbose)
            llvm::errs() << "amdgcn-nop-trim: deleted " << Text << "\n";
          continue;
        }
        // Smallest count that is still legal: binary search in [1, Have).
        unsigned Lo = 1, Hi = Have; // Hi is known legal
        while (Lo < Hi) {
          unsigned Mid = (Lo + Hi) / 2;
          Operation *Smaller = rewrite::makeNop(B, Mid, N.getId());
          Verdict V = L.canReplace({N}, {Smaller});
          Smaller->destroy();
          if (V)
            Hi = Mid;
          else
            Lo = Mid + 1;
        }
        if (Hi == Have)
          continue;
        Operation *Smaller = rewrite::makeNop(B, Hi, N.getId());
        if (L.replace({N}, {Smaller})) {
          Removed += Have - Hi;
          if (verbose)
            llvm::errs() << "amdgcn-nop-trim: " << Text << " -> s_nop "
                         << (Hi - 1) << "\n";
        }
      }
      if (Removed) {
        ++S.FunctionsChanged;
        S.add("wait states removed", Removed);
        S.add("s_nops deleted", Deleted);
      }
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
