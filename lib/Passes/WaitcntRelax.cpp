//===- WaitcntRelax.cpp - Loosest correct s_waitcnt, placed late ----------===//
//
// A forward dataflow over the function with the relaxable waits taken out:
// at each op, the memory operations in flight that it needs complete (its
// register reads and writes; for fence-like ops, everything the original
// had completed there) give the loosest counts, and a wait with those
// counts goes right before the op. Counts only get stronger while the
// dataflow iterates, so the result is a fixpoint that covers every path.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Waitcnt.h"
#include "asmevo/Passes/Passes.h"

#include <array>
#include <deque>

namespace asmevo {
#define GEN_PASS_DEF_WAITCNTRELAX
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

using Counts = std::array<unsigned, NumCounters>;

bool isRelaxable(Operation *Op) {
  auto W = dyn_cast<WaitcntOp>(Op);
  return W && WaitcntOp::encodeCounts(W.getVmcnt(), W.getExpcnt(),
                                      W.getLgkmcnt()) == W.getImm();
}

struct WaitcntRelaxPass
    : public asmevo::impl::WaitcntRelaxBase<WaitcntRelaxPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-waitcnt-relax";
    SmallVector<Operation *> Fns;
    rewrite::editableFunctions(getOperation(), Fns);
    for (Operation *Fn : Fns)
      relax(Fn, S);
    if (summary)
      S.print(llvm::errs());
  }

  void relax(Operation *Fn, rewrite::Summary &S) {
    Legality L(Fn);
    InstInfoCache &C = L.cache();
    const RegUnitInfo &RU = C.units();
    Region &R = Fn->getRegion(0);

    // Plan: which ops need which counts.
    llvm::DenseMap<Operation *, Counts> Need;
    llvm::DenseMap<Block *, PendingState> In;
    PendingState Entry;
    if (!isa<KernelOp>(Fn))
      Entry.addUnknown();
    In[&R.front()] = Entry;
    std::deque<Block *> Work;
    llvm::DenseSet<Block *> Queued;
    for (Block &B : R) {
      Work.push_back(&B);
      Queued.insert(&B);
    }
    while (!Work.empty()) {
      Block *B = Work.front();
      Work.pop_front();
      Queued.erase(B);
      PendingState St = In[B];
      for (Operation &Op : *B) {
        if (isRelaxable(&Op))
          continue;
        const InstInfo &I = C.get(&Op);
        if (I.Kind == OpKind::Waitcnt) {
          St.wait(I.Wait);
          continue;
        }
        unsigned N[NumCounters];
        maxCounts(N);
        SmallVector<const PendingOp *, 4> Ps;
        WaitcntAnalysis::touching(St, I, RU, Ps);
        for (const PendingOp *P : Ps)
          P->requiredCounts(N);
        if (I.Sync) {
          const auto *Orig = L.baselinePendingAt(&Op);
          for (const PendingOp &P : St.Ops)
            if (!Orig || !llvm::is_contained(*Orig, P.Op))
              P.requiredCounts(N);
        }
        if (!isNoWait(N)) {
          auto [It, New] = Need.try_emplace(&Op);
          if (New)
            std::copy(N, N + NumCounters, It->second.begin());
          else
            for (unsigned K = 0; K < NumCounters; ++K)
              It->second[K] = std::min(It->second[K], N[K]);
          St.wait(It->second.data());
        } else if (auto It = Need.find(&Op); It != Need.end()) {
          St.wait(It->second.data());
        }
        WaitcntAnalysis::transfer(St, I);
      }
      for (Block *Succ : B->getSuccessors()) {
        auto [It, Inserted] = In.try_emplace(Succ);
        if ((It->second.merge(St) || Inserted) && Queued.insert(Succ).second)
          Work.push_back(Succ);
      }
    }

    // Materialize in one transaction.
    unsigned Before = 0, Kept = 0, Inserted = 0;
    Legality::Transaction T(L);
    OpBuilder Bld(Fn->getContext());
    SmallVector<Operation *> Relaxable;
    Fn->walk([&](Operation *Op) {
      if (isRelaxable(Op))
        Relaxable.push_back(Op);
    });
    Before = Relaxable.size();
    llvm::DenseSet<Operation *> Keep;
    for (auto &KV : Need) {
      Operation *Prev = KV.first->getPrevNode();
      if (Prev && isRelaxable(Prev) && !Keep.contains(Prev)) {
        const InstInfo &PI = C.get(Prev);
        if (std::equal(PI.Wait, PI.Wait + NumCounters, KV.second.begin())) {
          Keep.insert(Prev);
          continue;
        }
      }
    }
    for (Operation *W : Relaxable)
      if (!Keep.contains(W))
        T.erase(W);
    Kept = Keep.size();
    // Deterministic insertion order: by position.
    for (Block &B : R)
      for (Operation &Op : B) {
        auto It = Need.find(&Op);
        if (It == Need.end())
          continue;
        Operation *Prev = Op.getPrevNode();
        if (Prev && Keep.contains(Prev))
          continue;
        T.insertBefore(rewrite::makeWaitcnt(Bld, It->second.data()), &Op);
        ++Inserted;
        if (verbose)
          llvm::errs() << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                       << ": wait before " << C.describe(&Op) << "\n";
      }
    if (T.empty())
      return;
    unsigned Nops = T.insertNopsForHazards();
    Verdict V = T.commit();
    if (!V) {
      ++S.Refused;
      llvm::errs() << "amdgcn-waitcnt-relax: " << rewrite::functionName(Fn)
                   << " left unchanged: " << V.Reason << "\n";
      return;
    }
    if (Before == Kept && Inserted == 0)
      return;
    ++S.FunctionsChanged;
    S.add("waits before", Before);
    S.add("after", Kept + Inserted);
    S.add("moved or loosened", Before - Kept);
    S.add("nop wait states added", Nops);
  }
};

} // namespace
