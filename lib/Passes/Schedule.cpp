//===- Schedule.cpp - Latency-aware list scheduling inside blocks ---------===//

#include "Schedule.h"
#include "RewriteUtils.h"
#include "WaitPlanner.h"

#include "asmevo/Passes/Passes.h"

#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"

namespace asmevo {
#define GEN_PASS_DEF_SCHEDULE
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

unsigned sched::latencyOf(InstInfoCache &C, const InstInfo &I) {
  if (!I.D || I.Kind != OpKind::Inst)
    return 1;
  TargetInfo &TI = C.target();
  const llvm::MCSchedModel &SM = TI.subtarget().getSchedModel();
  int Lat = SM.computeInstrLatency(TI.subtarget(),
                                   TI.desc(I.Opcode).getSchedClass());
  if (Lat <= 0)
    return 1;
  // MFMA latencies of the model are passes; a pass is 4 cycles, like the
  // issue of one VALU op in this model's unit.
  return unsigned(Lat);
}

namespace {
/// Latency an edge imposes between the issue of its source and its target.
unsigned edgeLatency(const DependenceGraph &G, DependenceGraph::Edge E,
                     InstInfoCache &C) {
  const DepEdge &D = G.graph()[E];
  switch (D.Kind) {
  case DepKind::RAW:
  case DepKind::WaitCount:
    return sched::latencyOf(C, C.get(G.op(boost::source(E, G.graph()))));
  default:
    return 0;
  }
}
} // namespace

SmallVector<Operation *>
sched::listSchedule(ArrayRef<Operation *> Ops, const DependenceGraph &G,
                    InstInfoCache &C, bool IgnoreWAR) {
  const auto &Gr = G.graph();
  unsigned N = Ops.size();
  auto Counts = [&](DependenceGraph::Edge E) {
    return !(IgnoreWAR && Gr[E].Kind == DepKind::WAR);
  };
  // Critical path to the end of the block (vertices are in program order
  // and edges go forward).
  std::vector<unsigned> Prio(N, 1);
  for (int V = int(N) - 1; V >= 0; --V)
    for (auto [It, End] = boost::out_edges(V, Gr); It != End; ++It)
      if (Counts(*It))
        Prio[V] = std::max(Prio[V], edgeLatency(G, *It, C) + 1 +
                                        Prio[boost::target(*It, Gr)]);
  std::vector<unsigned> Missing(N, 0), Earliest(N, 0), Start(N, 0);
  for (unsigned V = 0; V < N; ++V)
    for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It)
      if (Counts(*It))
        ++Missing[V];
  std::vector<bool> Done(N, false);
  SmallVector<Operation *> Order;
  unsigned T = 0;
  for (unsigned Step = 0; Step < N; ++Step) {
    int Best = -1;
    unsigned MinEarliest = ~0u;
    for (unsigned V = 0; V < N; ++V) {
      if (Done[V] || Missing[V])
        continue;
      MinEarliest = std::min(MinEarliest, Earliest[V]);
      if (Earliest[V] > T)
        continue;
      if (Best < 0 || Prio[V] > Prio[Best])
        Best = int(V);
    }
    if (Best < 0) {
      // Nothing can issue now: advance to the first op that can.
      T = MinEarliest;
      for (unsigned V = 0; V < N; ++V)
        if (!Done[V] && !Missing[V] && Earliest[V] <= T &&
            (Best < 0 || Prio[V] > Prio[Best]))
          Best = int(V);
    }
    assert(Best >= 0 && "dependence cycle in a block graph");
    Done[Best] = true;
    Start[Best] = std::max(T, Earliest[Best]);
    T = Start[Best] + 1;
    Order.push_back(G.op(unsigned(Best)));
    for (auto [It, End] = boost::out_edges(Best, Gr); It != End; ++It) {
      if (!Counts(*It))
        continue;
      unsigned W = boost::target(*It, Gr);
      --Missing[W];
      Earliest[W] =
          std::max(Earliest[W], Start[Best] + edgeLatency(G, *It, C));
    }
  }
  return Order;
}

unsigned sched::estimateCycles(ArrayRef<Operation *> Order,
                               const DependenceGraph &G, InstInfoCache &C) {
  const auto &Gr = G.graph();
  std::vector<unsigned> Start(G.size(), 0);
  std::vector<bool> Placed(G.size(), false);
  unsigned T = 0;
  for (Operation *Op : Order) {
    int V = G.vertexOf(Op);
    if (V < 0)
      continue;
    unsigned S = T;
    for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It) {
      unsigned U = boost::source(*It, Gr);
      if (Placed[U])
        S = std::max(S, Start[U] + edgeLatency(G, *It, C));
    }
    Start[V] = S;
    Placed[V] = true;
    T = S + 1;
  }
  return T;
}

namespace {
struct SchedulePass : public asmevo::impl::ScheduleBase<SchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-schedule";
    SmallVector<Operation *> Fns;
    rewrite::editableFunctions(getOperation(), Fns);
    PcrelReferences R(getOperation()); // once for all functions
    Refs = &R;
    for (Operation *Fn : Fns)
      scheduleFunction(Fn, S);
    Refs = nullptr;
    if (summary)
      S.print(llvm::errs());
  }

  const PcrelReferences *Refs = nullptr;

  /// A block the scheduler reorders.
  struct Candidate {
    Block *B;
    SmallVector<Operation *> Ops, Nops, Relaxable, Order;
    std::unique_ptr<DependenceGraph> G;
    unsigned Old = 0, New = 0, OldNopStates = 0;
  };

  /// Drops the waits and the s_nops of the blocks it reorders, reorders,
  /// plans the function's waits again (amdgcn-waitcnt-relax's planner,
  /// within the original number of waits per block) and puts back the wait
  /// states hazards need; all in one transaction. A block whose new order
  /// needs more waits than it had, or s_nops that cost more cycles than the
  /// order saves, keeps its order (and the function is planned again).
  void scheduleFunction(Operation *Fn, rewrite::Summary &S) {
    Legality L(Fn);
    L.setPcrelReferences(*Refs);
    InstInfoCache &C = L.cache();
    std::vector<Candidate> Cands;
    Block *Entry = &Fn->getRegion(0).front();
    for (Block &B : Fn->getRegion(0)) {
      if ((&B != Entry && B.hasNoPredecessors()) || L.isFrozen(&B))
        continue; // alignment padding, kernarg-preload prologue
      Candidate Cd;
      Cd.B = &B;
      bool Skip = false;
      for (Operation &Op : B) {
        const InstInfo &I = C.get(&Op);
        if (I.Kind == OpKind::Raw)
          Skip = true;
        if (I.IsTerminator)
          continue;
        if (waits::isRelaxable(L, &Op))
          Cd.Relaxable.push_back(&Op);
        else if (I.Kind == OpKind::Nop)
          Cd.Nops.push_back(&Op);
        else
          Cd.Ops.push_back(&Op);
      }
      if (Skip || Cd.Ops.size() < 3)
        continue;
      DependenceGraph::Options O;
      O.Hazards = false;
      Cd.G = std::make_unique<DependenceGraph>(Cd.Ops, C,
                                               /*EntryState=*/nullptr, O);
      Cd.Order = sched::listSchedule(Cd.Ops, *Cd.G, C, unsafeIgnoreWAR);
      if (llvm::equal(Cd.Order, Cd.Ops))
        continue;
      Cd.Old = sched::estimateCycles(Cd.Ops, *Cd.G, C);
      Cd.New = sched::estimateCycles(Cd.Order, *Cd.G, C);
      if (!unsafeIgnoreWAR && Cd.New >= Cd.Old)
        continue;
      for (Operation *N : Cd.Nops)
        Cd.OldNopStates += C.get(N).WaitStates;
      Cands.push_back(std::move(Cd));
    }
    if (Cands.empty())
      return;
    waits::BlockCounts Budget = waits::countRelaxable(L, Fn);
    llvm::DenseSet<Block *> Kept; // blocks that keep their order
    auto isCandidate = [&](Block *B) {
      return llvm::any_of(Cands,
                          [&](const Candidate &Cd) { return Cd.B == B; });
    };
    // Each round keeps at least one more block in order, or ends.
    while (true) {
      Legality::Transaction T(L);
      unsigned Blocks = 0;
      long Saved = 0;
      for (Candidate &Cd : Cands) {
        if (Kept.contains(Cd.B))
          continue;
        for (Operation *W : Cd.Relaxable)
          T.erase(W);
        for (Operation *N : Cd.Nops)
          T.erase(N);
        Operation *Term = &Cd.B->back();
        for (Operation *Op : Cd.Order)
          T.moveBefore(Op, Term);
        ++Blocks;
        Saved += long(Cd.Old) - long(Cd.New);
      }
      if (!Blocks)
        return;
      waits::OpSet Pinned;
      llvm::DenseMap<Operation *, waits::Counts> Need;
      SmallVector<Block *> Over;
      if (!waits::planWithinBudget(L, Fn, Budget, /*MergeWithin=*/2, Pinned,
                                   Need, Over)) {
        // The new orders (or what they leave in flight at their ends) need
        // more waits: keep those blocks, and their reordered predecessors,
        // in order.
        unsigned Before = Kept.size();
        for (Block *B : Over) {
          if (isCandidate(B))
            Kept.insert(B);
          for (Block *P : B->getPredecessors())
            if (isCandidate(P))
              Kept.insert(P);
        }
        if (verbose)
          llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                       << ": " << Over.size()
                       << " block(s) would need more waits\n";
        if (Kept.size() == Before) {
          ++S.Refused;
          return;
        }
        continue;
      }
      waits::materialize(T, L, Fn, Need, /*Verbose=*/false, &Pinned);
      T.insertNopsForHazards();
      if (!unsafeIgnoreWAR) {
        // The cycles an order saves must pay for the s_nops it needs.
        bool Worse = false;
        for (Candidate &Cd : Cands) {
          if (Kept.contains(Cd.B))
            continue;
          unsigned NopStates = 0;
          for (Operation &Op : *Cd.B)
            if (C.get(&Op).Kind == OpKind::Nop)
              NopStates += C.get(&Op).WaitStates;
          Saved += long(Cd.OldNopStates) - long(NopStates);
          if (Cd.New + NopStates >= Cd.Old + Cd.OldNopStates) {
            Kept.insert(Cd.B);
            Worse = true;
            if (verbose)
              llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                           << ": block of " << Cd.Ops.size()
                           << " ops kept: " << Cd.Old << " + "
                           << Cd.OldNopStates << " -> " << Cd.New << " + "
                           << NopStates << " modelled cycles + nop states\n";
          }
        }
        if (Worse)
          continue;
      }
      Verdict V = T.commit();
      if (!V) {
        ++S.Refused;
        if (verbose || unsafeIgnoreWAR)
          llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                       << " refused: " << verdictKindName(V.K) << ": "
                       << V.Reason << "\n";
        return;
      }
      if (verbose)
        for (Candidate &Cd : Cands)
          if (!Kept.contains(Cd.B))
            llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                         << ": block of " << Cd.Ops.size() << " ops: " << Cd.Old
                         << " -> " << Cd.New << " modelled cycles\n";
      ++S.FunctionsChanged;
      S.add("blocks rescheduled", Blocks);
      // Net of the wait states the new orders' s_nops add or save.
      S.add("modelled cycles saved", Saved);
      return;
    }
  }
};
} // namespace
