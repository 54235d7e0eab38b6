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

#include "asmevo/Analysis/Hazards.h"

#include <deque>
#include <optional>

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

llvm::DenseMap<Operation *, waits::Counts>
waits::plan(Legality &L, Operation *Fn, const OpSet *Pinned) {
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
      if (isRelaxable(L, &Op) && !(Pinned && Pinned->contains(&Op)))
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
      // What the original let this op touch in flight is tolerated by the
      // legality check; waiting for it would add a wait the original lacks.
      // Only on the counters the original left it counted on: the others
      // it had waited for (vmcnt(0) after lgkmcnt(0)), so must we.
      for (const PendingOp *P : Ps) {
        PendingOp Rest = *P;
        Rest.Counters &= ~L.baselineUnwaitedCounters(&Op, P->Op);
        if (Rest.Counters)
          Rest.requiredCounts(N);
      }
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

/// Wait states Op would lack if the wait planned before it went away: the
/// hazards of the ops of its block before it (relaxable waits are going,
/// planned waits give one wait state each).
static int
hazardWithoutWait(HazardChecker &HC, Operation *Op,
                  const llvm::DenseMap<Operation *, waits::Counts> &Need) {
  SmallVector<Operation *, 24> Prior;
  SmallVector<int, 24> Gap;
  int States = 0;
  for (Operation *X = Op->getPrevNode(); X && States <= MaxHazardWaitStates;
       X = X->getPrevNode()) {
    if (waits::isRelaxable(X))
      continue;
    int G = Need.count(X) ? 1 : 0;
    Prior.push_back(X);
    Gap.push_back(G);
    States += int(HC.cache().get(X).WaitStates) + G;
  }
  std::reverse(Prior.begin(), Prior.end());
  std::reverse(Gap.begin(), Gap.end());
  return HC.missingAfter(Prior, Gap, Op);
}

void waits::mergeClose(llvm::DenseMap<Operation *, Counts> &Need,
                       Operation *Fn, InstInfoCache &C, unsigned Within) {
  HazardChecker HC(C);
  for (Block &B : Fn->getRegion(0)) {
    Operation *Anchor = nullptr; // op whose planned wait absorbs later ones
    unsigned Since = 0;
    for (Operation &Op : B) {
      if (isRelaxable(&Op))
        continue;
      auto It = Need.find(&Op);
      if (It != Need.end()) {
        // A wait that also gives a hazard its wait state is not merged
        // away: an s_nop would take its place, for no slot saved and an
        // earlier wait.
        if (Anchor && Since < Within && hazardWithoutWait(HC, &Op, Need) <= 0) {
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

waits::BlockCounts waits::countRelaxable(Legality &L, Operation *Fn) {
  BlockCounts N;
  for (Block &B : Fn->getRegion(0))
    for (Operation &Op : B)
      if (isRelaxable(L, &Op))
        ++N[&B];
  return N;
}

void waits::fitBudget(llvm::DenseMap<Operation *, Counts> &Need, Operation *Fn,
                      InstInfoCache &C, const BlockCounts &Budget,
                      const OpSet &Pinned, SmallVectorImpl<Block *> &Over) {
  unsigned Max[NumCounters];
  maxCounts(Max);
  llvm::DenseMap<Block *, unsigned> Count; // waits after merging
  for (Block &B : Fn->getRegion(0)) {
    // Position and counter increments before each op (prefix sums), calls.
    SmallVector<Operation *> Planned;
    SmallVector<unsigned> Pos;
    SmallVector<std::array<unsigned, NumCounters + 1>> Pre; // + calls
    std::array<unsigned, NumCounters + 1> Acc{};
    unsigned Index = 0, Fixed = 0;
    for (Operation &Op : B) {
      if (Pinned.contains(&Op)) {
        ++Fixed;
        continue;
      }
      if (isRelaxable(&Op))
        continue; // erased by materialize
      if (Need.count(&Op)) {
        Planned.push_back(&Op);
        Pos.push_back(Index);
        Pre.push_back(Acc);
      }
      const InstInfo &I = C.get(&Op);
      for (unsigned K = 0; K < NumCounters; ++K)
        if (I.Counters & (1u << K))
          ++Acc[K];
      if (I.IsCall)
        ++Acc[NumCounters];
      ++Index;
    }
    auto BIt = Budget.find(&B);
    unsigned Allowed = BIt == Budget.end() ? 0 : BIt->second;
    // Merge U = Planned[J] into P = Planned[J-1]: the new counts for P, or
    // nothing when U needs an op issued after P.
    auto merged = [&](unsigned J) -> std::optional<Counts> {
      if (Pre[J][NumCounters] != Pre[J - 1][NumCounters])
        return std::nullopt;
      Counts M = Need[Planned[J - 1]];
      const Counts &U = Need[Planned[J]];
      for (unsigned K = 0; K < NumCounters; ++K) {
        if (U[K] >= Max[K])
          continue;
        unsigned Issued = Pre[J][K] - Pre[J - 1][K];
        if (U[K] < Issued)
          return std::nullopt;
        M[K] = std::min(M[K], U[K] - Issued);
      }
      return M;
    };
    while (Planned.size() + Fixed > Allowed) {
      int Best = -1;
      unsigned BestGap = ~0u;
      for (unsigned J = 1; J < Planned.size(); ++J)
        if (Pos[J] - Pos[J - 1] < BestGap && merged(J)) {
          Best = int(J);
          BestGap = Pos[J] - Pos[J - 1];
        }
      if (Best < 0)
        break;
      Need[Planned[Best - 1]] = *merged(unsigned(Best));
      Need.erase(Planned[Best]);
      Planned.erase(Planned.begin() + Best);
      Pos.erase(Pos.begin() + Best);
      Pre.erase(Pre.begin() + Best);
    }
    Count[&B] = Planned.size() + Fixed;
  }
  // A block entered only from its predecessor P runs at most once per run
  // of P (and only one of P's successors does), so it may use the waits P
  // saved: executed waits still do not grow on any path.
  auto budgetOf = [&](Block *B) {
    auto It = Budget.find(B);
    return It == Budget.end() ? 0u : It->second;
  };
  Block *Entry = &Fn->getRegion(0).front();
  for (Block &B : Fn->getRegion(0)) {
    unsigned Allowed = budgetOf(&B);
    if (Count[&B] <= Allowed)
      continue;
    Block *P = B.getSinglePredecessor();
    if (P && P != &B && &B != Entry && Count[P] <= budgetOf(P) &&
        Count[&B] <= Allowed + (budgetOf(P) - Count[P]))
      continue;
    Over.push_back(&B);
  }
}

bool waits::planWithinBudget(Legality &L, Operation *Fn,
                             const BlockCounts &Budget, unsigned MergeWithin,
                             OpSet &Pinned,
                             llvm::DenseMap<Operation *, Counts> &Need,
                             SmallVectorImpl<Block *> &Over) {
  while (true) {
    Need = plan(L, Fn, &Pinned);
    mergeClose(Need, Fn, L.cache(), MergeWithin);
    Over.clear();
    fitBudget(Need, Fn, L.cache(), Budget, Pinned, Over);
    if (Over.empty())
      return true;
    bool Grew = false;
    auto pin = [&](Block *B) {
      for (Operation &Op : *B)
        if (isRelaxable(L, &Op) && Pinned.insert(&Op).second)
          Grew = true;
    };
    for (Block *B : Over)
      pin(B);
    if (!Grew)
      for (Block *B : Over)
        for (Block *P : B->getPredecessors())
          pin(P);
    if (!Grew)
      return false;
  }
}

waits::Stats waits::materialize(Legality::Transaction &T, Legality &L,
                                Operation *Fn,
                                const llvm::DenseMap<Operation *, Counts> &Need,
                                bool Verbose, const OpSet *Pinned) {
  InstInfoCache &C = L.cache();
  Stats S;
  OpBuilder Bld(Fn->getContext());
  SmallVector<Operation *> Relaxable;
  Fn->walk([&](Operation *Op) {
    if (isRelaxable(L, Op))
      Relaxable.push_back(Op);
  });
  S.Before = Relaxable.size();
  // Reused: a relaxable wait right before an op that needs exactly its
  // counts stands for the planned one.
  llvm::DenseSet<Operation *> Keep, Reused;
  if (Pinned)
    for (Operation *W : Relaxable)
      if (Pinned->contains(W))
        Keep.insert(W);
  for (auto &KV : Need) {
    Operation *Prev = KV.first->getPrevNode();
    if (Prev && isRelaxable(L, Prev) && !Keep.contains(Prev)) {
      const InstInfo &PI = C.get(Prev);
      if (std::equal(PI.Wait, PI.Wait + NumCounters, KV.second.begin())) {
        Keep.insert(Prev);
        Reused.insert(Prev);
      }
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
      if (Prev && Reused.contains(Prev))
        continue;
      T.insertBefore(rewrite::makeWaitcnt(Bld, It->second.data()), &Op);
      ++S.Inserted;
      if (Verbose)
        llvm::errs() << "wait before " << C.describe(&Op) << "\n";
    }
  return S;
}
