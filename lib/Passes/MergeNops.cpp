//===- MergeNops.cpp - Merge adjacent s_nops (worked example) -------------===//
//
// docs/WritingPasses.md walks through this file.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_MERGENOPS
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct MergeNopsPass : public asmevo::impl::MergeNopsBase<MergeNopsPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-merge-nops";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      Legality L(Fn, C, Refs); // the only way to change code
      OpBuilder B(Fn->getContext());
      long Merged = 0;
      for (Block &Blk : Fn->getRegion(0)) {
        for (Operation *Op = &Blk.front(); Op;) {
          auto First = dyn_cast<NopOp>(Op);
          if (!First) {
            Op = Op->getNextNode();
            continue;
          }
          // Absorb the s_nops that follow while the sum fits in one.
          while (auto Next = dyn_cast_or_null<NopOp>(First->getNextNode())) {
            if (First.getImm() > 0xf || Next.getImm() > 0xf)
              break;
            unsigned States = First.getImm() + 1 + Next.getImm() + 1;
            if (States > 16)
              break;
            Operation *One = rewrite::makeNop(B, States, First.getId());
            Verdict V = L.replace({First, Next}, {One});
            if (!V) {
              ++S.Refused;
              llvm::errs() << "amdgcn-merge-nops: " << V.Reason << "\n";
              break;
            }
            First = cast<NopOp>(One);
            ++Merged;
          }
          Op = First->getNextNode();
        }
      }
      if (Merged) {
        ++S.FunctionsChanged;
        S.add("s_nops merged", Merged);
      }
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
