//===- Waitcnt.cpp - Memory operations in flight and s_waitcnt ------------===//

#include "asmevo/Analysis/Waitcnt.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <deque>

using namespace llvm;
using namespace mlir;
using namespace asmevo;

static constexpr uint8_t YoungerCap = 64;
static const unsigned MaxCount[NumCounters] = {63, 15, 7};

void asmevo::maxCounts(unsigned Counts[NumCounters]) {
  for (unsigned C = 0; C < NumCounters; ++C)
    Counts[C] = MaxCount[C];
}

bool asmevo::isNoWait(const unsigned Counts[NumCounters]) {
  for (unsigned C = 0; C < NumCounters; ++C)
    if (Counts[C] < MaxCount[C])
      return false;
  return true;
}

bool PendingOp::writesAny(ArrayRef<uint16_t> Units) const {
  if (!Defs)
    return !Units.empty();
  if (Units.empty() || DefsHi < Units.front() || DefsLo > Units.back())
    return false;
  return RegUnitInfo::intersects(*Defs, Units);
}

uint8_t PendingOp::countersCoveredBy(const unsigned Counts[NumCounters]) const {
  uint8_t Covered = 0;
  for (unsigned C = 0; C < NumCounters; ++C) {
    if (!(Counters & (1u << C)))
      continue;
    if (InOrder & (1u << C)) {
      // A count at the field's maximum is a wait like any other: vmcnt(63)
      // after 64 loads completes the first (the emulator retires it there,
      // LLVM's SIInsertWaitcnts applies it so, Tensile relies on it). Taking
      // it for no wait let a use it covered pass as unwaited in the input,
      // and amdgcn-waitcnt-relax dropped it. requiredCounts still plans at
      // most max - 1, as LLVM emits.
      if (Younger[C] < Counts[C])
        continue;
    } else if (Counts[C] != 0) {
      continue;
    }
    Covered |= 1u << C;
  }
  return Covered;
}

bool PendingOp::coveredBy(const unsigned Counts[NumCounters]) const {
  return countersCoveredBy(Counts) == Counters;
}

void PendingOp::requiredCounts(unsigned Counts[NumCounters]) const {
  for (unsigned C = 0; C < NumCounters; ++C) {
    if (!(Counters & (1u << C)))
      continue;
    unsigned Need = (InOrder & (1u << C))
                        ? std::min<unsigned>(Younger[C], MaxCount[C] - 1)
                        : 0;
    Counts[C] = std::min(Counts[C], Need);
  }
}

const PendingOp *PendingState::find(Operation *Op) const {
  for (const PendingOp &P : Ops)
    if (P.Op == Op)
      return &P;
  return nullptr;
}

bool PendingState::merge(const PendingState &O) {
  bool Changed = false;
  // Many ops in flight (a long run of loads) made the pairwise search the
  // analysis's main cost on branchy code: index the known ops by op then.
  // The first match is the one the linear search finds (ops are unique).
  llvm::SmallDenseMap<mlir::Operation *, unsigned, 16> Index;
  bool Indexed = Ops.size() * O.Ops.size() > 256;
  if (Indexed)
    for (unsigned K = 0, E = Ops.size(); K != E; ++K)
      if (Ops[K].Op)
        Index.try_emplace(Ops[K].Op, K);
  for (const PendingOp &P : O.Ops) {
    PendingOp *Mine = nullptr;
    if (Indexed && P.Op) {
      auto It = Index.find(P.Op);
      if (It != Index.end())
        Mine = &Ops[It->second];
    } else {
      for (PendingOp &Q : Ops)
        if (Q.Op == P.Op && (P.Op || Q.Counters == P.Counters)) {
          Mine = &Q;
          break;
        }
    }
    if (!Mine) {
      if (Indexed && P.Op)
        Index.try_emplace(P.Op, Ops.size());
      Ops.push_back(P);
      Changed = true;
      continue;
    }
    for (unsigned C = 0; C < NumCounters; ++C)
      if (P.Younger[C] < Mine->Younger[C]) {
        Mine->Younger[C] = P.Younger[C];
        Changed = true;
      }
    // Still counted on a counter on either path.
    if ((Mine->Counters | P.Counters) != Mine->Counters) {
      Mine->Counters |= P.Counters;
      Changed = true;
    }
  }
  return Changed;
}

void PendingState::issue(const InstInfo &I) {
  if (!I.Counters)
    return;
  for (PendingOp &P : Ops)
    for (unsigned C = 0; C < NumCounters; ++C)
      if ((I.InOrder & P.InOrder & (1u << C)) && P.Younger[C] < YoungerCap)
        ++P.Younger[C];
  // A second instance of the same op (a loop) replaces the first: the new
  // one completes no earlier than the old one.
  Ops.erase(std::remove_if(Ops.begin(), Ops.end(),
                           [&](const PendingOp &P) { return P.Op == I.Op; }),
            Ops.end());
  PendingOp N;
  N.Op = I.Op;
  N.Counters = I.Counters;
  N.InOrder = I.InOrder;
  N.Defs = &I.Defs;
  N.DefsLo = I.Defs.empty() ? UINT16_MAX : I.Defs.front();
  N.DefsHi = I.Defs.empty() ? 0 : I.Defs.back();
  N.LdsDma =
      I.MemWrite == MemSpace::LDS && (I.Counters & counterBit(Counter::VM));
  Ops.push_back(N);
}

void PendingState::wait(const unsigned Counts[NumCounters],
                        SmallVectorImpl<PendingOp> *Covered) {
  // An op counted on several counters (FLAT: vmcnt and lgkmcnt) completes
  // once each of them has been waited for, by one s_waitcnt or by several
  // (lgkmcnt(0), later vmcnt(0)): counters only go down, and LLVM's
  // SIInsertWaitcnts (one score per counter) relies on it, as does the code
  // it emits.
  auto It = std::remove_if(Ops.begin(), Ops.end(), [&](PendingOp &P) {
    uint8_t Done = P.countersCoveredBy(Counts);
    if (Done != P.Counters) {
      P.Counters &= ~Done;
      return false;
    }
    if (Covered)
      Covered->push_back(P);
    return true;
  });
  Ops.erase(It, Ops.end());
}

void PendingState::addUnknown() {
  for (unsigned C = 0; C < NumCounters; ++C) {
    PendingOp P;
    P.Counters = 1u << C;
    Ops.push_back(P);
  }
}

WaitcntAnalysis::WaitcntAnalysis(Operation *Fn, InstInfoCache &Cache)
    : Fn(Fn), Cache(Cache) {
  Region &R = Fn->getRegion(0);
  if (R.empty())
    return;
  PendingState Entry;
  if (!isa<amdgcn::KernelOp>(Fn))
    Entry.addUnknown();
  In[&R.front()] = Entry;
  std::deque<Block *> Work;
  llvm::DenseMap<Block *, bool> Queued;
  for (Block &B : R) {
    Work.push_back(&B);
    Queued[&B] = true;
  }
  while (!Work.empty()) {
    Block *B = Work.front();
    Work.pop_front();
    Queued[B] = false;
    PendingState S = In[B];
    for (Operation &Op : *B)
      transfer(S, Cache.get(&Op));
    for (Block *Succ : B->getSuccessors()) {
      auto [It, Inserted] = In.try_emplace(Succ);
      bool Changed = It->second.merge(S) || Inserted;
      if (Changed && !Queued[Succ]) {
        Work.push_back(Succ);
        Queued[Succ] = true;
      }
    }
  }
}

void WaitcntAnalysis::transfer(PendingState &S, const InstInfo &I) {
  if (I.Kind == OpKind::Waitcnt) {
    S.wait(I.Wait);
    return;
  }
  // A call drains everything (LLVM's convention: the callee waits), but an
  // internal call's subroutine issues and waits for nothing
  // (InternalCallModel): what is in flight stays.
  if (I.IsCall && !I.InternalCall) {
    S.Ops.clear();
    return;
  }
  S.issue(I);
}

const PendingState &WaitcntAnalysis::in(Block *B) const {
  auto It = In.find(B);
  return It == In.end() ? Empty : It->second;
}

void WaitcntAnalysis::replay(
    Block *B,
    llvm::function_ref<void(Operation *, const PendingState &)> F) const {
  PendingState S = in(B);
  for (Operation &Op : *B) {
    F(&Op, S);
    transfer(S, Cache.get(&Op));
  }
}

void WaitcntAnalysis::touching(const PendingState &S, const InstInfo &I,
                               const RegUnitInfo &RU,
                               SmallVectorImpl<const PendingOp *> &Out,
                               bool UnknownRegisters) {
  if (I.Kind == OpKind::Waitcnt || S.Ops.empty())
    return;
  // The pseudo units come after every MC unit: the register units of a
  // sorted list are a prefix of it.
  auto registers = [&](ArrayRef<uint16_t> L) {
    return L.take_front(
        std::lower_bound(L.begin(), L.end(), uint16_t(RU.numMCUnits())) -
        L.begin());
  };
  UnitList Every;
  if (UnknownRegisters)
    for (unsigned U = 0; U < RU.numMCUnits(); ++U)
      Every.push_back(uint16_t(U));
  ArrayRef<uint16_t> Used =
      UnknownRegisters ? ArrayRef<uint16_t>(Every) : registers(I.Uses);
  ArrayRef<uint16_t> Defined = registers(I.Defs);
  if (Used.empty() && Defined.empty() &&
      !I.uses(RU.pseudo(PseudoUnit::MemLDS)) &&
      !I.defines(RU.pseudo(PseudoUnit::MemLDS)))
    return;
  unsigned VM = counterBit(Counter::VM);
  // LDS written by LDS DMA (buffer/global loads with lds) is read by LDS
  // ops only after the write completed. (Flat stores and loads keep their
  // order on whichever path they take.)
  unsigned Lds = RU.pseudo(PseudoUnit::MemLDS);
  // (Two vector memory ops write LDS in order, like VGPRs.)
  bool TouchesLds = I.uses(Lds) || (I.defines(Lds) && !(I.Counters & VM));
  for (const PendingOp &P : S.Ops) {
    // P.Op == I.Op is an earlier loop iteration of the same op.
    if (P.writesAny(Used)) {
      Out.push_back(&P);
      continue;
    }
    if (TouchesLds && P.LdsDma) {
      Out.push_back(&P);
      continue;
    }
    // Write after write: in-order VMEM ops write their results in order
    // (LLVM: hasVmemWriteVgprInOrder), so a younger one may overwrite.
    if (P.writesAny(Defined) && !(P.InOrder & I.InOrder & VM))
      Out.push_back(&P);
  }
}

void WaitcntAnalysis::findUnwaited(SmallVectorImpl<Unwaited> &Out) const {
  const RegUnitInfo &RU = Cache.units();
  for (Block &B : Fn->getRegion(0))
    replay(&B, [&](Operation *Op, const PendingState &S) {
      const InstInfo &I = Cache.get(Op);
      SmallVector<const PendingOp *, 4> Ps;
      touching(S, I, RU, Ps, Cache.touchesAllRegisters(Op));
      for (const PendingOp *P : Ps) {
        Unwaited U;
        U.User = Op;
        U.Producer = P->Op;
        UnitList Touched(I.Uses.begin(), I.Uses.end());
        for (uint16_t D : I.Defs)
          RegUnitInfo::addUnit(Touched, D);
        if (P->Defs)
          RegUnitInfo::intersect(*P->Defs, Touched, U.Units);
        for (auto It = U.Units.begin(); It != U.Units.end();)
          It = RU.isPseudo(*It) ? U.Units.erase(It) : It + 1;
        if (!P->Defs)
          for (uint16_t X : Touched)
            if (!RU.isPseudo(X))
              U.Units.push_back(X);
        Out.push_back(std::move(U));
      }
    });
}

//===----------------------------------------------------------------------===//
// Retired on some path
//===----------------------------------------------------------------------===//

bool WaitcntAnalysis::Track::merge(const Track &O) {
  Track Old = *this;
  for (unsigned C = 0; C < NumCounters; ++C) {
    uint8_t Bit = 1u << C;
    if (!(O.Pending & Bit))
      continue;
    if (Pending & Bit) {
      Min[C] = std::min(Min[C], O.Min[C]);
      Max[C] = std::max(Max[C], O.Max[C]);
    } else {
      Min[C] = O.Min[C];
      Max[C] = O.Max[C];
    }
  }
  Pending |= O.Pending;
  Retired |= O.Retired;
  return !(*this == Old);
}

bool WaitcntAnalysis::Track::operator==(const Track &O) const {
  return Pending == O.Pending && Retired == O.Retired &&
         std::equal(Min, Min + NumCounters, O.Min) &&
         std::equal(Max, Max + NumCounters, O.Max);
}

// The per-path counts of younger ops are bounded by Min and Max, and Max is
// exact: a path with Max younger ops exists (issues add one on every path,
// joins take the largest, and a wait that retires the op on the paths with
// at least N leaves at most N - 1 on the others). So a wait retires the op
// on some path iff Max >= N (in order) or N == 0 (out of order), as
// PendingOp::countersCoveredBy decides it for one path.
void WaitcntAnalysis::transfer(Track &T, Operation *Producer, Operation *Op,
                               const InstInfo &P) const {
  const InstInfo &I = Cache.get(Op);
  if (I.Kind == OpKind::Waitcnt) {
    for (unsigned C = 0; C < NumCounters; ++C) {
      uint8_t Bit = 1u << C;
      if (!(T.Pending & Bit))
        continue;
      bool All, Some;
      if (P.InOrder & Bit) {
        All = T.Min[C] >= I.Wait[C];
        Some = T.Max[C] >= I.Wait[C];
      } else {
        All = Some = I.Wait[C] == 0;
      }
      if (!Some)
        continue;
      T.Retired |= Bit;
      if (All) {
        T.Pending &= ~Bit;
        T.Min[C] = T.Max[C] = 0;
      } else {
        T.Max[C] = uint8_t(I.Wait[C] - 1);
      }
    }
    return;
  }
  if (I.IsCall && !I.InternalCall) {
    T.Retired |= T.Pending;
    T.Pending = 0;
    std::fill(T.Min, T.Min + NumCounters, 0);
    std::fill(T.Max, T.Max + NumCounters, 0);
    return;
  }
  if (!I.Counters)
    return;
  if (Op == Producer) {
    // The latest issue: what earlier ones were retired by no longer counts.
    T = Track();
    T.Pending = P.Counters;
    return;
  }
  for (unsigned C = 0; C < NumCounters; ++C)
    if ((T.Pending & I.InOrder & P.InOrder & (1u << C))) {
      if (T.Min[C] < YoungerCap)
        ++T.Min[C];
      if (T.Max[C] < YoungerCap)
        ++T.Max[C];
    }
}

const WaitcntAnalysis::Tracks &
WaitcntAnalysis::tracksOf(Operation *Producer) const {
  auto [It, New] = RetiredIn.try_emplace(Producer);
  Tracks &In = It->second;
  if (!New)
    return In;
  Region &R = Fn->getRegion(0);
  if (R.empty())
    return In;
  const InstInfo &P = Cache.get(Producer);
  In[&R.front()] = Track();
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
    Track T = In.lookup(B);
    for (Operation &Op : *B)
      transfer(T, Producer, &Op, P);
    for (Block *Succ : B->getSuccessors()) {
      auto [SIt, Inserted] = In.try_emplace(Succ, T);
      bool Changed = Inserted || SIt->second.merge(T);
      if (Changed && Queued.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return In;
}

const WaitcntAnalysis::Track *WaitcntAnalysis::entryTrack(Operation *Producer,
                                                          Block *B) const {
  const Tracks &In = tracksOf(Producer);
  auto It = In.find(B);
  return It == In.end() ? nullptr : &It->second;
}

uint8_t WaitcntAnalysis::retiredOnSomePath(Operation *Producer,
                                           Operation *Op) const {
  if (!Producer)
    return 0;
  const Track *Entry = entryTrack(Producer, Op->getBlock());
  if (!Entry)
    return 0;
  const InstInfo &P = Cache.get(Producer);
  Track T = *Entry;
  for (Operation &X : *Op->getBlock()) {
    if (&X == Op)
      break;
    transfer(T, Producer, &X, P);
  }
  return T.Retired;
}

bool WaitcntAnalysis::mayBePendingBefore(Operation *Producer, Block *B,
                                         ArrayRef<Operation *> Ops,
                                         unsigned Index) const {
  if (!Producer)
    return true;
  const Track *Entry = entryTrack(Producer, B);
  if (!Entry)
    return false;
  const InstInfo &P = Cache.get(Producer);
  Track T = *Entry;
  for (unsigned K = 0; K < Index && K < Ops.size(); ++K)
    transfer(T, Producer, Ops[K], P);
  return T.Pending != 0;
}

bool WaitcntAnalysis::mayBePendingIn(Operation *Producer, Block *B,
                                     ArrayRef<Operation *> Ops) const {
  if (!Producer)
    return true;
  const Track *Entry = entryTrack(Producer, B);
  if (!Entry)
    return false;
  const InstInfo &P = Cache.get(Producer);
  Track T = *Entry;
  for (Operation *X : Ops) {
    if (T.Pending)
      return true;
    transfer(T, Producer, X, P);
  }
  return T.Pending != 0;
}
