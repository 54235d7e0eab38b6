//===- WaitcntRelax.cpp - Loosest correct s_waitcnt, placed late ----------===//

#include "RewriteUtils.h"
#include "Schedule.h"
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
unsigned blockCost(Block *B, InstInfoCache &C) {
  SmallVector<Operation *> Ops;
  for (Operation &Op : *B)
    Ops.push_back(&Op);
  sched::PipeState E = sched::entryState(B, C);
  return sched::simulate(Ops, C, &E);
}

struct WaitcntRelaxPass
    : public asmevo::impl::WaitcntRelaxBase<WaitcntRelaxPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-waitcnt-relax";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      Legality L(Fn, C, Refs);
      // Each block as it is, in the whole-block model amdgcn-schedule uses
      // (waits, s_nops, latencies, what is in flight at its entry): a plan
      // that makes one slower keeps that block's waits (merging two close
      // waits into the earlier one can stall longer than both did).
      llvm::DenseMap<Block *, unsigned> OldCost;
      llvm::DenseMap<Block *, SmallVector<Operation *>> OldWaits, OldOps;
      for (Block &B : Fn->getRegion(0)) {
        // (OldOps also serves the pins around internal calls below.)
        for (Operation &Op : B)
          OldOps[&B].push_back(&Op);
        if (allowMoreWaits)
          continue;
        OldCost[&B] = blockCost(&B, C);
        for (Operation &Op : B)
          if (waits::isRelaxable(L, &Op))
            OldWaits[&B].push_back(&Op);
      }
      // A read the original's waits make safe on one path only keeps the
      // waits on its producer's paths (waitcnt-path-wait.mlir).
      waits::OpSet Pinned;
      unsigned PathReads = waits::pinPathWaits(L, Fn, Pinned);
      if (verbose && PathReads)
        llvm::errs() << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                     << ": " << PathReads
                     << " read(s) waited for on some path only: "
                     << Pinned.size() << " wait(s) stay\n";
      bool Done = false;
      while (!Done) {
        Done = true;
        llvm::DenseMap<Operation *, waits::Counts> Need;
        if (allowMoreWaits) {
          Need = waits::plan(L, Fn, &Pinned, /*PathsKept=*/true);
          waits::mergeClose(Need, Fn, C, mergeWithin);
        } else {
          // No block may hold more waits than it had: a path then never
          // executes more s_waitcnt than before.
          SmallVector<Block *> Over;
          if (!waits::planWithinBudget(L, Fn, waits::countRelaxable(L, Fn),
                                       mergeWithin, Pinned, Need, Over,
                                       /*PathsKept=*/true)) {
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
                        << "  needs a wait: " << C.describe(&Op) << "\n";
            break;
          }
        }
        Legality::Transaction T(L);
        waits::Stats St = waits::materialize(T, L, Fn, Need, verbose, &Pinned);
        if (T.empty())
          break;
        unsigned Nops = T.insertNopsForHazards();
        // Subroutines of internal calls stay as they are (InternalCallModel):
        // where the plan changes one (s_nops for a hazard across a call),
        // the blocks of the calls keep their waits.
        SmallVector<Block *> FixedChanged;
        L.blocksChangingFixedCode(T, FixedChanged);
        if (!FixedChanged.empty()) {
          unsigned Before = Pinned.size();
          for (Block *B : FixedChanged) {
            SmallVector<Block *, 4> Around(B->getPredecessors());
            Around.push_back(B);
            for (Operation *Call : L.internalCalls().callSites())
              Around.push_back(Call->getBlock());
            for (Block *X : Around)
              for (Operation *Op : OldOps.lookup(X))
                if (waits::isRelaxable(L, Op))
                  Pinned.insert(Op);
          }
          if (Pinned.size() != Before) {
            Done = false;
            continue;
          }
        }
        if (!allowMoreWaits) {
          // A wait may move into a successor (the path that needs it):
          // compare each edge's pair of blocks, not blocks alone.
          unsigned Before = Pinned.size();
          llvm::DenseMap<Block *, unsigned> NewCost;
          llvm::DenseSet<Block *> Changed;
          for (Block &B : Fn->getRegion(0)) {
            NewCost[&B] = blockCost(&B, C);
            if (!llvm::equal(llvm::make_pointer_range(B), OldOps.lookup(&B)))
              Changed.insert(&B);
          }
          for (Block &B : Fn->getRegion(0)) {
            SmallVector<Block *, 4> Preds(B.getPredecessors());
            if (Preds.empty())
              Preds.push_back(nullptr);
            for (Block *P : Preds) {
              unsigned Old = OldCost.lookup(&B) + (P ? OldCost.lookup(P) : 0);
              unsigned New = NewCost.lookup(&B) + (P ? NewCost.lookup(P) : 0);
              // Changed waits must pay: the cost model charges a merged
              // wait's longer stall more than this model (memory path).
              bool Touched = Changed.contains(&B) || (P && Changed.contains(P));
              if (New < Old || (New == Old && !Touched))
                continue;
              if (verbose)
                llvm::errs()
                    << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                    << ": a block of " << B.getOperations().size()
                    << " ops: " << Old << " -> " << New
                    << " modelled slots with its predecessor: "
                       "their waits stay\n";
              for (Operation *W : OldWaits.lookup(&B))
                Pinned.insert(W);
              if (P)
                for (Operation *W : OldWaits.lookup(P))
                  Pinned.insert(W);
            }
          }
          if (Pinned.size() != Before) {
            Done = false; // T rolls back; plan again around the pinned waits
            continue;
          }
        }
        Verdict V = T.commit();
        if (!V) {
          ++S.Refused;
          llvm::errs() << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                       << " left unchanged: " << V.Reason << "\n";
          break;
        }
        ++S.FunctionsChanged;
        S.add("waits before", St.Before);
        S.add("after", St.Kept + St.Inserted);
        S.add("moved or loosened", St.Before - St.Kept);
        if (!Pinned.empty())
          S.add("kept in place", Pinned.size());
        S.add("nop wait states added", Nops);
      }
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
