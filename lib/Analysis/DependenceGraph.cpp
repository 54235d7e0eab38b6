//===- DependenceGraph.cpp - Ordering constraints within a block ----------===//

#include "asmevo/Analysis/DependenceGraph.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir;
using namespace asmevo;

const char *asmevo::depKindName(DepKind K) {
  switch (K) {
  case DepKind::RAW:
    return "RAW";
  case DepKind::WAR:
    return "WAR";
  case DepKind::WAW:
    return "WAW";
  case DepKind::Memory:
    return "memory";
  case DepKind::Order:
    return "side-effect order";
  case DepKind::WaitCount:
    return "wait count";
  case DepKind::WaitUse:
    return "wait before use";
  case DepKind::WaitFence:
    return "wait before fence";
  case DepKind::Hazard:
    return "hazard";
  case DepKind::Control:
    return "control";
  }
  return "?";
}

DependenceGraph::DependenceGraph(Block *B, InstInfoCache &Cache,
                                 const WaitcntAnalysis *Waits)
    : DependenceGraph(B, Cache, Waits, Options()) {}

DependenceGraph::DependenceGraph(Block *B, InstInfoCache &Cache,
                                 const WaitcntAnalysis *Waits, Options Opts)
    : Cache(Cache) {
  SmallVector<Operation *> Ops;
  for (Operation &Op : *B)
    Ops.push_back(&Op);
  build(Ops, Waits ? &Waits->in(B) : nullptr, Opts);
}

DependenceGraph::DependenceGraph(ArrayRef<Operation *> Ops,
                                 InstInfoCache &Cache,
                                 const PendingState *EntryState, Options Opts)
    : Cache(Cache) {
  build(Ops, EntryState, Opts);
}

int DependenceGraph::vertexOf(Operation *Op) const {
  auto It = Index.find(Op);
  return It == Index.end() ? -1 : int(It->second);
}

void DependenceGraph::addEdge(Vertex U, Vertex V, DepKind K,
                              ArrayRef<uint16_t> Units, int Required,
                              const HazardRule *Rule, Operation *Via) {
  if (U == V)
    return;
  auto &List = EdgeIndex[{unsigned(U), unsigned(V)}];
  for (Edge E : List) {
    DepEdge &D = G[E];
    if (D.Kind != K || D.Rule != Rule)
      continue;
    for (uint16_t X : Units)
      RegUnitInfo::addUnit(D.Units, X);
    D.Required = std::max(D.Required, Required);
    return;
  }
  DepEdge D;
  D.Kind = K;
  D.Units.assign(Units.begin(), Units.end());
  D.Required = Required;
  D.Rule = Rule;
  D.Via = Via;
  auto [E, Added] = boost::add_edge(U, V, D, G);
  (void)Added;
  List.push_back(E);
}

void DependenceGraph::edgesBetween(Vertex U, Vertex V,
                                   SmallVectorImpl<Edge> &Out) const {
  auto It = EdgeIndex.find({unsigned(U), unsigned(V)});
  if (It != EdgeIndex.end())
    Out.append(It->second.begin(), It->second.end());
}

static DepKind kindForUnit(const RegUnitInfo &RU, unsigned U, DepKind Reg) {
  if (!RU.isPseudo(U))
    return Reg;
  return U == RU.pseudo(PseudoUnit::Order) ? DepKind::Order : DepKind::Memory;
}

void DependenceGraph::build(ArrayRef<Operation *> Ops,
                            const PendingState *EntryState, Options Opts) {
  const RegUnitInfo &RU = Cache.units();
  for (Operation *Op : Ops) {
    Vertex V = boost::add_vertex(DepVertex{Op}, G);
    Index[Op] = unsigned(V);
  }
  unsigned N = Ops.size();

  // Register, memory and order dependences.
  llvm::DenseMap<unsigned, unsigned> LastDef;
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> UsesSince;
  int LastBarrier = -1;
  auto ordersMemory = [&](const InstInfo &I) {
    return I.Sync || (Opts.CallsOrderMemory && I.isModelledInternalCall());
  };
  for (unsigned J = 0; J < N; ++J) {
    const InstInfo &I = Cache.get(Ops[J]);
    bool FullBarrier = Cache.unknownRegisters(Ops[J]);
    ArrayRef<uint16_t> Uses = I.Uses, Defs = I.Defs;
    UnitList CallUses, CallDefs;
    if (!I.Sync && ordersMemory(I)) {
      uint16_t Order = RU.pseudo(PseudoUnit::Order);
      CallUses.assign(I.Uses.begin(), I.Uses.end());
      CallDefs.assign(I.Defs.begin(), I.Defs.end());
      RegUnitInfo::addUnit(CallUses, Order);
      RegUnitInfo::addUnit(CallDefs, Order);
      Uses = CallUses;
      Defs = CallDefs;
    }
    if (I.IsTerminator || FullBarrier) {
      for (unsigned K = 0; K < J; ++K)
        addEdge(K, J, DepKind::Control, {});
    } else if (LastBarrier >= 0) {
      addEdge(unsigned(LastBarrier), J, DepKind::Control, {});
    }
    if (FullBarrier)
      LastBarrier = int(J);
    for (uint16_t U : Uses) {
      auto It = LastDef.find(U);
      if (It != LastDef.end()) {
        uint16_t X = U;
        addEdge(It->second, J, kindForUnit(RU, U, DepKind::RAW), X);
      }
      UsesSince[U].push_back(J);
    }
    for (uint16_t U : Defs) {
      uint16_t X = U;
      auto It = LastDef.find(U);
      if (It != LastDef.end())
        addEdge(It->second, J, kindForUnit(RU, U, DepKind::WAW), X);
      auto UIt = UsesSince.find(U);
      if (UIt != UsesSince.end()) {
        for (unsigned K : UIt->second)
          if (K != J)
            addEdge(K, J, kindForUnit(RU, U, DepKind::WAR), X);
        UIt->second.clear();
      }
      LastDef[U] = J;
    }
  }

  // Wait counters: which ops each wait counts and completes, and which ops
  // need that completion.
  PendingState S;
  if (EntryState)
    S = *EntryState;
  struct Resolved {
    Operation *Producer;
    const UnitList *Defs; // null: every register
    unsigned Wait;
  };
  SmallVector<Resolved, 16> Done;
  for (unsigned J = 0; J < N; ++J) {
    const InstInfo &I = Cache.get(Ops[J]);
    if (I.Kind == OpKind::Waitcnt) {
      unsigned Waited = 0;
      for (unsigned C = 0; C < NumCounters; ++C) {
        unsigned Max[NumCounters];
        maxCounts(Max);
        if (I.Wait[C] < Max[C])
          Waited |= 1u << C;
      }
      for (const PendingOp &P : S.Ops) {
        if (!(P.Counters & Waited) || !P.Op)
          continue;
        auto It = Index.find(P.Op);
        if (It != Index.end() && It->second < J)
          addEdge(It->second, J, DepKind::WaitCount, {});
      }
      for (unsigned K = J + 1; K < N; ++K)
        if (ordersMemory(Cache.get(Ops[K])))
          addEdge(J, K, DepKind::WaitFence, {});
      SmallVector<PendingOp, 4> Covered;
      S.wait(I.Wait, &Covered);
      for (const PendingOp &P : Covered)
        Done.push_back({P.Op, P.Defs, J});
      continue;
    }
    if (!Done.empty()) {
      UnitList Touched;
      for (uint16_t U : I.Uses)
        if (!RU.isPseudo(U))
          Touched.push_back(U);
      for (uint16_t U : I.Defs)
        if (!RU.isPseudo(U))
          RegUnitInfo::addUnit(Touched, U);
      for (const Resolved &R : Done) {
        UnitList Hit;
        if (R.Defs)
          RegUnitInfo::intersect(*R.Defs, Touched, Hit);
        else
          Hit = Touched;
        for (auto It = Hit.begin(); It != Hit.end();)
          It = RU.isPseudo(*It) ? Hit.erase(It) : It + 1;
        if (!Hit.empty())
          addEdge(R.Wait, J, DepKind::WaitUse, Hit, 0, nullptr, R.Producer);
      }
    }
    WaitcntAnalysis::transfer(S, I);
  }

  // Hazards between ops of this sequence (only meaningful when the sequence
  // is the block's current order).
  if (Opts.Hazards && N) {
    HazardChecker HC(Cache);
    SmallVector<HazardPair, 4> Pairs;
    for (unsigned J = 0; J < N; ++J) {
      Pairs.clear();
      HC.pairsFor(Ops[J], Pairs, /*All=*/true);
      for (const HazardPair &P : Pairs) {
        auto It = Index.find(P.Producer);
        if (It != Index.end() && It->second < J)
          addEdge(It->second, J, DepKind::Hazard, P.Units, P.Required,
                  P.Rule);
      }
    }
  }
}

std::string DependenceGraph::describe(Edge E) const {
  const DepEdge &D = G[E];
  Operation *Src = G[boost::source(E, G)].Op;
  Operation *Dst = G[boost::target(E, G)].Op;
  std::string Regs = Cache.units().describe(D.Units);
  std::string S;
  raw_string_ostream OS(S);
  OS << depKindName(D.Kind);
  if (D.Kind == DepKind::Hazard && D.Rule)
    OS << " " << D.Rule->Id << " (" << D.Rule->Text << ", needs "
       << D.Required << " wait states; " << D.Rule->Source << ")";
  if (!Regs.empty())
    OS << " on " << Regs;
  OS << ": " << Cache.describe(Src) << " must stay before "
     << Cache.describe(Dst);
  if (D.Kind == DepKind::WaitUse && D.Via)
    OS << " (the wait completes " << Cache.describe(D.Via) << ")";
  return S;
}

std::string DependenceGraph::toDot() const {
  std::string S;
  raw_string_ostream OS(S);
  OS << "digraph deps {\n  node [shape=box, fontname=monospace];\n";
  for (unsigned V = 0; V < size(); ++V) {
    std::string L = Cache.describe(G[V].Op);
    for (char &C : L)
      if (C == '"')
        C = '\'';
    OS << "  n" << V << " [label=\"" << L << "\"];\n";
  }
  for (auto [It, End] = boost::edges(G); It != End; ++It) {
    const DepEdge &D = G[*It];
    OS << "  n" << boost::source(*It, G) << " -> n" << boost::target(*It, G)
       << " [label=\"" << depKindName(D.Kind);
    std::string Regs = Cache.units().describe(D.Units);
    if (!Regs.empty())
      OS << " " << Regs;
    if (D.Kind == DepKind::Hazard)
      OS << " >=" << D.Required;
    OS << "\"];\n";
  }
  OS << "}\n";
  return S;
}
