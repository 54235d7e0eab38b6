//===- Liveness.cpp - Live registers and register pressure ----------------===//

#include "asmevo/Analysis/Liveness.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <deque>

using namespace llvm;
using namespace mlir;
using namespace asmevo;

bool Liveness::definesExec(const InstInfo &I, const RegUnitInfo &RU) {
  for (uint16_t U : I.Defs)
    if (!RU.isPseudo(U) && RU.kindOf(U) == RegKind::Special &&
        RU.specialName(U).starts_with("exec"))
      return true;
  return false;
}

Liveness::Liveness(Operation *Fn, InstInfoCache &Cache, Mode M,
                   const llvm::DenseSet<Operation *> *IgnoreUses,
                   LivenessSummaries *S, ArrayRef<uint16_t> Focus,
                   const Editing *Edits)
    : Fn(Fn), Cache(Cache), M(M), IgnoreUses(IgnoreUses) {
  const RegUnitInfo &RU = Cache.units();
  NumUnits = RU.numUnits();
  Empty.resize(NumUnits);
  Region &R = Fn->getRegion(0);
  if (R.empty())
    return;
  if (S && S->M != int(M)) {
    S->clear();
    S->M = int(M);
  }
  // Blocks holding an op whose uses are ignored: their summaries hold only
  // for this computation.
  llvm::SmallPtrSet<Block *, 4> Fresh;
  if (IgnoreUses)
    for (Operation *Op : *IgnoreUses)
      if (Block *B = Op->getBlock())
        Fresh.insert(B);
  if (Edits)
    Fresh.insert(Edits->Blocks.begin(), Edits->Blocks.end());
  auto kept = [&](Block *B) { return S && !Fresh.contains(B); };
  bool Focusing = !Focus.empty() && Focus.size() <= 64;
  auto walkedForward = [&](Block *B) {
    return Focusing && Edits && Edits->Blocks.contains(B);
  };

  // Forward: where may EXEC differ from its launch value?
  bool IsKernel = isa<amdgcn::KernelOp>(Fn);
  for (Block &B : R) {
    ExecChangedIn[&B] = false;
    Operation *First = nullptr;
    bool Known = false;
    if (Edits)
      if (auto It = Edits->FirstExecDef.find(&B);
          It != Edits->FirstExecDef.end()) {
        First = It->second;
        Known = true;
      }
    if (!Known && kept(&B)) {
      auto It = S->Map.find(&B);
      if (It != S->Map.end()) {
        First = It->second.FirstExecDef;
        Known = true;
      }
    }
    if (!Known) {
      for (Operation &Op : B)
        if (definesExec(Cache.get(&Op), RU)) {
          First = &Op;
          break;
        }
      if (kept(&B))
        S->Map[&B].FirstExecDef = First;
    }
    if (First)
      FirstExecDef[&B] = First;
  }
  ExecChangedIn[&R.front()] = !IsKernel;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Block &B : R) {
      bool C = ExecChangedIn[&B] || FirstExecDef.count(&B);
      for (Block *Succ : B.getSuccessors())
        if (C && !ExecChangedIn[Succ]) {
          ExecChangedIn[Succ] = true;
          Changed = true;
        }
    }
  }

  // Each block's transfer as Gen | (Live - Kill): the composition of its
  // ops' transfers, each of that form.
  llvm::DenseMap<Block *, LivenessSummaries::Entry> Local;
  for (Block &B : R) {
    if (walkedForward(&B))
      continue; // focusedTransfer
    LivenessSummaries::Entry &E = kept(&B) ? S->Map[&B] : Local[&B];
    bool ExecChanged = ExecChangedIn[&B];
    if (E.HasTransfer && E.ExecChanged == ExecChanged)
      continue;
    E.Gen = BitVector(NumUnits);
    E.Kill = BitVector(NumUnits);
    for (Operation &Op : llvm::reverse(B))
      transferBackward(&Op, E.Gen, &E.Kill);
    E.HasTransfer = true;
    E.ExecChanged = ExecChanged;
  }
  auto entry = [&](Block *B) -> const LivenessSummaries::Entry & {
    return kept(B) ? S->Map.find(B)->second : Local.find(B)->second;
  };
  if (Focusing) {
    solveFocused(
        [&](Block *B, bool Kill) {
          const LivenessSummaries::Entry &E = entry(B);
          return Kill ? &E.Kill : &E.Gen;
        },
        Focus, Edits);
    return;
  }

  // Backward liveness.
  for (Block &B : R) {
    In[&B] = BitVector(NumUnits);
    Out[&B] = BitVector(NumUnits);
  }
  std::deque<Block *> Work;
  llvm::DenseMap<Block *, bool> Queued;
  for (Block &B : llvm::reverse(R)) {
    Work.push_back(&B);
    Queued[&B] = true;
  }
  while (!Work.empty()) {
    Block *B = Work.front();
    Work.pop_front();
    Queued[B] = false;
    BitVector O(NumUnits);
    for (Block *Succ : B->getSuccessors())
      O |= In[Succ];
    if (!B->empty())
      O |= exitLive(Cache.get(&B->back()));
    Out[B] = O;
    const LivenessSummaries::Entry &E = entry(B);
    O.reset(E.Kill);
    O |= E.Gen;
    if (O != In[B]) {
      In[B] = O;
      for (Block *P : B->getPredecessors())
        if (!Queued[P]) {
          Work.push_back(P);
          Queued[P] = true;
        }
    }
  }
}

std::pair<uint64_t, uint64_t>
Liveness::focusedTransfer(Block *B, const Editing *Edits) const {
  // In = Gen | (Out & ~Kill) per unit: Gen when the first op touching the
  // unit reads it, Kill when it overwrites it (what transferBackward
  // composes to; Kill of a unit read first does not matter).
  const RegUnitInfo &RU = Cache.units();
  uint64_t Gen = 0, Kill = 0;
  uint64_t All = FocusUnits.size() == 64
                     ? ~uint64_t(0)
                     : (uint64_t(1) << FocusUnits.size()) - 1;
  for (unsigned K = 0; K < FocusUnits.size(); ++K)
    if (RU.isPseudo(FocusUnits[K]))
      All &= ~(uint64_t(1) << K); // never read or written
  // The units by the op their walk starts at (B's first op by default).
  SmallVector<std::pair<Operation *, uint64_t>, 4> Walks;
  auto addWalk = [&](Operation *From, uint64_t Bit) {
    for (auto &W : Walks)
      if (W.first == From) {
        W.second |= Bit;
        return;
      }
    Walks.push_back({From, Bit});
  };
  for (uint64_t W = All; W; W &= W - 1) {
    unsigned K = llvm::countr_zero(W);
    uint64_t Bit = uint64_t(1) << K;
    Operation *From = B->empty() ? nullptr : &B->front();
    if (Edits)
      if (auto It = Edits->From.find({B, FocusUnits[K]});
          It != Edits->From.end()) {
        if (!It->second)
          continue; // no op of B touches it
        From = It->second;
      }
    addWalk(From, Bit);
  }
  for (auto [From, Units] : Walks)
    walkFocused(From, Units, Gen, Kill);
  return {Gen, Kill};
}

void Liveness::walkFocused(Operation *From, uint64_t Open, uint64_t &Gen,
                           uint64_t &Kill) const {
  const RegUnitInfo &RU = Cache.units();
  for (Operation *X = From; X && Open; X = X->getNextNode()) {
    Operation &Op = *X;
    const InstInfo &I = Cache.get(&Op);
    bool Ignore = IgnoreUses && IgnoreUses->contains(&Op);
    if (!Ignore && Cache.unknownRegisters(&Op)) {
      Gen |= Open;
      break;
    }
    int VectorKills = -1;
    for (uint64_t W = Open; W; W &= W - 1) {
      unsigned K = llvm::countr_zero(W);
      uint64_t Bit = uint64_t(1) << K;
      uint16_t U = FocusUnits[K];
      if (!Ignore && I.uses(U)) {
        Gen |= Bit;
        Open &= ~Bit;
        continue;
      }
      if (!I.defines(U))
        continue;
      RegKind Kind = RU.kindOf(U);
      if (Kind == RegKind::VGPR || Kind == RegKind::AGPR) {
        if (VectorKills < 0)
          VectorKills = killsFor(I) ? 1 : 0;
        if (!VectorKills)
          continue;
      }
      Kill |= Bit;
      Open &= ~Bit;
    }
  }
}

void Liveness::solveFocused(
    llvm::function_ref<const BitVector *(Block *, bool)> Tr,
    ArrayRef<uint16_t> Focus, const Editing *Edits) {
  Focused = true;
  for (uint16_t U : Focus)
    if (U < NumUnits && !llvm::is_contained(FocusUnits, U))
      FocusUnits.push_back(U);
  auto project = [&](const BitVector &BV) {
    uint64_t W = 0;
    for (unsigned I = 0; I < FocusUnits.size(); ++I)
      if (BV.test(FocusUnits[I]))
        W |= uint64_t(1) << I;
    return W;
  };
  uint64_t AllMC = 0; // the focus units of exitLive's "every register"
  for (unsigned I = 0; I < FocusUnits.size(); ++I)
    if (FocusUnits[I] < Cache.units().numMCUnits())
      AllMC |= uint64_t(1) << I;
  Region &R = Fn->getRegion(0);
  llvm::SmallVector<Block *> Blocks;
  llvm::DenseMap<Block *, unsigned> Idx;
  for (Block &B : R) {
    Idx[&B] = Blocks.size();
    Blocks.push_back(&B);
  }
  unsigned N = Blocks.size();
  std::vector<uint64_t> Gen(N), Kill(N), Exit(N), InW(N, 0), OutW(N, 0);
  std::vector<llvm::SmallVector<unsigned, 2>> Succs(N), Preds(N);
  for (unsigned I = 0; I < N; ++I) {
    Block *B = Blocks[I];
    if (Edits && Edits->Blocks.contains(B)) {
      std::tie(Gen[I], Kill[I]) = focusedTransfer(B, Edits);
    } else {
      Gen[I] = project(*Tr(B, false));
      Kill[I] = project(*Tr(B, true));
    }
    if (!B->empty() && exitLive(Cache.get(&B->back())).any())
      Exit[I] = AllMC;
    for (Block *Succ : B->getSuccessors()) {
      unsigned J = Idx.lookup(Succ);
      Succs[I].push_back(J);
      Preds[J].push_back(I);
    }
  }
  // The same worklist as the full solve, one word per block.
  std::deque<unsigned> Work;
  std::vector<char> Queued(N, 1);
  for (unsigned I = N; I-- > 0;)
    Work.push_back(I);
  while (!Work.empty()) {
    unsigned I = Work.front();
    Work.pop_front();
    Queued[I] = 0;
    uint64_t O = Exit[I];
    for (unsigned J : Succs[I])
      O |= InW[J];
    OutW[I] = O;
    uint64_t NewIn = Gen[I] | (O & ~Kill[I]);
    if (NewIn != InW[I]) {
      InW[I] = NewIn;
      for (unsigned P : Preds[I])
        if (!Queued[P]) {
          Work.push_back(P);
          Queued[P] = 1;
        }
    }
  }
  for (unsigned I = 0; I < N; ++I)
    FocusWords[Blocks[I]] = {InW[I], OutW[I]};
}

BitVector Liveness::exitLive(const InstInfo &T) const {
  BitVector L(NumUnits);
  bool All = T.Kind == OpKind::Indirect || T.Kind == OpKind::Raw ||
             T.Kind == OpKind::Unknown ||
             (T.Kind == OpKind::Fallthrough && T.Op->getNumSuccessors() == 0);
  if (All) {
    L.set(0, Cache.units().numMCUnits());
  }
  return L;
}

bool Liveness::killsFor(const InstInfo &I) const {
  if (M == Mode::Dense)
    return true;
  // Vector writes: only full ones while EXEC holds its launch value.
  if (I.PartialVectorWrite)
    return false;
  Block *B = I.Op->getBlock();
  auto It = ExecChangedIn.find(B);
  if (It == ExecChangedIn.end() || It->second)
    return false;
  auto FIt = FirstExecDef.find(B);
  if (FIt != FirstExecDef.end() && FIt->second != I.Op &&
      FIt->second->isBeforeInBlock(I.Op))
    return false;
  return true;
}

void Liveness::transferBackward(Operation *Op, BitVector &Live,
                                BitVector *Kill) const {
  const InstInfo &I = Cache.get(Op);
  const RegUnitInfo &RU = Cache.units();
  bool Ignore = IgnoreUses && IgnoreUses->contains(Op);
  if (!Ignore && Cache.unknownRegisters(Op)) {
    // Unknown registers read.
    Live.set(0, RU.numMCUnits());
    return;
  }
  int VectorKills = -1;
  for (uint16_t U : I.Defs) {
    if (RU.isPseudo(U))
      continue;
    RegKind K = RU.kindOf(U);
    if (K == RegKind::VGPR || K == RegKind::AGPR) {
      if (VectorKills < 0)
        VectorKills = killsFor(I) ? 1 : 0;
      if (VectorKills) {
        Live.reset(U);
        if (Kill)
          Kill->set(U);
      }
      continue;
    }
    // Scalar destinations (and lane masks written by VALU) are written
    // whole; partial scalar writes (s_bitset, ...) also read the register,
    // which sets it again below.
    Live.reset(U);
    if (Kill)
      Kill->set(U);
  }
  if (Ignore)
    return;
  for (uint16_t U : I.Uses)
    if (!RU.isPseudo(U))
      Live.set(U);
}

void Liveness::walkBackward(
    Block *B, llvm::function_ref<void(Operation *, const BitVector &)> F) const {
  BitVector L = liveOut(B);
  if (L.size() != NumUnits)
    L.resize(NumUnits);
  for (Operation &X : llvm::reverse(*B)) {
    F(&X, L);
    transferBackward(&X, L);
  }
}

/// A focused solution's word as a BitVector over all units.
static const BitVector &expandFocused(
    Block *B, bool IsIn, ArrayRef<uint16_t> Units,
    const llvm::DenseMap<Block *, std::pair<uint64_t, uint64_t>> &Words,
    std::unordered_map<Block *, BitVector> &Memo, unsigned NumUnits,
    const BitVector &Empty) {
  auto WIt = Words.find(B);
  if (WIt == Words.end())
    return Empty;
  auto MIt = Memo.find(B);
  if (MIt != Memo.end())
    return MIt->second;
  BitVector BV(NumUnits);
  uint64_t W = IsIn ? WIt->second.first : WIt->second.second;
  for (unsigned I = 0; I < Units.size(); ++I)
    if (W & (uint64_t(1) << I))
      BV.set(Units[I]);
  return Memo.emplace(B, std::move(BV)).first->second;
}

const BitVector &Liveness::liveIn(Block *B) const {
  if (Focused)
    return expandFocused(B, true, FocusUnits, FocusWords, FocusIn, NumUnits,
                         Empty);
  auto It = In.find(B);
  return It == In.end() ? Empty : It->second;
}

const BitVector &Liveness::liveOut(Block *B) const {
  if (Focused)
    return expandFocused(B, false, FocusUnits, FocusWords, FocusOut, NumUnits,
                         Empty);
  auto It = Out.find(B);
  return It == Out.end() ? Empty : It->second;
}

BitVector Liveness::liveAfter(Operation *Op) const {
  Block *B = Op->getBlock();
  BitVector L = liveOut(B);
  if (L.size() != NumUnits)
    L.resize(NumUnits);
  for (Operation &X : llvm::reverse(*B)) {
    if (&X == Op)
      return L;
    transferBackward(&X, L);
  }
  return L;
}

BitVector Liveness::liveBefore(Operation *Op) const {
  BitVector L = liveAfter(Op);
  transferBackward(Op, L);
  return L;
}

BitVector Liveness::liveUnitsAt(Operation *Op, bool After,
                                ArrayRef<uint16_t> Units) const {
  const RegUnitInfo &RU = Cache.units();
  BitVector L(NumUnits);
  // Units not decided yet; per unit, the first op from Op on that reads it
  // (live) or overwrites it (dead) decides, as transferBackward composes.
  SmallVector<uint16_t, 8> Open;
  for (uint16_t U : Units)
    if (U < NumUnits && !llvm::is_contained(Open, U))
      Open.push_back(U);
  Operation *X = After ? Op->getNextNode() : Op;
  for (; X && !Open.empty(); X = X->getNextNode()) {
    const InstInfo &I = Cache.get(X);
    bool Ignore = IgnoreUses && IgnoreUses->contains(X);
    if (!Ignore && Cache.unknownRegisters(X)) {
      // Reads every register (pseudo units are neither read nor written).
      for (uint16_t U : Open)
        if (!RU.isPseudo(U))
          L.set(U);
      llvm::erase_if(Open, [&](uint16_t U) { return !RU.isPseudo(U); });
      continue;
    }
    int VectorKills = -1;
    for (auto It = Open.begin(); It != Open.end();) {
      uint16_t U = *It;
      bool Read = !Ignore && !RU.isPseudo(U) && I.uses(U);
      bool Killed = false;
      if (!Read && !RU.isPseudo(U) && I.defines(U)) {
        RegKind K = RU.kindOf(U);
        if (K == RegKind::VGPR || K == RegKind::AGPR) {
          if (VectorKills < 0)
            VectorKills = killsFor(I) ? 1 : 0;
          Killed = VectorKills;
        } else {
          Killed = true;
        }
      }
      if (Read)
        L.set(U);
      if (Read || Killed)
        It = Open.erase(It);
      else
        ++It;
    }
  }
  if (!Open.empty()) {
    const BitVector &Out = liveOut(Op->getBlock());
    for (uint16_t U : Open)
      if (U < Out.size() && Out.test(U))
        L.set(U);
  }
  return L;
}

bool Liveness::kills(Operation *Op) const { return killsFor(Cache.get(Op)); }

RegPressure Liveness::pressure(const BitVector &Live) const {
  const RegUnitInfo &RU = Cache.units();
  BitVector S(512), V(512), A(512);
  for (unsigned U : Live.set_bits()) {
    if (RU.isPseudo(U))
      continue;
    unsigned Idx = RU.indexOf(U);
    switch (RU.kindOf(U)) {
    case RegKind::SGPR:
      S.set(Idx);
      break;
    case RegKind::VGPR:
      V.set(Idx);
      break;
    case RegKind::AGPR:
      A.set(Idx);
      break;
    default:
      break;
    }
  }
  return {unsigned(S.count()), unsigned(V.count()), unsigned(A.count())};
}

RegPressure Liveness::maxPressure() const {
  RegPressure Max;
  for (Block &B : Fn->getRegion(0)) {
    BitVector L = liveOut(&B);
    if (L.size() != NumUnits)
      continue;
    auto Acc = [&](const BitVector &X) {
      RegPressure P = pressure(X);
      Max.SGPR = std::max(Max.SGPR, P.SGPR);
      Max.VGPR = std::max(Max.VGPR, P.VGPR);
      Max.AGPR = std::max(Max.AGPR, P.AGPR);
    };
    Acc(L);
    for (Operation &Op : llvm::reverse(B)) {
      transferBackward(&Op, L);
      Acc(L);
    }
  }
  return Max;
}
