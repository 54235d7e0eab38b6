//===- HazardNops.cpp - Insert the s_nops hazards need --------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_HAZARDNOPS
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct HazardNopsPass : public asmevo::impl::HazardNopsBase<HazardNopsPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-hazard";
    SmallVector<Operation *> Fns;
    rewrite::editableFunctions(getOperation(), Fns);
    PcrelReferences Refs(getOperation()); // once for all functions
    for (Operation *Fn : Fns) {
      Legality L(Fn);
      L.setPcrelReferences(Refs);
      HazardChecker HC(L.cache());
      Legality::Transaction T(L);
      OpBuilder B(Fn->getContext());
      unsigned Added = 0, Sites = 0;
      SmallVector<Operation *> Ops;
      for (Block &Blk : Fn->getRegion(0))
        for (Operation &Op : Blk)
          Ops.push_back(&Op);
      for (Operation *C : Ops) {
        SmallVector<HazardPair, 2> Pairs;
        HC.pairsFor(C, Pairs);
        int Missing = 0;
        for (const HazardPair &P : Pairs) {
          if (llvm::is_contained(skip, std::string(P.Rule->Id)))
            continue;
          Missing = std::max(Missing, P.Required - P.Have);
          if (verbose)
            llvm::errs() << "amdgcn-hazard: " << P.message(L.cache()) << "\n";
        }
        if (Missing <= 0)
          continue;
        ++Sites;
        while (Missing > 0) {
          unsigned N = unsigned(std::min(Missing, 16));
          T.insertBefore(rewrite::makeNop(B, N), C);
          Missing -= int(N);
          Added += N;
        }
      }
      if (T.empty())
        continue;
      Verdict V = T.commit();
      if (!V) {
        ++S.Refused;
        llvm::errs() << "amdgcn-hazard: " << rewrite::functionName(Fn)
                     << " left unchanged: " << V.Reason << "\n";
        continue;
      }
      ++S.FunctionsChanged;
      S.add("hazards fixed", Sites);
      S.add("wait states added", Added);
    }
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
