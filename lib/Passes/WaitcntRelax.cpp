//===- WaitcntRelax.cpp - Loosest correct s_waitcnt, placed late ----------===//

#include "RewriteUtils.h"
#include "WaitPlanner.h"

#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_WAITCNTRELAX
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct WaitcntRelaxPass
    : public asmevo::impl::WaitcntRelaxBase<WaitcntRelaxPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-waitcnt-relax";
    SmallVector<Operation *> Fns;
    rewrite::editableFunctions(getOperation(), Fns);
    PcrelReferences Refs(getOperation()); // once for all functions
    for (Operation *Fn : Fns) {
      Legality L(Fn);
      L.setPcrelReferences(Refs);
      llvm::DenseMap<Operation *, waits::Counts> Need;
      waits::OpSet Pinned;
      if (allowMoreWaits) {
        Need = waits::plan(L, Fn);
        waits::mergeClose(Need, Fn, L.cache(), mergeWithin);
      } else {
        // No block may hold more waits than it had: a path then never
        // executes more s_waitcnt than before.
        SmallVector<Block *> Over;
        if (!waits::planWithinBudget(L, Fn, waits::countRelaxable(L, Fn),
                                     mergeWithin, Pinned, Need, Over)) {
          ++S.Refused;
          if (verbose)
            llvm::errs() << "amdgcn-waitcnt-relax: "
                         << rewrite::functionName(Fn)
                         << " left unchanged: " << Over.size()
                         << " block(s) would need more waits than before\n";
          if (verbose)
            for (Block *B : Over)
              for (Operation &Op : *B)
                if (Need.count(&Op))
                  llvm::errs()
                      << "  needs a wait: " << L.cache().describe(&Op) << "\n";
          continue;
        }
      }
      Legality::Transaction T(L);
      waits::Stats St = waits::materialize(T, L, Fn, Need, verbose, &Pinned);
      if (T.empty())
        continue;
      unsigned Nops = T.insertNopsForHazards();
      Verdict V = T.commit();
      if (!V) {
        ++S.Refused;
        llvm::errs() << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                     << " left unchanged: " << V.Reason << "\n";
        continue;
      }
      ++S.FunctionsChanged;
      S.add("waits before", St.Before);
      S.add("after", St.Kept + St.Inserted);
      S.add("moved or loosened", St.Before - St.Kept);
      if (!Pinned.empty())
        S.add("kept in place to stay within the count", Pinned.size());
      S.add("nop wait states added", Nops);
    }
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
