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

#include "llvm/ADT/SetVector.h"

#include <deque>
#include <optional>

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

/// Whether a call may issue or retire memory ops, so that counts before and
/// after it do not compare. Not a modelled internal call: its subroutines
/// are plain ALU code (InternalCallModel), what is in flight stays so.
static bool changesCounts(const InstInfo &I) {
  return I.IsCall && !I.isModelledInternalCall();
}

bool waits::isRelaxable(Operation *Op) {
  auto W = dyn_cast<WaitcntOp>(Op);
  return W && WaitcntOp::encodeCounts(W.getVmcnt(), W.getExpcnt(),
                                      W.getLgkmcnt()) == W.getImm();
}

bool waits::isRelaxable(Legality &L, Operation *Op) {
  return isRelaxable(Op) && !L.isFrozen(Op->getBlock());
}

unsigned waits::pinPathWaits(Legality &L, Operation *Fn, OpSet &Pinned) {
  llvm::SetVector<Operation *> Producers;
  unsigned Reads = 0;
  for (Block &B : Fn->getRegion(0))
    for (Operation &Op : B)
      if (const auto *Ps = L.baselineUnwaitedAt(&Op))
        for (Operation *P : *Ps)
          if (P && L.baselineUnwaitedCounters(&Op, P) !=
                       L.baselineUnwaitedCounters(&Op, P, /*PathsKept=*/true)) {
            Producers.insert(P);
            ++Reads;
          }
  if (Producers.empty())
    return 0;
  for (Block &B : Fn->getRegion(0))
    for (Operation &W : B)
      if (isRelaxable(L, &W) && !Pinned.contains(&W))
        for (Operation *P : Producers)
          if (L.baselineMayBePendingBefore(P, &W)) {
            Pinned.insert(&W);
            break;
          }
  return Reads;
}

llvm::DenseMap<Operation *, waits::Counts>
waits::plan(Legality &L, Operation *Fn, const OpSet *Pinned, bool PathsKept) {
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
      WaitcntAnalysis::touching(St, I, RU, Ps, C.touchesAllRegisters(&Op));
      // What the original let this op touch in flight is tolerated by the
      // legality check; waiting for it would add a wait the original lacks.
      // Only on the counters the original left it counted on and retired it
      // on no path into the op: the others it had waited for (vmcnt(0)
      // after lgkmcnt(0)), perhaps on the one path that reaches the op, so
      // must we, on every path (waitcnt-path-wait.mlir).
      for (const PendingOp *P : Ps) {
        PendingOp Rest = *P;
        Rest.Counters &= ~L.baselineUnwaitedCounters(&Op, P->Op, PathsKept);
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

/// Whether the wait planned before Op is also a wait state a hazard needs:
/// without it, Op or one of the ops after it in its block (within the
/// hazard lookback) would lack wait states it has with it, and amdgcn-hazard
/// would put an s_nop in its place. Relaxable waits are going; planned
/// waits give one wait state each.
static bool
isWaitState(HazardChecker &HC, Operation *Op,
            const llvm::DenseMap<Operation *, waits::Counts> &Need) {
  InstInfoCache &C = HC.cache();
  SmallVector<Operation *, 48> Seq;
  SmallVector<int, 48> Gap;
  int States = 0;
  for (Operation *X = Op->getPrevNode(); X && States <= MaxHazardWaitStates;
       X = X->getPrevNode()) {
    if (waits::isRelaxable(X))
      continue;
    int G = Need.count(X) ? 1 : 0;
    Seq.push_back(X);
    Gap.push_back(G);
    States += int(C.get(X).WaitStates) + G;
  }
  std::reverse(Seq.begin(), Seq.end());
  std::reverse(Gap.begin(), Gap.end());
  if (HC.missingAfter(Seq, Gap, Op) > 0)
    return true;
  // The ops after Op: missingAfter counts the wait states before each op
  // of the sequence, not before the consumer, so a consumer's own planned
  // wait is taken off what it misses.
  unsigned At = Seq.size();
  Seq.push_back(Op);
  Gap.push_back(1);
  States = int(C.get(Op).WaitStates);
  for (Operation *Y = Op->getNextNode(); Y && States <= MaxHazardWaitStates;
       Y = Y->getNextNode()) {
    if (waits::isRelaxable(Y))
      continue;
    int Own = Need.count(Y) ? 1 : 0;
    int With = std::max(0, HC.missingAfter(Seq, Gap, Y) - Own);
    Gap[At] = 0;
    int Without = std::max(0, HC.missingAfter(Seq, Gap, Y) - Own);
    Gap[At] = 1;
    if (Without > With)
      return true;
    Seq.push_back(Y);
    Gap.push_back(Own);
    States += int(C.get(Y).WaitStates) + Own;
  }
  return false;
}

void waits::mergeClose(llvm::DenseMap<Operation *, Counts> &Need,
                       Operation *Fn, InstInfoCache &C, unsigned Within) {
  HazardChecker HC(C, /*MemoizePairs=*/true); // the ops do not change here
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
        if (Anchor && Since < Within && !isWaitState(HC, &Op, Need)) {
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
      if (I.Counters || I.Kind == OpKind::Waitcnt || changesCounts(I)) {
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
  HazardChecker HC(C, /*MemoizePairs=*/true); // the ops do not change here
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
      if (changesCounts(I))
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
    // Whether the wait planned before Planned[J] is also a wait state a
    // hazard needs (merged away, an s_nop would take its place); computed
    // when first asked, again once a merge removed a wait close to it.
    SmallVector<int8_t> Costly(Planned.size(), -1);
    auto costly = [&](unsigned J) {
      if (Costly[J] < 0)
        Costly[J] = isWaitState(HC, Planned[J], Need);
      return Costly[J] == 1;
    };
    while (Planned.size() + Fixed > Allowed) {
      // Closest pair first, but a merge that needs no s_nop before one that
      // does: the block budget is met either way.
      int Best = -1;
      unsigned BestGap = ~0u;
      bool BestCostly = true;
      for (unsigned J = 1; J < Planned.size(); ++J) {
        unsigned Gap = Pos[J] - Pos[J - 1];
        if (!BestCostly && Gap >= BestGap)
          continue;
        if (!merged(J))
          continue;
        bool Cost = costly(J);
        if (Best < 0 || (BestCostly && !Cost) ||
            (Cost == BestCostly && Gap < BestGap)) {
          Best = int(J);
          BestGap = Gap;
          BestCostly = Cost;
        }
      }
      if (Best < 0)
        break;
      Need[Planned[Best - 1]] = *merged(unsigned(Best));
      Need.erase(Planned[Best]);
      // The answers of the waits near it, before and after, may change.
      for (unsigned J = 0; J < Planned.size(); ++J)
        if (std::max(Pos[J], Pos[Best]) - std::min(Pos[J], Pos[Best]) <=
            unsigned(MaxHazardWaitStates) + 1)
          Costly[J] = -1;
      Planned.erase(Planned.begin() + Best);
      Pos.erase(Pos.begin() + Best);
      Pre.erase(Pre.begin() + Best);
      Costly.erase(Costly.begin() + Best);
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
                             SmallVectorImpl<Block *> &Over, bool PathsKept) {
  while (true) {
    Need = plan(L, Fn, &Pinned, PathsKept);
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
    // The over-budget blocks' own waits first; then those of the blocks
    // before them, one level further up each time nothing new was pinned.
    visitUpward(Over, /*MinLevels=*/0, [&] { return !Grew; }, pin);
    if (!Grew)
      return false;
  }
}

void waits::visitUpward(ArrayRef<Block *> Start, unsigned MinLevels,
                        llvm::function_ref<bool()> More,
                        llvm::function_ref<void(Block *)> Visit) {
  llvm::SmallPtrSet<Block *, 16> Seen;
  SmallVector<Block *> Level(Start.begin(), Start.end());
  for (unsigned Depth = 0; !Level.empty() && (Depth < MinLevels || More());
       ++Depth) {
    SmallVector<Block *> Up;
    for (Block *B : Level)
      if (Seen.insert(B).second) {
        Visit(B);
        for (Block *P : B->getPredecessors())
          Up.push_back(P);
      }
    Level = std::move(Up);
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
