//===- Schedule.cpp - Latency-aware list scheduling inside blocks ---------===//

#include "Schedule.h"
#include "RewriteUtils.h"
#include "WaitPlanner.h"

#include "asmevo/Passes/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <optional>

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

/// Slot from which Op's register sources are ready, given what is in
/// flight at the block's entry.
static unsigned entryReady(InstInfoCache &C, Operation *Op,
                           const sched::PipeState *Entry) {
  if (!Entry)
    return 0;
  const InstInfo &I = C.get(Op);
  int R = 0;
  for (unsigned U : I.Uses)
    if (!C.units().isPseudo(U))
      if (auto It = Entry->RegReady.find(U); It != Entry->RegReady.end())
        R = std::max(R, It->second);
  if (I.isMFMA())
    R = std::max(R, Entry->MfmaFree);
  return unsigned(R);
}

namespace {
/// The s_waitcnt amdgcn-schedule will plan before an op that reads or
/// overwrites the result of a memory op of the block not waited for yet is
/// a wait state too: the hazard view of an order counts it like one wait
/// state of an s_nop before that op (an order without it would otherwise
/// look like it needs an s_nop the wait gives). Approximate: the planner
/// may merge waits; amdgcn-schedule's whole-block check sees the real ones.
class VirtualWaits {
public:
  VirtualWaits(const DependenceGraph &G, InstInfoCache &C, bool Enabled)
      : G(G), C(C), Pos(G.size(), -1), Enabled(Enabled) {}

  /// Wait states a wait before V would give, were V placed next.
  int before(unsigned V) const {
    if (!Enabled)
      return 0;
    const auto &Gr = G.graph();
    for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It) {
      DepKind K = Gr[*It].Kind;
      if (K != DepKind::RAW && K != DepKind::WAW)
        continue;
      int P = Pos[boost::source(*It, Gr)];
      if (P >= Waited && isCounted(boost::source(*It, Gr)))
        return 1;
    }
    return 0;
  }

  /// V is placed next (after its virtual wait, when it has one).
  void place(unsigned V) {
    const auto &Gr = G.graph();
    if (before(V))
      for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It)
        if (unsigned U = boost::source(*It, Gr); isCounted(U))
          Waited = std::max(Waited, Pos[U] + 1);
    Pos[V] = Next++;
  }

private:
  bool isCounted(unsigned U) const {
    return C.get(G.op(U)).Counters &
           (counterBit(Counter::VM) | counterBit(Counter::LGKM));
  }
  const DependenceGraph &G;
  InstInfoCache &C;
  std::vector<int> Pos;
  bool Enabled;
  int Next = 0, Waited = 0; // ops before position Waited are waited for
};
} // namespace

/// Candidates listSchedule asks the hazard table about per step.
static constexpr unsigned MaxHazardQueries = 8;

SmallVector<Operation *>
sched::listSchedule(ArrayRef<Operation *> Ops, const DependenceGraph &G,
                    InstInfoCache &C, bool IgnoreWAR, const PipeState *Entry,
                    ListOptions LO, bool *Delayed, HazardChecker *SharedHC) {
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
  std::vector<bool> IsMfma(N, false);
  for (unsigned V = 0; V < N; ++V) {
    for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It)
      if (Counts(*It))
        ++Missing[V];
    // Results the predecessors still compute (a loop's own MFMA chain).
    Earliest[V] = entryReady(C, G.op(V), Entry);
    IsMfma[V] = C.get(G.op(V)).isMFMA();
  }
  // The matrix unit is busy for an MFMA's passes: the next one waits.
  unsigned MfmaFree = Entry ? unsigned(Entry->MfmaFree) : 0;
  auto earliest = [&](unsigned V) {
    return IsMfma[V] ? std::max(Earliest[V], MfmaFree) : Earliest[V];
  };
  SmallVector<Operation *> Order;
  // Wait states before each op of Order: the s_nops amdgcn-hazard will put
  // there and the s_waitcnt the op will get (VirtualWaits). An op that
  // needs s_nops takes that many more slots, so an independent op that
  // fills the distance is preferred (LLVM's hazard recognizer does the same
  // in its scheduler).
  // Every step asks about the same candidates again, after one more op:
  // HazardOrder walks only what was appended since (memoized pairs; nothing
  // changes the ops while it runs).
  std::optional<HazardChecker> OwnHC;
  HazardChecker &HC = SharedHC ? *SharedHC : OwnHC.emplace(C, true);
  HazardOrder HO(HC);
  VirtualWaits VW(G, C, LO.CountWaits);
  auto delay = [&](unsigned V) {
    return std::max(0, HO.missing(G.op(V)) - VW.before(V));
  };
  // Candidates by priority (ties: program order).
  std::vector<unsigned> ByPrio(N), Rank(N);
  for (unsigned V = 0; V < N; ++V)
    ByPrio[V] = V;
  llvm::stable_sort(ByPrio,
                    [&](unsigned A, unsigned B) { return Prio[A] > Prio[B]; });
  // The ops whose sources are placed and that are not yet, as ranks in
  // ByPrio, ascending: the steps walk these, not every op of the block.
  SmallVector<unsigned> Ready;
  for (unsigned R = 0; R < N; ++R) {
    Rank[ByPrio[R]] = R;
    if (!Missing[ByPrio[R]])
      Ready.push_back(R);
  }
  unsigned T = 0;
  for (unsigned Step = 0; Step < N; ++Step) {
    // The ready op of highest priority that needs no wait states; else the
    // op that can start first (its sources, the matrix unit, its wait
    // states), the higher priority on a tie.
    int Best = -1, BestDelay = 0;
    // No op needs more wait states than the table's maximum: ops that
    // cannot start before then need not be asked about hazards.
    unsigned MinLower = ~0u;
    for (unsigned R : Ready)
      MinLower = std::min(MinLower, std::max(T, earliest(ByPrio[R])));
    unsigned BestStart = MinLower + MaxHazardWaitStates + 1;
    // Asking the hazard table is the costly part: at most this many
    // candidates a step, by priority (Tensile's loop bodies have thousands
    // of ops, MFMAs that all need wait states after each other).
    unsigned Asked = 0;
    for (unsigned R : Ready) {
      unsigned V = ByPrio[R];
      unsigned Lower = std::max(T, earliest(V));
      if (Lower >= BestStart)
        continue;
      if (Best >= 0 && Asked >= MaxHazardQueries)
        break;
      ++Asked;
      int D = delay(V);
      unsigned Begin = std::max(earliest(V), T + unsigned(D));
      if (Begin < BestStart) {
        Best = int(V);
        BestStart = Begin;
        BestDelay = D;
        if (Begin == T)
          break; // ready now, and nothing of higher priority was
      }
    }
    assert(Best >= 0 && "dependence cycle in a block graph");
    if (LO.AvoidNops && BestDelay > 0) {
      // An s_nop only when no op whose sources are computed (or in flight)
      // can go next without one: the one that starts first, by priority on
      // a tie. It may wait for a latency the s_nop would have hidden; the
      // caller compares both orders with s_nops charged in full.
      int Free = -1;
      unsigned FreeStart = ~0u;
      Asked = 0;
      for (unsigned R : Ready) {
        unsigned V = ByPrio[R];
        if (int(V) == Best)
          continue;
        unsigned Begin = std::max(T, earliest(V));
        if (Begin >= FreeStart)
          continue;
        if (Asked++ >= MaxHazardQueries)
          break;
        if (delay(V) == 0) {
          Free = int(V);
          FreeStart = Begin;
        }
      }
      if (Free >= 0) {
        Best = Free;
        BestStart = FreeStart;
        BestDelay = 0;
      }
    }
    if (Delayed && BestDelay > 0)
      *Delayed = true;
    Ready.erase(llvm::lower_bound(Ready, Rank[Best]));
    Start[Best] = BestStart;
    T = Start[Best] + 1;
    if (IsMfma[Best])
      MfmaFree = Start[Best] + std::max(latencyOf(C, C.get(G.op(Best))),
                                        C.get(G.op(Best)).Passes);
    HO.push(G.op(unsigned(Best)), BestDelay + VW.before(unsigned(Best)));
    VW.place(unsigned(Best));
    Order.push_back(G.op(unsigned(Best)));
    for (auto [It, End] = boost::out_edges(Best, Gr); It != End; ++It) {
      if (!Counts(*It))
        continue;
      unsigned W = boost::target(*It, Gr);
      if (!--Missing[W])
        Ready.insert(llvm::lower_bound(Ready, Rank[W]), Rank[W]);
      Earliest[W] =
          std::max(Earliest[W], Start[Best] + edgeLatency(G, *It, C));
    }
  }
  return Order;
}

unsigned sched::estimateCycles(ArrayRef<Operation *> Order,
                               const DependenceGraph &G, InstInfoCache &C,
                               const PipeState *Entry, unsigned *NopSlots,
                               HazardChecker *SharedHC) {
  const auto &Gr = G.graph();
  std::vector<unsigned> Start(G.size(), 0);
  std::vector<bool> Placed(G.size(), false);
  unsigned T = 0;
  unsigned MfmaFree = Entry ? unsigned(Entry->MfmaFree) : 0;
  // The s_nops hazards need in this order, charged in full: an s_nop's
  // wait states are issue slots of the wave even where this one-wave
  // model would hide them under a latency (waiting for a load, say), so
  // an order that needs more s_nops is never rated faster for them
  // (except under a busy matrix unit, below).
  std::optional<HazardChecker> OwnHC;
  HazardChecker &HC = SharedHC ? *SharedHC : OwnHC.emplace(C, true);
  VirtualWaits VW(G, C, /*Enabled=*/true);
  SmallVector<Operation *> Prior;
  SmallVector<int> Gap;
  unsigned Nops = 0;
  for (Operation *Op : Order) {
    int V = G.vertexOf(Op);
    if (V < 0)
      continue;
    const InstInfo &I = C.get(Op);
    int W = VW.before(unsigned(V));
    int D = std::max(0, HC.missingAfter(Prior, Gap, Op) - W);
    Prior.push_back(Op);
    Gap.push_back(D + W);
    VW.place(unsigned(V));
    // Under a busy matrix unit the wait states are the MFMA pipeline's
    // latency (simulate's rule).
    unsigned S = std::max(T, entryReady(C, Op, Entry));
    if (MfmaFree >= T + unsigned(D))
      S = std::max(S, T + unsigned(D));
    else
      Nops += unsigned(D);
    if (I.isMFMA()) {
      S = std::max(S, MfmaFree);
      MfmaFree = S + std::max(latencyOf(C, I), I.Passes);
    }
    for (auto [It, End] = boost::in_edges(V, Gr); It != End; ++It) {
      unsigned U = boost::source(*It, Gr);
      if (Placed[U])
        S = std::max(S, Start[U] + edgeLatency(G, *It, C));
    }
    Start[V] = S;
    Placed[V] = true;
    T = S + 1;
  }
  if (NopSlots)
    *NopSlots = Nops;
  return T + Nops;
}

namespace {
/// Wait until at most N of the ops in Q (completion slots) are left.
int waitFor(SmallVectorImpl<int> &Q, unsigned N, int T) {
  if (Q.size() <= N)
    return T;
  llvm::sort(Q);
  size_t Done = Q.size() - N;
  T = std::max(T, Q[Done - 1]);
  Q.erase(Q.begin(), Q.begin() + Done);
  return T;
}
} // namespace

unsigned sched::simulate(ArrayRef<Operation *> Seq, InstInfoCache &C,
                         const PipeState *Entry, PipeState *Exit,
                         bool ChargeNops) {
  int Charged = 0;
  const RegUnitInfo &RU = C.units();
  PipeState S;
  if (Entry)
    S = *Entry;
  int T = 0;
  for (Operation *Op : Seq) {
    const InstInfo &I = C.get(Op);
    switch (I.Kind) {
    case OpKind::Waitcnt: {
      int Start = T;
      if (I.Wait[unsigned(Counter::VM)] < 63)
        Start = waitFor(S.Vm, I.Wait[unsigned(Counter::VM)], Start);
      if (I.Wait[unsigned(Counter::LGKM)] < 15)
        Start = waitFor(S.Lgkm, I.Wait[unsigned(Counter::LGKM)], Start);
      T = Start + 1;
      continue;
    }
    case OpKind::Nop:
      // Under a busy matrix unit the wait states are the MFMA pipeline's
      // latency, which any order waits for; elsewhere, with ChargeNops,
      // they are added slots that no latency hides.
      if (ChargeNops && S.MfmaFree < T + int(I.WaitStates))
        Charged += int(I.WaitStates);
      else
        T += int(I.WaitStates);
      continue;
    case OpKind::Barrier:
      T += 1 + int(BarrierSlots);
      continue;
    case OpKind::Branch:
    case OpKind::Indirect:
      T += 1 + int(BranchTakenSlots);
      continue;
    case OpKind::Fallthrough:
      continue;
    case OpKind::Inst:
      break;
    default:
      T += 1;
      continue;
    }
    int Start = T;
    for (unsigned U : I.Uses)
      if (!RU.isPseudo(U))
        if (auto It = S.RegReady.find(U); It != S.RegReady.end())
          Start = std::max(Start, It->second);
    int Lat = int(std::max(1u, latencyOf(C, I)));
    int Ready;
    if (I.isMFMA()) {
      Lat = std::max(Lat, int(I.Passes));
      Start = std::max({Start, S.MfmaFree, S.ValuFree});
      S.MfmaFree = Start + Lat;
      S.ValuFree = Start + 1;
      Ready = Start + Lat;
    } else if (I.Counters &
               (counterBit(Counter::VM) | counterBit(Counter::LGKM))) {
      Ready = Start + Lat;
      if (I.Counters & counterBit(Counter::VM)) {
        // vmcnt completes in order, and the data of one op after the other
        // comes back through the CU's vector memory path.
        if (!S.Vm.empty())
          Ready = std::max(Ready, S.Vm.back() + int(VmemReturnSlots));
        S.Vm.push_back(Ready);
      }
      if (I.Counters & counterBit(Counter::LGKM))
        S.Lgkm.push_back(Ready);
    } else {
      if (I.isVALU()) {
        Start = std::max(Start, S.ValuFree);
        S.ValuFree = Start + Lat;
      }
      Ready = Start + Lat;
    }
    for (unsigned U : I.Defs)
      if (!RU.isPseudo(U))
        S.RegReady[U] = Ready;
    T = Start + 1;
  }
  if (Exit) {
    // Relative to the end of Seq; what is done by then is dropped.
    *Exit = PipeState();
    for (auto [U, R] : S.RegReady)
      if (R > T)
        Exit->RegReady[U] = R - T;
    Exit->MfmaFree = std::max(0, S.MfmaFree - T);
    Exit->ValuFree = std::max(0, S.ValuFree - T);
    for (int R : S.Vm)
      if (R > T)
        Exit->Vm.push_back(R - T);
    for (int R : S.Lgkm)
      if (R > T)
        Exit->Lgkm.push_back(R - T);
  }
  return unsigned(T + Charged);
}

sched::PipeState sched::entryState(Block *B, InstInfoCache &C) {
  PipeState E;
  llvm::SmallPtrSet<Block *, 4> Seen;
  for (Block *P : B->getPredecessors()) {
    if (!Seen.insert(P).second)
      continue;
    SmallVector<Operation *> Ops;
    for (Operation &Op : *P)
      Ops.push_back(&Op);
    PipeState X;
    simulate(Ops, C, nullptr, &X);
    for (auto [U, R] : X.RegReady)
      E.RegReady[U] = std::max(E.RegReady.lookup(U), R);
    E.MfmaFree = std::max(E.MfmaFree, X.MfmaFree);
    E.ValuFree = std::max(E.ValuFree, X.ValuFree);
    // The latest of the predecessors' queues, aligned at the newest op.
    for (auto [Q, XQ] :
         {std::pair{&E.Vm, &X.Vm}, std::pair{&E.Lgkm, &X.Lgkm}}) {
      llvm::sort(*XQ);
      if (XQ->size() > Q->size())
        Q->insert(Q->begin(), XQ->size() - Q->size(), 0);
      for (size_t K = 0; K < XQ->size(); ++K) {
        int &Dst = (*Q)[Q->size() - XQ->size() + K];
        Dst = std::max(Dst, (*XQ)[K]);
      }
    }
  }
  return E;
}

/// The blocks whose new order made T put s_nops into the subroutines of
/// internal calls (a pair whose consumer is there lost wait states, which
/// only amdgcn-hazard may add there): the blocks of the pairs' producers
/// outside fixed code (Producers), and of the calls that reach the padded
/// blocks (Calls, for a producer in a subroutine or an order that moved a
/// call closer to it). Both empty when T puts no s_nop there.
static void blocksPaddingSubroutines(Legality &L, Legality::Transaction &T,
                                     SmallVectorImpl<Block *> &Producers,
                                     SmallVectorImpl<Block *> &Calls) {
  SmallVector<Block *> Fixed;
  L.blocksChangingFixedCode(T, Fixed);
  if (Fixed.empty())
    return;
  const InternalCallModel &M = L.internalCalls();
  HazardChecker HC(L.cache());
  llvm::SmallPtrSet<Block *, 8> Seen;
  for (Block *B : Fixed)
    for (Operation &X : *B) {
      SmallVector<HazardPair, 2> Pairs;
      HC.pairsFor(&X, Pairs);
      for (const HazardPair &P : Pairs)
        if (Block *PB = P.Producer->getBlock();
            !M.isFixedBlock(PB) && Seen.insert(PB).second)
          Producers.push_back(PB);
    }
  llvm::SmallPtrSet<Block *, 8> Padded(Fixed.begin(), Fixed.end());
  for (Operation *Call : M.callSites()) {
    // The fixed blocks the call's subroutines run.
    SmallVector<Block *> Work(M.targetsOf(Call).begin(),
                              M.targetsOf(Call).end());
    llvm::SmallPtrSet<Block *, 8> Reached(Work.begin(), Work.end());
    bool Reaches = false;
    while (!Work.empty() && !Reaches) {
      Block *B = Work.pop_back_val();
      Reaches = Padded.contains(B);
      for (Block *S : B->getSuccessors())
        if (M.isFixedBlock(S) && Reached.insert(S).second)
          Work.push_back(S);
    }
    if (Reaches && Seen.insert(Call->getBlock()).second)
      Calls.push_back(Call->getBlock());
  }
}

namespace {
struct SchedulePass : public asmevo::impl::ScheduleBase<SchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-schedule";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      scheduleFunction(Fn, C, Refs, S);
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }

  /// A block the scheduler reorders.
  struct Candidate {
    Block *B;
    SmallVector<Operation *> Ops, Nops, Relaxable, Order;
    std::unique_ptr<DependenceGraph> G;
    unsigned Old = 0, New = 0;
    /// Whether Order keeps memory ops and waits in place around internal
    /// calls (always, in a block without calls).
    bool InPlace = true;
    /// Other proposals the estimate also rates faster than the block's
    /// order, best first (whether each keeps them in place): tried in turn
    /// when the whole-block model finds Order slower.
    SmallVector<std::pair<SmallVector<Operation *>, bool>, 2> Alternatives;

    /// Moves on to the next alternative (the next that keeps memory ops in
    /// place around calls when InPlaceOnly); false when none is left.
    bool next(bool InPlaceOnly) {
      while (!Alternatives.empty()) {
        auto [O, P] = std::move(Alternatives.front());
        Alternatives.erase(Alternatives.begin());
        if (InPlaceOnly && !P)
          continue;
        Order = std::move(O);
        InPlace = P;
        return true;
      }
      return false;
    }
  };

  /// Drops the waits and the s_nops of the blocks it reorders, reorders,
  /// plans the function's waits again (amdgcn-waitcnt-relax's planner,
  /// within the original number of waits per block) and puts back the wait
  /// states hazards need; all in one transaction. A block whose new order
  /// needs more waits than it had, or that the whole-block model
  /// (sched::simulate: waits, s_nops, barriers, units, what is in flight at
  /// its entry; s_nops charged in full) does not rate faster with its
  /// successors, tries its next proposal, else keeps its order (and the
  /// function is planned again).
  void scheduleFunction(Operation *Fn, InstInfoCache &C,
                        const PcrelReferences &Refs, rewrite::Summary &S) {
    Legality L(Fn, C, Refs);
    std::vector<Candidate> Cands;
    // The proposals and estimates of every block ask about the same pairs;
    // the function does not change until the candidates are chosen.
    std::optional<HazardChecker> HC;
    HC.emplace(C, /*MemoizePairs=*/true);
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
      sched::PipeState Entry = sched::entryState(&B, C);
      // Up to three proposals: s_nops where they hide under a latency; the
      // same without counting the waits an op will get as wait states (the
      // scheduler before 2026-11-30: it may leave a wait state to a wait
      // the planner then keeps); and, when the first needed s_nops, s_nops
      // only where no op can go without one. The estimate, which charges
      // s_nops in full, ranks them (program order of proposals on a tie);
      // the whole-block model tries them in that order.
      struct Proposal {
        unsigned Estimate;
        SmallVector<Operation *> Order;
        bool InPlace; // memory ops and waits keep their place around calls
      };
      SmallVector<Proposal, 6> Props;
      bool Delayed = false;
      auto propose = [&](sched::ListOptions LO, bool *D,
                         const DependenceGraph &G, bool InPlace) {
        SmallVector<Operation *> O = sched::listSchedule(
            Cd.Ops, G, C, unsafeIgnoreWAR, &Entry, LO, D, &*HC);
        unsigned E = sched::estimateCycles(O, *Cd.G, C, &Entry, nullptr, &*HC);
        for (Proposal &P : Props)
          if (P.Order == O) {
            P.InPlace |= InPlace;
            return;
          }
        Props.push_back({E, std::move(O), InPlace});
      };
      auto proposeAll = [&](const DependenceGraph &G, bool InPlace) {
        propose({}, &Delayed, G, InPlace);
        propose({/*AvoidNops=*/false, /*CountWaits=*/false}, nullptr, G,
                InPlace);
        if (Delayed)
          propose({/*AvoidNops=*/true, /*CountWaits=*/true}, nullptr, G,
                  InPlace);
      };
      // Around modelled internal calls memory ops and waits may move across
      // a call (its subroutines hold none). The orders that keep them in
      // place (the scheduler before that freedom) are proposed too: a block
      // whose freer order needs more waits than it has falls back to them.
      bool HasCalls = llvm::any_of(Cd.Ops, [&](Operation *Op) {
        return C.get(Op).isModelledInternalCall();
      });
      proposeAll(*Cd.G, /*InPlace=*/!HasCalls);
      if (HasCalls) {
        DependenceGraph::Options InPlaceO = O;
        InPlaceO.CallsOrderMemory = true;
        DependenceGraph InPlace(Cd.Ops, C, /*EntryState=*/nullptr, InPlaceO);
        Delayed = false;
        proposeAll(InPlace, /*InPlace=*/true);
      }
      llvm::stable_sort(Props, [](const Proposal &A, const Proposal &B) {
        return A.Estimate < B.Estimate;
      });
      Cd.New = Props.front().Estimate;
      Cd.Order = std::move(Props.front().Order);
      Cd.InPlace = Props.front().InPlace;
      if (llvm::equal(Cd.Order, Cd.Ops))
        continue;
      Cd.Old = sched::estimateCycles(Cd.Ops, *Cd.G, C, &Entry, nullptr, &*HC);
      if (!unsafeIgnoreWAR && Cd.New >= Cd.Old)
        continue;
      for (Proposal &P : llvm::drop_begin(Props))
        if (P.Estimate < Cd.Old && !llvm::equal(P.Order, Cd.Ops))
          Cd.Alternatives.push_back({std::move(P.Order), P.InPlace});
      Cands.push_back(std::move(Cd));
    }
    HC.reset(); // the transactions below change the ops
    if (Cands.empty())
      return;
    // The whole-block model (waits, s_nops, barriers, the matrix unit and
    // what the predecessors leave in flight) of each candidate and of the
    // blocks after it, as they are now: a new order must beat it.
    // s_nops are charged in full (simulate's ChargeNops): the model hid
    // their wait states under a latency (a load's, say) that the wave
    // waited for anyway, and the orders that looked faster only for that
    // are kept out; on hardware an s_nop is an issued instruction and the
    // latencies are estimates. Not under a busy matrix unit: there the wait
    // states are the MFMA pipeline's own latency.
    auto blockCost = [&](Block *B) {
      sched::PipeState E = sched::entryState(B, C);
      SmallVector<Operation *> Ops;
      for (Operation &Op : *B)
        Ops.push_back(&Op);
      return long(
          sched::simulate(Ops, C, &E, /*Exit=*/nullptr, /*ChargeNops=*/true));
    };
    llvm::DenseMap<Block *, long> OldCost;
    for (Candidate &Cd : Cands) {
      OldCost[Cd.B] = blockCost(Cd.B);
      for (Block *Succ : Cd.B->getSuccessors())
        if (!OldCost.count(Succ))
          OldCost[Succ] = blockCost(Succ);
    }
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
      // Only the reordered blocks get new waits: the others keep theirs
      // (amdgcn-waitcnt-relax changes those, with its own per-block check;
      // planned again here, a loop body's waits merged unchecked and made
      // bench l2_gemm_softmax slower in the cost model).
      waits::OpSet Pinned;
      for (Block &B : Fn->getRegion(0))
        if (!isCandidate(&B) || Kept.contains(&B))
          for (Operation &Op : B)
            if (waits::isRelaxable(L, &Op))
              Pinned.insert(&Op);
      llvm::DenseMap<Operation *, waits::Counts> Need;
      SmallVector<Block *> Over;
      if (!waits::planWithinBudget(L, Fn, Budget, /*MergeWithin=*/2, Pinned,
                                   Need, Over)) {
        // The new orders (or what they leave in flight at their ends) need
        // more waits: those blocks, and their reordered predecessors, keep
        // their order, or, with internal calls, try an order that keeps
        // memory ops and waits in place around the calls, if they had not.
        unsigned Before = Kept.size();
        bool Fallback = false;
        auto keep = [&](Block *B) {
          auto It = llvm::find_if(Cands,
                                  [&](const Candidate &X) { return X.B == B; });
          if (It == Cands.end() || Kept.contains(B))
            return;
          if (!It->InPlace && It->next(/*InPlaceOnly=*/true))
            Fallback = true;
          else
            Kept.insert(B);
        };
        // The blocks over budget and their predecessors; when none of them
        // is reordered, the reordered blocks one level further up.
        waits::visitUpward(
            Over, /*MinLevels=*/2,
            [&] { return Kept.size() == Before && !Fallback; }, keep);
        if (verbose)
          llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                       << ": " << Over.size()
                       << " block(s) would need more waits"
                       << (Fallback ? " (with internal calls: memory ops and "
                                      "waits kept in place around the calls)"
                                    : "")
                       << "\n";
        if (Kept.size() == Before && !Fallback) {
          ++S.Refused;
          return;
        }
        continue;
      }
      waits::materialize(T, L, Fn, Need, /*Verbose=*/false, &Pinned);
      T.insertNopsForHazards();
      {
        // A pair into a subroutine would need s_nops there (refused in this
        // transaction): the blocks that made it keep their order, the
        // producers' first, then the calls'; the others go on.
        SmallVector<Block *> Producers, Calls;
        blocksPaddingSubroutines(L, T, Producers, Calls);
        if (!Producers.empty() || !Calls.empty()) {
          unsigned Before = Kept.size();
          for (ArrayRef<Block *> Bs :
               {ArrayRef<Block *>(Producers), ArrayRef<Block *>(Calls)}) {
            for (Block *B : Bs)
              if (isCandidate(B))
                Kept.insert(B);
            if (Kept.size() != Before)
              break;
          }
          if (verbose)
            llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                         << ": " << Kept.size() - Before
                         << " block(s) kept: their order needs s_nops in a "
                            "subroutine\n";
          if (Kept.size() == Before) {
            ++S.Refused;
            return;
          }
          continue;
        }
      }
      if (!unsafeIgnoreWAR) {
        // The block as it now stands (its planned waits and the s_nops its
        // order needs) must be faster in the whole-block model than it was,
        // counting what it leaves in flight for the blocks after it (a
        // reordered loop body that ends in a long MFMA chain delays the
        // next iteration's first MFMA).
        bool Worse = false;
        Saved = 0;
        llvm::DenseMap<Block *, long> NewCost;
        auto newCost = [&](Block *B) {
          auto [It, Inserted] = NewCost.try_emplace(B, 0);
          if (Inserted)
            It->second = blockCost(B);
          return It->second;
        };
        auto isActive = [&](Block *B) {
          return isCandidate(B) && !Kept.contains(B);
        };
        SmallVector<Block *> Slower;
        for (Candidate &Cd : Cands) {
          if (Kept.contains(Cd.B))
            continue;
          long Delta = newCost(Cd.B) - OldCost.lookup(Cd.B);
          for (Block *Succ : Cd.B->getSuccessors())
            if (!isActive(Succ))
              Delta += newCost(Succ) - OldCost.lookup(Succ);
          Saved -= Delta;
          if (Delta >= 0) {
            Slower.push_back(Cd.B);
            if (verbose)
              llvm::errs() << "amdgcn-schedule: " << rewrite::functionName(Fn)
                           << ": block of " << Cd.Ops.size()
                           << " ops kept: " << OldCost.lookup(Cd.B) << " -> "
                           << newCost(Cd.B) << " modelled slots, " << Delta
                           << " with its successors\n";
          }
        }
        for (Block *B : Slower) {
          Worse = true;
          Candidate &Cd = *llvm::find_if(
              Cands, [&](const Candidate &X) { return X.B == B; });
          if (!Cd.next(/*InPlaceOnly=*/false))
            Kept.insert(B);
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
      // Issue slots of the whole-block model (the graph's estimate with
      // unsafe-ignore-war).
      S.add("modelled issue slots saved", Saved);
      return;
    }
  }
};
} // namespace
