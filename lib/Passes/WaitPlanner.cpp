//===- WaitPlanner.cpp - Where s_waitcnt must go, and with what counts ----===//
//
// A forward dataflow over the function with the relaxable waits taken out:
// at each op, the memory operations in flight that it needs complete (its
// register reads and writes; for fence-like ops, everything the original
// had completed there) give the loosest counts. Counts only get stronger
// while the dataflow iterates, so the result is a fixpoint that covers
// every path.
//
//===----------------------------------------------------------------------===//

#include "WaitPlanner.h"
#include "RewriteUtils.h"

#include <deque>

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

bool waits::isRelaxable(Operation *Op) {
  auto W = dyn_cast<WaitcntOp>(Op);
  return W && WaitcntOp::encodeCounts(W.getVmcnt(), W.getExpcnt(),
                                      W.getLgkmcnt()) == W.getImm();
}

bool waits::isRelaxable(Legality &L, Operation *Op) {
  return isRelaxable(Op) && !L.isFrozen(Op->getBlock());
}

llvm::DenseMap<Operation *, waits::Counts> waits::plan(Legality &L,
                                                      Operation *Fn) {
  InstInfoCache &C = L.cache();
  const RegUnitInfo &RU = C.units();
  Region &R = Fn->getRegion(0);
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
      if (isRelaxable(L, &Op))
        continue;
      const InstInfo &I = C.get(&Op);
      if (I.Kind == OpKind::Waitcnt) {
        St.wait(I.Wait);
        continue;
      }
      unsigned N[NumCounters];
      maxCounts(N);
      SmallVector<const PendingOp *, 4> Ps;
      WaitcntAnalysis::touching(St, I, RU, Ps,
                                !I.IsCall && C.unknownRegisters(&Op));
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
  return Need;
}

void waits::mergeClose(llvm::DenseMap<Operation *, Counts> &Need,
                       Operation *Fn, InstInfoCache &C, unsigned Within) {
  for (Block &B : Fn->getRegion(0)) {
    Operation *Anchor = nullptr; // op whose planned wait absorbs later ones
    unsigned Since = 0;
    for (Operation &Op : B) {
      if (isRelaxable(&Op))
        continue;
      auto It = Need.find(&Op);
      if (It != Need.end()) {
        if (Anchor && Since < Within) {
          Counts &A = Need[Anchor];
          for (unsigned K = 0; K < NumCounters; ++K)
            A[K] = std::min(A[K], It->second[K]);
          Need.erase(It);
        } else {
          Anchor = &Op;
          Since = 0;
        }
      }
      const InstInfo &I = C.get(&Op);
      if (I.Counters || I.Kind == OpKind::Waitcnt || I.IsCall) {
        Anchor = nullptr; // counts mean something else after this
        continue;
      }
      if (Anchor && &Op != Anchor)
        ++Since;
    }
  }
}

waits::Stats
waits::materialize(Legality::Transaction &T, Legality &L, Operation *Fn,
                   const llvm::DenseMap<Operation *, Counts> &Need,
                   bool Verbose) {
  InstInfoCache &C = L.cache();
  Stats S;
  OpBuilder Bld(Fn->getContext());
  SmallVector<Operation *> Relaxable;
  Fn->walk([&](Operation *Op) {
    if (isRelaxable(L, Op))
      Relaxable.push_back(Op);
  });
  S.Before = Relaxable.size();
  llvm::DenseSet<Operation *> Keep;
  for (auto &KV : Need) {
    Operation *Prev = KV.first->getPrevNode();
    if (Prev && isRelaxable(L, Prev) && !Keep.contains(Prev)) {
      const InstInfo &PI = C.get(Prev);
      if (std::equal(PI.Wait, PI.Wait + NumCounters, KV.second.begin()))
        Keep.insert(Prev);
    }
  }
  for (Operation *W : Relaxable)
    if (!Keep.contains(W))
      T.erase(W);
  S.Kept = Keep.size();
  for (Block &B : Fn->getRegion(0))
    for (Operation &Op : B) {
      auto It = Need.find(&Op);
      if (It == Need.end())
        continue;
      Operation *Prev = Op.getPrevNode();
      if (Prev && Keep.contains(Prev))
        continue;
      T.insertBefore(rewrite::makeWaitcnt(Bld, It->second.data()), &Op);
      ++S.Inserted;
      if (Verbose)
        llvm::errs() << "wait before " << C.describe(&Op) << "\n";
    }
  return S;
}
