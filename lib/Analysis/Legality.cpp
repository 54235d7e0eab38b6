//===- Legality.cpp - May this edit be made? Yes, or no and why -----------===//

#include "asmevo/Analysis/Legality.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <optional>

using namespace llvm;
using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

const char *asmevo::verdictKindName(Verdict::Kind K) {
  switch (K) {
  case Verdict::Kind::None:
    return "legal";
  case Verdict::Kind::Dependence:
    return "dependence";
  case Verdict::Kind::Wait:
    return "wait";
  case Verdict::Kind::Sync:
    return "sync";
  case Verdict::Kind::Hazard:
    return "hazard";
  case Verdict::Kind::LiveValue:
    return "live value";
  case Verdict::Kind::SideEffect:
    return "side effect";
  case Verdict::Kind::Structure:
    return "structure";
  }
  return "?";
}

static InstInfoCache *makeCache(Operation *Fn,
                                std::unique_ptr<InstInfoCache> &Owned) {
  auto TIOrErr = getTargetInfoFor(Fn);
  if (!TIOrErr)
    report_fatal_error(Twine("asmevo legality: ") +
                       toString(TIOrErr.takeError()));
  Owned = std::make_unique<InstInfoCache>(**TIOrErr);
  return Owned.get();
}

PcrelReferences::PcrelReferences(Operation *Op) {
  Operation *CO = Op;
  while (CO && !isa<amdgcn::CodeObjectOp>(CO))
    CO = CO->getParentOp();
  if (!CO)
    CO = Op;
  for (Region &R : CO->getRegions())
    for (Block &B : R)
      for (Operation &F : B)
        F.walk([&](amdgcn::InstOp I) {
          if (I.getPcrelPart() == amdgcn::InstOp::NoPcRel)
            return;
          auto &L = By[I.getPcrelTarget()];
          if (!llvm::is_contained(L, &F))
            L.push_back(&F);
        });
}

Operation *PcrelReferences::otherThan(int64_t Id, Operation *Fn) const {
  auto It = By.find(Id);
  if (It == By.end())
    return nullptr;
  for (Operation *F : It->second)
    if (F != Fn)
      return F;
  return nullptr;
}

Legality::Legality(Operation *Fn) : Fn(Fn) {
  Cache = makeCache(Fn, OwnedCache);
  // The model of the unedited function (edits are checked against it),
  // before the baseline: it sets what the calls read and write.
  internalCalls();
  rebuildBaseline();
}

Legality::Legality(Operation *Fn, InstInfoCache &C) : Fn(Fn), Cache(&C) {
  internalCalls();
  rebuildBaseline();
}

Legality::Legality(Operation *Fn, InstInfoCache &C, const PcrelReferences &R)
    : Legality(Fn, C) {
  Refs = &R;
}

Legality::~Legality() = default;

//===----------------------------------------------------------------------===//
// Baseline
//===----------------------------------------------------------------------===//

namespace {
/// WaitcntAnalysis::replay, calling F only for the ops of Only (all ops
/// when null), in block order, with the states Before gives.
struct Replayer {
  const WaitcntAnalysis &W;
  const SmallPtrSetImpl<Operation *> *Only;
  llvm::function_ref<PendingState(Operation *)> Before;

  void replay(Block *B,
              llvm::function_ref<void(Operation *, const PendingState &)> F) {
    if (!Only) {
      W.replay(B, F);
      return;
    }
    SmallVector<Operation *, 8> Ops;
    for (Operation *Op : *Only)
      if (Op->getBlock() == B)
        Ops.push_back(Op);
    llvm::sort(
        Ops, [](Operation *X, Operation *Y) { return X->isBeforeInBlock(Y); });
    for (Operation *Op : Ops)
      F(Op, Before(Op));
  }
};

/// Ops whose wait-counter transfer is not the identity.
bool isWaitEvent(const InstInfo &I) {
  return I.Kind == OpKind::Waitcnt || I.IsCall || I.Counters;
}

constexpr unsigned WaitMarkStride = 16;

/// s_set_gpr_idx_*: switches whether the ops after it name their registers.
bool switchesIndexing(const InstInfo &I) {
  return I.Mnemonic.starts_with("s_set_gpr_idx");
}

} // namespace

void Legality::recordWaits(const WaitcntAnalysis &W, ArrayRef<Block *> Blocks,
                           const SmallPtrSetImpl<Operation *> *Only) {
  const RegUnitInfo &RU = Cache->units();
  assert((!Only || &W == BaseWaits.get()) && "states of the baseline only");
  auto Before = [&](Operation *Op) { return baseStateBefore(Op); };
  Replayer R{W, Only, Before};
  for (Block *B : Blocks) {
    R.replay(B, [&](Operation *Op, const PendingState &S) {
      const InstInfo &I = Cache->get(Op);
      SmallVector<const PendingOp *, 4> Ps;
      WaitcntAnalysis::touching(S, I, RU, Ps, Cache->touchesAllRegisters(Op));
      if (!Ps.empty()) {
        auto &L = BaseUnwaited[Op];
        for (const PendingOp *P : Ps) {
          if (!llvm::is_contained(L, P->Op))
            L.push_back(P->Op);
          // Tolerated only on the counters no path's wait retired P on
          // before Op: where one did, that path may be the only one that
          // reaches Op (a branch correlation), so every path must.
          BaseUnwaitedCounters[{Op, P->Op}] |=
              P->Counters & ~W.retiredOnSomePath(P->Op, Op);
          BaseUnwaitedAsIs[{Op, P->Op}] |= P->Counters;
        }
      }
      if (I.Sync) {
        auto &L = BaseSyncPending[Op];
        for (const PendingOp &P : S.Ops)
          L.push_back(P.Op);
      }
    });
  }
}

void Legality::recordHazards(ArrayRef<Operation *> Consumers) {
  HazardChecker HC(*Cache, /*MemoizePairs=*/true); // the ops do not change
  for (Operation *C : Consumers) {
    BaseHazards.erase(C);
    SmallVector<HazardPair, 2> Pairs;
    HC.pairsFor(C, Pairs);
    if (!Pairs.empty())
      BaseHazards[C].assign(Pairs.begin(), Pairs.end());
  }
}

PendingState Legality::baseStateBefore(Operation *Op) {
  Block *B = Op->getBlock();
  auto [MIt, New] = BaseWaitMarks.try_emplace(B);
  WaitMarks &M = MIt->second;
  if (New) {
    for (Operation &X : *B)
      if (isWaitEvent(Cache->get(&X))) {
        M.Index[&X] = M.Events.size();
        M.Events.push_back(&X);
      }
    PendingState S = BaseWaits->in(B);
    for (unsigned J = 0; J <= M.Events.size(); ++J) {
      if (J % WaitMarkStride == 0)
        M.States.push_back(S);
      if (J < M.Events.size())
        WaitcntAnalysis::transfer(S, Cache->get(M.Events[J]));
    }
  }
  // How many memory ops precede Op: the nearest one back, or a binary
  // search when it is far.
  unsigned N = 0;
  bool Found = false;
  unsigned Steps = 0;
  Operation *P = Op->getPrevNode();
  for (; P && Steps < 64; P = P->getPrevNode(), ++Steps)
    if (auto It = M.Index.find(P); It != M.Index.end()) {
      N = It->second + 1;
      Found = true;
      break;
    }
  if (!Found && P)
    N = unsigned(
        llvm::partition_point(
            M.Events, [&](Operation *E) { return E->isBeforeInBlock(Op); }) -
        M.Events.begin());
  unsigned From = N / WaitMarkStride;
  PendingState S = M.States[From];
  for (unsigned J = From * WaitMarkStride; J < N; ++J)
    WaitcntAnalysis::transfer(S, Cache->get(M.Events[J]));
  return S;
}

bool Legality::touchesUnit(Operation *Op, uint16_t U) {
  const InstInfo &I = Cache->get(Op);
  return I.uses(U) || I.defines(U) || Cache->unknownRegisters(Op);
}

bool Legality::editsIndexing(const Transaction &T) {
  return llvm::any_of(T.Log, [&](const Transaction::Entry &E) {
    return switchesIndexing(Cache->get(E.Op));
  });
}

Operation *Legality::baseFirstTouch(Block *B, uint16_t U,
                                    const SmallPtrSetImpl<Operation *> &Moved) {
  auto &M = BaseFirstTouch[B];
  if (auto It = M.find(U); It != M.end())
    return It->second;
  Operation *First = nullptr;
  for (Operation *X : BaseOrder[B])
    if (X->getBlock() != B || Moved.contains(X) || touchesUnit(X, U)) {
      First = X; // the ops before it are the baseline's, in place
      break;
    }
  M[U] = First;
  return First;
}

std::optional<Operation *>
Legality::walkStart(const Transaction &T, Block *B, uint16_t U,
                    const SmallPtrSetImpl<Operation *> &Moved) {
  // The baseline's ops before R touch no U; an erased or moved R is
  // followed to the op that followed it then (the ops before that one are
  // those that were before R, less erased and moved ones, plus new and
  // moved ones, which are looked at below).
  Operation *R = baseFirstTouch(B, U, Moved);
  for (unsigned Steps = 0; R; ++Steps) {
    // Most starts are neither moved nor erased: the kinds answer that
    // without a scan of the log.
    if (!T.isMoved(R) && !T.isErased(R))
      break;
    const Transaction::Entry *E = nullptr;
    for (const Transaction::Entry &X : T.Log)
      if (X.Op == R && X.K != Transaction::Entry::Insert) {
        E = &X;
        break;
      }
    if (!E)
      break;
    if (E->OldBlock != B || Steps > 16)
      return std::nullopt;
    R = E->OldNext;
  }
  if (R && R->getBlock() != B)
    return std::nullopt;
  Operation *Start = R;
  for (const Transaction::Entry &E : T.Log)
    if (E.K != Transaction::Entry::Erase && E.Op->getBlock() == B &&
        E.Op != Start && touchesUnit(E.Op, U) &&
        (!Start || E.Op->isBeforeInBlock(Start)))
      Start = E.Op;
  return Start;
}

void Legality::rebuildBaseline() {
  BaseFirstTouch.clear();
  BaseWaitMarks.clear();
  LiveSummaries.clear();
  BaseFirstExecDef.clear();
  BaseClean.clear();
  BaseUnreferenced.clear();
  BaseOrder.clear();
  PcrelTargets.clear();
  BaseUnwaited.clear();
  BaseUnwaitedCounters.clear();
  BaseUnwaitedAsIs.clear();
  BaseSyncPending.clear();
  BaseHazards.clear();
  SmallVector<Block *> Blocks;
  MayIndex = false;
  for (Block &B : Fn->getRegion(0)) {
    Blocks.push_back(&B);
    auto &L = BaseOrder[&B];
    for (Operation &Op : B) {
      L.push_back(&Op);
      if (switchesIndexing(Cache->get(&Op)))
        MayIndex = true;
      if (auto I = dyn_cast<amdgcn::InstOp>(&Op))
        if (I.getPcrelPart() != amdgcn::InstOp::NoPcRel)
          PcrelTargets.insert(I.getPcrelTarget());
    }
  }
  BaseWaits = std::make_unique<WaitcntAnalysis>(Fn, *Cache);
  recordWaits(*BaseWaits, Blocks);
  HazardsRecorded = false;
}

void Legality::recordAllHazards() {
  if (HazardsRecorded)
    return;
  HazardsRecorded = true;
  SmallVector<Operation *> Ops;
  for (Block &B : Fn->getRegion(0))
    for (Operation &Op : B)
      Ops.push_back(&Op);
  recordHazards(Ops);
}

const WaitcntAnalysis &Legality::waits() { return *BaseWaits; }

const SmallVectorImpl<Operation *> *
Legality::baselinePendingAt(Operation *SyncOp) const {
  auto It = BaseSyncPending.find(SyncOp);
  return It == BaseSyncPending.end() ? nullptr : &It->second;
}

const SmallVectorImpl<Operation *> *
Legality::baselineUnwaitedAt(Operation *Op) const {
  auto It = BaseUnwaited.find(Op);
  return It == BaseUnwaited.end() ? nullptr : &It->second;
}

uint8_t Legality::baselineUnwaitedCounters(Operation *Op, Operation *Pending,
                                           bool PathsKept) const {
  return (PathsKept ? BaseUnwaitedAsIs : BaseUnwaitedCounters)
      .lookup({Op, Pending});
}

bool Legality::baselineMayBePendingBefore(Operation *Producer, Operation *X) {
  Block *B = X->getBlock();
  auto &Ops = BaseOrder[B];
  auto It = llvm::find(Ops, X);
  return BaseWaits->mayBePendingBefore(Producer, B, Ops,
                                       unsigned(It - Ops.begin()));
}

// An erased wait or memory op matters where P may be in flight before it
// in the baseline (exactly); a moved one or an added memory op anywhere in
// a block where P may be in flight.
bool Legality::pathsKept(const Transaction &T, Operation *Op, Operation *P) {
  if (!P || T.isMoved(Op) || T.isMoved(P) || T.isErased(P))
    return false;
  llvm::DenseMap<Block *, bool> Anywhere;
  auto pendingInBlock = [&](Block *B) {
    auto [It, New] = Anywhere.try_emplace(B, false);
    if (New)
      It->second = BaseWaits->mayBePendingIn(P, B, BaseOrder[B]);
    return It->second;
  };
  for (const Transaction::Entry &E : T.Log) {
    const InstInfo &I = Cache->get(E.Op);
    bool Memory = I.Counters || I.IsCall;
    if (!Memory && I.Kind != OpKind::Waitcnt)
      continue;
    if (E.K == Transaction::Entry::Insert) {
      if (Memory && pendingInBlock(E.Op->getBlock()))
        return false;
      continue;
    }
    if (E.K == Transaction::Entry::Move) {
      if (pendingInBlock(E.OldBlock))
        return false;
      continue;
    }
    auto &Ops = BaseOrder[E.OldBlock];
    auto It = llvm::find(Ops, E.Op);
    if (It == Ops.end() || BaseWaits->mayBePendingBefore(
                               P, E.OldBlock, Ops, unsigned(It - Ops.begin())))
      return false;
  }
  return true;
}

void Legality::forgetUnwaited(Operation *Op) {
  auto It = BaseUnwaited.find(Op);
  if (It == BaseUnwaited.end())
    return;
  for (Operation *P : It->second) {
    BaseUnwaitedCounters.erase({Op, P});
    BaseUnwaitedAsIs.erase({Op, P});
  }
  BaseUnwaited.erase(It);
}

DependenceGraph Legality::graph(Block *B, bool Hazards) {
  DependenceGraph::Options O;
  O.Hazards = Hazards;
  return DependenceGraph(B, *Cache, BaseWaits.get(), O);
}

/// Whether Op reads or writes a register that P (null: an unknown op)
/// defines. Otherwise a tolerated touch is of LDS memory only (written by
/// LDS DMA): compiled code relies on alias information we do not have.
static bool touchesRegisterOf(InstInfoCache &Cache, Operation *Op,
                              Operation *P) {
  if (!P)
    return true;
  const RegUnitInfo &RU = Cache.units();
  const InstInfo &U = Cache.get(Op);
  UnitList Touched;
  for (uint16_t X : U.Uses)
    if (!RU.isPseudo(X))
      RegUnitInfo::addUnit(Touched, X);
  for (uint16_t X : U.Defs)
    if (!RU.isPseudo(X))
      RegUnitInfo::addUnit(Touched, X);
  return RegUnitInfo::intersects(Cache.get(P).Defs, Touched);
}

void Legality::baselineProblems(SmallVectorImpl<std::string> &Out) {
  recordAllHazards();
  for (auto &KV : BaseHazards)
    for (const HazardPair &P : KV.second)
      Out.push_back(P.message(*Cache));
  for (auto &KV : BaseUnwaited)
    for (Operation *P : KV.second) {
      bool RegisterHit = touchesRegisterOf(*Cache, KV.first, P);
      bool Unknown = Cache->unknownRegisters(KV.first);
      // Counters some path into it retired P on: the touch may be safe
      // by a branch correlation (tolerated only on the other counters).
      std::string Retired;
      uint8_t R = BaseWaits->retiredOnSomePath(P, KV.first) &
                  (P ? Cache->get(P).Counters : 0);
      for (Counter K : {Counter::VM, Counter::EXP, Counter::LGKM})
        if (R & counterBit(K))
          Retired += std::string(Retired.empty() ? "" : ", ") + counterName(K);
      Out.push_back(std::string(Unknown       ? "unwaited (unknown registers): "
                                : RegisterHit ? "unwaited: "
                                              : "unwaited (LDS memory): ") +
                    Cache->describe(KV.first) + " touches the result of " +
                    (P ? Cache->describe(P) : std::string("an unknown op")) +
                    (Retired.empty() ? std::string()
                                     : " (retired on " + Retired +
                                           " on some path into it)"));
    }
}

//===----------------------------------------------------------------------===//
// Transaction
//===----------------------------------------------------------------------===//

Legality::Transaction::Transaction(Legality &L) : L(L) {
  // The baseline's hazard pairs are of the code before any edit.
  L.recordAllHazards();
}

Legality::Transaction::~Transaction() {
  if (!Done)
    rollback();
}

void Legality::Transaction::touch(Operation *Op, Block *B) {
  Touched.insert(B);
  const InstInfo &I = L.Cache->get(Op);
  if (I.Counters || I.Kind == OpKind::Waitcnt || I.IsCall)
    MemoryTouched = true;
}

static bool sameBlockCheck(Operation *X, Operation *Y, Verdict &Err,
                           InstInfoCache &C) {
  if (!X->getBlock() || !Y->getBlock()) {
    Err = Verdict::fail(Verdict::Kind::Structure,
                        "an op of the edit is not in a block");
    return false;
  }
  if (X->getBlock() != Y->getBlock()) {
    Err = Verdict::fail(Verdict::Kind::Structure,
                        "moving " + C.describe(X) + " next to " +
                            C.describe(Y) +
                            ": moves across blocks are not supported");
    return false;
  }
  return true;
}

void Legality::Transaction::moveBefore(Operation *X, Operation *Y) {
  if (X == Y || !StructureError.Legal)
    return;
  if (!sameBlockCheck(X, Y, StructureError, *L.Cache))
    return;
  if (L.Cache->get(X).IsTerminator) {
    StructureError = Verdict::fail(Verdict::Kind::Structure,
                                   "a terminator cannot move: " +
                                       L.Cache->describe(X));
    return;
  }
  log({Entry::Move, X, X->getBlock(), X->getNextNode(), false});
  touch(X, X->getBlock());
  X->moveBefore(Y);
}

void Legality::Transaction::moveAfter(Operation *X, Operation *Y) {
  if (X == Y || !StructureError.Legal)
    return;
  if (!sameBlockCheck(X, Y, StructureError, *L.Cache))
    return;
  if (L.Cache->get(X).IsTerminator || L.Cache->get(Y).IsTerminator) {
    StructureError = Verdict::fail(
        Verdict::Kind::Structure,
        "nothing can move after a terminator, and a terminator cannot move");
    return;
  }
  log({Entry::Move, X, X->getBlock(), X->getNextNode(), false});
  touch(X, X->getBlock());
  X->moveAfter(Y);
}

void Legality::Transaction::erase(Operation *X) {
  if (!StructureError.Legal)
    return;
  if (!X->getBlock()) {
    StructureError =
        Verdict::fail(Verdict::Kind::Structure, "erasing a detached op");
    return;
  }
  if (L.Cache->get(X).IsTerminator) {
    StructureError = Verdict::fail(Verdict::Kind::Structure,
                                   "a terminator cannot be erased: " +
                                       L.Cache->describe(X));
    return;
  }
  log({Entry::Erase, X, X->getBlock(), X->getNextNode(), false});
  touch(X, X->getBlock());
  X->remove();
}

void Legality::Transaction::eraseRedundant(Operation *X, Operation *Same) {
  erase(X);
  if (!Log.empty() && Log.back().K == Entry::Erase && Log.back().Op == X)
    Log.back().SameAs = Same;
}

void Legality::Transaction::insert(Operation *New, Operation *Y, bool Owned) {
  if (!StructureError.Legal) {
    if (Owned)
      New->destroy();
    return;
  }
  if (New->getBlock() || !Y->getBlock()) {
    StructureError = Verdict::fail(
        Verdict::Kind::Structure,
        "insert: the new op must be detached and the anchor in a block");
    if (Owned && !New->getBlock())
      New->destroy();
    return;
  }
  Y->getBlock()->getOperations().insert(Y->getIterator(), New);
  log({Entry::Insert, New, nullptr, nullptr, Owned});
  L.Cache->invalidate(New);
  touch(New, Y->getBlock());
}

void Legality::Transaction::insertBefore(Operation *New, Operation *Y) {
  insert(New, Y, /*Owned=*/true);
}

void Legality::Transaction::replace(ArrayRef<Operation *> Old,
                                    ArrayRef<Operation *> New, bool Owned) {
  if (Old.empty()) {
    StructureError =
        Verdict::fail(Verdict::Kind::Structure, "replace: empty range");
    if (Owned)
      for (Operation *N : New)
        N->destroy();
    return;
  }
  Block *B = Old.front()->getBlock();
  for (size_t I = 0; I < Old.size(); ++I)
    if (Old[I]->getBlock() != B ||
        (I && Old[I - 1]->getNextNode() != Old[I])) {
      StructureError = Verdict::fail(
          Verdict::Kind::Structure,
          "replace: the old ops are not a contiguous range of one block");
      if (Owned)
        for (Operation *N : New)
          N->destroy();
      return;
    }
  for (Operation *N : New)
    insert(N, Old.front(), Owned);
  for (Operation *O : Old)
    erase(O);
}

void Legality::Transaction::replace(ArrayRef<Operation *> Old,
                                    ArrayRef<Operation *> New) {
  replace(Old, New, /*Owned=*/true);
}

void Legality::Transaction::log(const Entry &E) {
  Log.push_back(E);
  Kinds[E.Op] |= uint8_t(1u << E.K);
}

bool Legality::Transaction::isNew(Operation *Op) const {
  return Kinds.lookup(Op) & (1u << Entry::Insert);
}

bool Legality::Transaction::isMoved(Operation *Op) const {
  return Kinds.lookup(Op) & (1u << Entry::Move);
}

bool Legality::Transaction::isErased(Operation *Op) const {
  return Kinds.lookup(Op) & (1u << Entry::Erase);
}

void Legality::Transaction::rollback() {
  for (const Entry &E : llvm::reverse(Log)) {
    switch (E.K) {
    case Entry::Move:
      if (E.OldNext)
        E.Op->moveBefore(E.OldNext);
      else
        E.Op->moveBefore(E.OldBlock, E.OldBlock->end());
      break;
    case Entry::Erase:
      if (E.OldNext)
        E.OldBlock->getOperations().insert(E.OldNext->getIterator(), E.Op);
      else
        E.OldBlock->push_back(E.Op);
      break;
    case Entry::Insert:
      E.Op->remove();
      L.Cache->invalidate(E.Op);
      if (E.Owned)
        E.Op->destroy();
      break;
    }
  }
  Log.clear();
  Kinds.clear();
  for (Block *B : Touched)
    L.LiveSummaries.invalidate(B);
  Touched.clear();
  Fresh.reset();
  Done = true;
}

Verdict Legality::Transaction::verify() { return L.verify(*this); }

unsigned Legality::Transaction::insertNopsForHazards() {
  if (!StructureError)
    return 0;
  unsigned Added = 0;
  HazardChecker HC(*L.Cache);
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<Operation *, 64> Consumers;
    L.affectedConsumers(*this, Consumers);
    bool Changed = false;
    for (Operation *C : Consumers) {
      SmallVector<HazardPair, 2> Pairs;
      HC.pairsFor(C, Pairs);
      int Missing = 0;
      for (const HazardPair &P : Pairs) {
        bool Tolerated = false;
        auto It = L.BaseHazards.find(C);
        if (It != L.BaseHazards.end() && !isNew(C))
          for (const HazardPair &B : It->second)
            if (B.Rule == P.Rule && B.Producer == P.Producer &&
                P.Have >= B.Have)
              Tolerated = true;
        if (!Tolerated)
          Missing = std::max(Missing, P.Required - P.Have);
      }
      if (Missing <= 0)
        continue;
      OpBuilder B(C->getContext());
      while (Missing > 0) {
        int N = std::min(Missing, 16);
        Operation *Nop = NopOp::create(B, B.getUnknownLoc(), -1, N - 1);
        insert(Nop, C, /*Owned=*/true);
        Missing -= N;
        Added += unsigned(N);
      }
      Changed = true;
    }
    if (!Changed)
      break;
  }
  return Added;
}

Verdict Legality::Transaction::commit() {
  Verdict V = verify();
  if (!V) {
    rollback();
    return V;
  }
  L.updateBaseline(*this);
  for (const Entry &E : Log)
    if (E.K == Entry::Erase && !E.Op->getBlock()) {
      L.Cache->invalidate(E.Op);
      E.Op->destroy();
    }
  Log.clear();
  Kinds.clear();
  Done = true;
  return V;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

Verdict Legality::verify(Transaction &T) {
  if (!T.StructureError)
    return T.StructureError;
  if (T.Log.empty())
    return Verdict::ok();
  for (auto Check :
       {&Legality::checkStructure, &Legality::checkOrder,
        &Legality::checkLiveValues, &Legality::checkWaits,
        &Legality::checkHazards}) {
    Verdict V = (this->*Check)(T);
    if (!V)
      return V;
  }
  return Verdict::ok();
}

/// Kernels with preloaded kernel arguments (gfx940+) start with a
/// 256-byte prologue for firmware without preloading; firmware with
/// preloading enters at +256. That layout must not change.
static int64_t frozenPrologueBytes(Operation *Fn) {
  auto K = dyn_cast<KernelOp>(Fn);
  if (!K)
    return 0;
  auto Len = K.getDescriptor().getAs<IntegerAttr>("kernarg_preload_spec_length");
  return Len && Len.getInt() > 0 ? 256 : 0;
}

void Legality::blocksChangingFixedCode(const Transaction &T,
                                       SmallVectorImpl<Block *> &Out) {
  Out.clear();
  if (!Fn->hasAttr("internal_calls"))
    return;
  const InternalCallModel &M = internalCalls();
  for (Block *B : T.Touched)
    if (M.isFixedBlock(B))
      Out.push_back(B);
}

const InternalCallModel &Legality::internalCalls() {
  return Cache->internalCalls(Fn);
}

bool Legality::isFrozen(Block *B) {
  if (Fn->hasAttr("internal_calls") && internalCalls().isFixedBlock(B))
    return true;
  int64_t Frozen = frozenPrologueBytes(Fn);
  if (!Frozen)
    return false;
  int64_t Start = cast<KernelOp>(Fn).getAddr();
  auto It = BaseOrder.find(B);
  if (It == BaseOrder.end())
    return false;
  for (Operation *Op : It->second) {
    int64_t Id = getInstId(Op);
    if (Id >= 0)
      return Start >= 0 && Id - Start < Frozen;
  }
  return false;
}

Verdict Legality::checkStructure(Transaction &T) {
  if (Fn->hasAttr("not_relocatable"))
    return Verdict::fail(Verdict::Kind::Structure,
                         "the function is not_relocatable (code recovery "
                         "could not model); it is only copied");
  // Calls into the function's own code (Tensile's activation functions)
  // follow no calling convention. Edits are safe around the calls when the
  // subroutines are plain ALU code (the wait analysis then keeps what is
  // in flight through a call, which reads and writes what they do) and the
  // calls and subroutines stay as they are (InternalCallModel).
  if (Fn->hasAttr("internal_calls")) {
    const InternalCallModel &M = internalCalls();
    // A block by its first op in the baseline (the edit may have moved it).
    auto blockName = [&](Block *B) {
      auto It = BaseOrder.find(B);
      return It == BaseOrder.end() || It->second.empty()
                 ? std::string("an empty block")
                 : Cache->describe(It->second.front());
    };
    if (!M.modelled())
      return Verdict::fail(Verdict::Kind::Structure,
                           "the function calls into its own code "
                           "(internal_calls) in a way the analyses do not "
                           "model: " +
                               M.reason() + "; it is only moved");
    // A subroutine may get s_nops when the transaction asks for it
    // (amdgcn-hazard): they run on every call, only add wait states, and
    // leave what the model found (no register, memory op or wait; the
    // references land on them); nothing of it is moved or erased.
    for (Block *B : T.Touched) {
      if (!M.isFixedBlock(B))
        continue;
      bool OnlyNops = T.SubroutineNops && M.isSubroutineBlock(B);
      for (const Transaction::Entry &E : T.Log)
        if (OnlyNops && (E.OldBlock == B || E.Op->getBlock() == B))
          OnlyNops = E.K == Transaction::Entry::Insert &&
                     Cache->get(E.Op).Kind == OpKind::Nop;
      if (!OnlyNops)
        return Verdict::fail(
            Verdict::Kind::Structure,
            "the block of " + blockName(B) +
                " is not reached from the entry (a subroutine called with "
                "s_swappc_b64, or dead code): it is kept as it is");
    }
  }
  for (Block *B : T.Touched)
    if (isFrozen(B) &&
        !(Fn->hasAttr("internal_calls") && internalCalls().isFixedBlock(B)))
      return Verdict::fail(
          Verdict::Kind::Structure,
          "the kernel preloads kernel arguments: its first 256 bytes (the "
          "prologue for firmware without preloading) keep their layout");
  for (Block *B : T.Touched) {
    if (B->empty() || !Cache->get(&B->back()).IsTerminator)
      return Verdict::fail(Verdict::Kind::Structure,
                           "the block would not end with its terminator");
    auto bad = [&](Operation *Op) {
      const InstInfo &I = Cache->get(Op);
      if (I.Kind == OpKind::Raw)
        return Verdict::fail(Verdict::Kind::Structure,
                             "the block holds undecodable words (" +
                                 Cache->describe(Op) + ")");
      if (I.IsTerminator && Op != &B->back())
        return Verdict::fail(Verdict::Kind::Structure,
                             "an op would follow the terminator " +
                                 Cache->describe(Op));
      return Verdict::ok();
    };
    if (baseClean(B)) {
      // Only new ops can be either: the baseline's ops hold no raw word,
      // and its terminator stays last (terminators neither move nor go,
      // and nothing is put after one). The first in block order.
      Operation *First = nullptr;
      for (const Transaction::Entry &E : T.Log)
        if (E.K == Transaction::Entry::Insert && E.Op->getBlock() == B &&
            !bad(E.Op) && (!First || E.Op->isBeforeInBlock(First)))
          First = E.Op;
      if (First)
        return bad(First);
      continue;
    }
    for (Operation &Op : *B)
      if (Verdict V = bad(&Op); !V)
        return V;
  }
  // A PC-relative literal (a jump table, a long branch, another function's
  // address computation) names its target by the id of the instruction
  // there, and emission lands it on that instruction or on new ops put
  // right before it. So a block whose first instruction is such a target
  // keeps it first, after new ops only, and a block entered in the middle
  // by another function's reference is not edited at all (the dependence
  // and wait checks see only this function's entries). (A function's own
  // start is its entry, which emission maps.)
  int64_t FnStart = -1;
  if (auto A = Fn->getAttrOfType<IntegerAttr>("addr"))
    FnStart = A.getInt();
  if (!Refs) {
    OwnedRefs = std::make_unique<PcrelReferences>(Fn);
    Refs = OwnedRefs.get();
  }
  auto fnName = [](Operation *F) {
    if (auto S = dyn_cast<SymbolOpInterface>(F))
      return "@" + S.getName().str();
    return std::string("another function");
  };
  for (Block *B : T.Touched) {
    auto It = BaseOrder.find(B);
    if (It == BaseOrder.end() || It->second.empty())
      continue;
    // Whether another function names an op of B but its first: known per
    // baseline block (updateBaseline keeps it), else looked up here.
    auto UIt = BaseUnreferenced.find(B);
    bool Unreferenced = UIt != BaseUnreferenced.end() && UIt->second;
    if (!Unreferenced) {
      for (Operation *X : llvm::drop_begin(It->second)) {
        int64_t Id = getInstId(X);
        if (Id < 0 || Id == FnStart)
          continue;
        if (Operation *Other = Refs->otherThan(Id, Fn))
          return Verdict::fail(
              Verdict::Kind::Structure,
              Cache->describe(X) +
                  " is the target of a PC-relative reference "
                  "from " +
                  fnName(Other) +
                  ": its block is entered in the middle there and is not "
                  "edited");
      }
      BaseUnreferenced[B] = true;
    }
    Operation *First = It->second.front();
    int64_t Id = getInstId(First);
    if (Id < 0 || Id == FnStart)
      continue;
    Operation *Other = Refs->otherThan(Id, Fn);
    if (!Other && !PcrelTargets.contains(Id))
      continue;
    bool Kept = First->getBlock() == B;
    for (Operation &Op : *B) {
      if (!Kept || &Op == First)
        break;
      Kept = getInstId(&Op) < 0;
    }
    if (!Kept)
      return Verdict::fail(
          Verdict::Kind::Structure,
          Cache->describe(First) +
              (Other ? " is the target of a PC-relative reference from " +
                           fnName(Other)
                     : std::string(" is the target of a PC-relative "
                                   "reference (jump table or long branch)")) +
              ": it must stay first in its block");
  }
  return Verdict::ok();
}

Verdict Legality::checkOrder(Transaction &T) {
  // Erasing and inserting keep the order of the ops that stay.
  if (llvm::none_of(T.Log, [](const Transaction::Entry &E) {
        return E.K == Transaction::Entry::Move;
      }))
    return Verdict::ok();
  for (Block *B : T.Touched) {
    auto It = BaseOrder.find(B);
    if (It == BaseOrder.end())
      continue;
    SmallVector<Operation *, 32> Surviving;
    for (Operation *Op : It->second)
      if (Op->getBlock() == B)
        Surviving.push_back(Op);
    llvm::DenseMap<Operation *, unsigned> Pos;
    unsigned N = 0;
    bool Reordered = false;
    for (Operation &Op : *B)
      Pos[&Op] = N++;
    for (size_t I = 1; I < Surviving.size(); ++I)
      if (Pos[Surviving[I - 1]] > Pos[Surviving[I]])
        Reordered = true;
    if (!Reordered)
      continue;
    DependenceGraph::Options O;
    O.Hazards = false;
    DependenceGraph G(Surviving, *Cache, &BaseWaits->in(B), O);
    auto &Gr = G.graph();
    for (auto [EI, EE] = boost::edges(Gr); EI != EE; ++EI) {
      Operation *U = G.op(boost::source(*EI, Gr));
      Operation *V = G.op(boost::target(*EI, Gr));
      if (Pos[U] > Pos[V])
        return Verdict::fail(Verdict::Kind::Dependence,
                             "dependence reversed: " + G.describe(*EI));
    }
  }
  return Verdict::ok();
}

/// Is the claim of eraseRedundant true in the current IR?
bool Legality::redundancyHolds(const Transaction::Entry &E, bool NoIndexing) {
  const InstInfo &I = Cache->get(E.Op);
  if (I.Kind != OpKind::Inst || I.SideEffect || I.MemRead || I.MemWrite ||
      I.Counters || I.IsCall)
    return false;
  if (E.SameAs == E.Op) {
    // A copy of a register to itself, unless VGPR indexing is on there:
    // then the source is v[N + index] (rocBLAS trsm reads its triangle with
    // `s_set_gpr_idx_on s24, gpr_idx(SRC0); v_mov_b32 v28, v28`). E.Op is
    // detached: look at the ops before its old place (no op there switches
    // indexing when the function has none).
    for (Operation *P =
             NoIndexing ? nullptr
             : E.OldNext
                 ? E.OldNext->getPrevNode()
                 : (E.OldBlock->empty() ? nullptr : &E.OldBlock->back());
         ; P = P->getPrevNode()) {
      if (!P) {
        if (E.OldNext && Cache->inIndexedMode(E.OldNext))
          return false;
        break;
      }
      StringRef PM = Cache->get(P).Mnemonic;
      if (PM == "s_set_gpr_idx_on")
        return false;
      if (PM == "s_set_gpr_idx_off")
        break;
    }
    StringRef M = I.Mnemonic;
    if (!(M == "v_mov_b32_e32" || M == "s_mov_b32" || M == "s_mov_b64" ||
          M == "v_mov_b64_e32"))
      return false;
    const InstInfo::RegOperand *Dst = nullptr, *Src = nullptr;
    for (const InstInfo::RegOperand &R : I.Regs)
      if (R.OperandIndex == 0)
        Dst = &R;
      else if (R.OperandIndex == 1)
        Src = &R;
    return Dst && Src && Dst->Reg == Src->Reg;
  }
  Operation *P = E.SameAs;
  if (!P->getBlock() || P->getBlock() != E.OldBlock)
    return false;
  if (getOriginalBytes(P) != getOriginalBytes(E.Op))
    return false;
  if (RegUnitInfo::intersects(I.Defs, I.Uses) || Cache->unknownRegisters(P))
    return false;
  UnitList Watch(I.Uses.begin(), I.Uses.end());
  for (uint16_t U : I.Defs)
    RegUnitInfo::addUnit(Watch, U);
  for (Operation *X = P->getNextNode(); X != E.OldNext; X = X->getNextNode()) {
    if (!X)
      return false; // the old position is not after P any more
    const InstInfo &XI = Cache->get(X);
    if (Cache->unknownRegisters(X) || RegUnitInfo::intersects(XI.Defs, Watch))
      return false;
  }
  return true;
}

Verdict Legality::checkLiveValues(Transaction &T) {
  bool Any = false;
  llvm::DenseSet<Operation *> NewOps;
  for (const Transaction::Entry &E : T.Log) {
    if (E.K == Transaction::Entry::Insert && E.Op->getBlock())
      NewOps.insert(E.Op);
    if (E.K == Transaction::Entry::Move)
      continue;
    // Ops without results or effects (s_nop, s_waitcnt) need no liveness.
    const InstInfo &I = Cache->get(E.Op);
    if (!I.Defs.empty() || I.SideEffect || I.MemWrite)
      Any = true;
  }
  if (!Any)
    return Verdict::ok();
  const RegUnitInfo &RU = Cache->units();
  // The transaction's blocks differ from their summaries (if any).
  for (Block *B : T.Touched)
    LiveSummaries.invalidate(B);
  // Only the results of erased and new ops are asked about.
  SmallVector<uint16_t, 16> Focus;
  for (const Transaction::Entry &E : T.Log)
    if ((E.K == Transaction::Entry::Erase && !E.Op->getBlock() && !E.SameAs) ||
        (E.K == Transaction::Entry::Insert && E.Op->getBlock()))
      for (uint16_t U : Cache->get(E.Op).Defs)
        if (!RU.isPseudo(U) && !llvm::is_contained(Focus, U))
          Focus.push_back(U);
  // The touched blocks' transfers are computed afresh, for the focus units
  // only, with their first EXEC writes carried over from the baseline.
  Liveness::Editing Edits;
  for (Block *B : T.Touched) {
    Edits.Blocks.insert(B);
    Edits.FirstExecDef[B] = firstExecDef(T, B);
  }
  // Built at the first question (erasures claimed redundant ask none).
  std::optional<Liveness> LiveStore;
  auto live = [&]() -> Liveness & {
    if (!LiveStore && Focus.size() <= 64 && !editsIndexing(T)) {
      // Where each focus unit's walk of a touched block starts.
      llvm::SmallPtrSet<Operation *, 8> Moved;
      movedOps(T, Moved);
      for (Block *B : T.Touched)
        for (uint16_t U : Focus)
          if (std::optional<Operation *> S = walkStart(T, B, U, Moved))
            Edits.From[{B, U}] = *S;
    }
    if (!LiveStore)
      LiveStore.emplace(
          Fn, *Cache, Liveness::Mode::Conservative, &NewOps, &LiveSummaries,
          Focus.size() <= 64 ? ArrayRef<uint16_t>(Focus) : ArrayRef<uint16_t>(),
          &Edits);
    return *LiveStore;
  };
  // Live sets around every op of a block, computed once per block (a
  // transaction may touch thousands of ops of one block).
  llvm::DenseMap<Block *, llvm::DenseMap<Operation *, std::pair<BitVector,
                                                                BitVector>>>
      Around;
  auto around = [&](Operation *Op) -> std::pair<BitVector, BitVector> & {
    Block *B = Op->getBlock();
    auto &M = Around[B];
    if (M.empty()) {
      live().walkBackward(B, [&](Operation *X, const BitVector &LiveAfter) {
        M[X].second = LiveAfter;
      });
      // liveBefore(X) == liveAfter(previous op); the first op recomputes.
      for (Operation &X : *B) {
        Operation *P = X.getPrevNode();
        M[&X].first = P ? M[P].second : live().liveBefore(&X);
      }
    }
    return M[Op];
  };
  // A few questions in a block (a rewrite's) are answered by walking
  // forward from the op only as far as its units are decided, so that the
  // cost does not grow with the block.
  llvm::DenseMap<Block *, unsigned> Questions;
  for (const Transaction::Entry &E : T.Log)
    if (E.K == Transaction::Entry::Erase && !E.Op->getBlock() && !E.SameAs)
      ++Questions[E.OldBlock];
    else if (E.K == Transaction::Entry::Insert && E.Op->getBlock())
      ++Questions[E.Op->getBlock()];
  auto few = [&](Operation *Op) {
    return Questions.lookup(Op->getBlock()) <= 4;
  };
  auto liveBefore = [&](Operation *Op, ArrayRef<uint16_t> Units) {
    return few(Op) ? live().liveUnitsAt(Op, /*After=*/false, Units)
                   : around(Op).first;
  };
  auto liveAfter = [&](Operation *Op, ArrayRef<uint16_t> Units) {
    return few(Op) ? live().liveUnitsAt(Op, /*After=*/true, Units)
                   : around(Op).second;
  };
  // Units written by new / erased ops per block (replacements).
  llvm::DenseMap<Block *, UnitList> NewDefs, ErasedDefs;
  for (const Transaction::Entry &E : T.Log) {
    if (E.K == Transaction::Entry::Insert && E.Op->getBlock()) {
      auto &L = NewDefs[E.Op->getBlock()];
      for (uint16_t U : Cache->get(E.Op).Defs)
        RegUnitInfo::addUnit(L, U);
    }
    if (E.K == Transaction::Entry::Erase && !E.Op->getBlock()) {
      auto &L = ErasedDefs[E.OldBlock];
      for (uint16_t U : Cache->get(E.Op).Defs)
        RegUnitInfo::addUnit(L, U);
    }
  }
  for (const Transaction::Entry &E : T.Log) {
    if (E.K == Transaction::Entry::Erase && !E.Op->getBlock()) {
      const InstInfo &I = Cache->get(E.Op);
      if (I.SideEffect || I.MemWrite) {
        bool Replaced = false;
        for (Operation *N : NewOps) {
          if (N->getBlock() != E.OldBlock)
            continue;
          const InstInfo &NI = Cache->get(N);
          if (I.MemWrite && (NI.MemWrite & I.MemWrite) == I.MemWrite &&
              (!I.SideEffect || NI.Mnemonic == I.Mnemonic))
            Replaced = true;
          if (!I.MemWrite && I.SideEffect && NI.Mnemonic == I.Mnemonic)
            Replaced = true;
        }
        if (!Replaced)
          return Verdict::fail(
              Verdict::Kind::SideEffect,
              "erasing " + Cache->describe(E.Op) + " removes " +
                  (I.MemWrite ? std::string("a memory write")
                              : "a side effect (" + I.SideEffectWhy.str() +
                                    ")") +
                  " and no new op of the same kind replaces it");
      }
      if (E.SameAs) {
        if (!redundancyHolds(E, !MayIndex && !editsIndexing(T)))
          return Verdict::fail(Verdict::Kind::LiveValue,
                               "erasing " + Cache->describe(E.Op) +
                                   " as redundant: it does not repeat " +
                                   (E.SameAs == E.Op
                                        ? std::string("its own source")
                                        : Cache->describe(E.SameAs)) +
                                   " with everything it reads unchanged");
        continue;
      }
      // Registers live where the op was: before the first op that
      // followed it in the baseline and is still in the block.
      Operation *Next = nullptr;
      {
        auto &Order = BaseOrder[E.OldBlock];
        auto It = llvm::find(Order, E.Op);
        if (It != Order.end())
          for (++It; It != Order.end() && !Next; ++It)
            if ((*It)->getBlock() == E.OldBlock)
              Next = *It;
        if (!Next && E.OldNext && E.OldNext->getBlock() == E.OldBlock)
          Next = E.OldNext;
      }
      BitVector L =
          Next ? liveBefore(Next, I.Defs) : live().liveOut(E.OldBlock);
      UnitList Lost;
      const UnitList &ND = NewDefs.lookup(E.OldBlock);
      for (uint16_t U : I.Defs)
        if (!RU.isPseudo(U) && U < L.size() && L.test(U) &&
            !RegUnitInfo::contains(ND, U))
          Lost.push_back(U);
      if (!Lost.empty())
        return Verdict::fail(Verdict::Kind::LiveValue,
                             "erasing " + Cache->describe(E.Op) +
                                 ": its result " + RU.describe(Lost) +
                                 " is still read afterwards");
    }
    if (E.K == Transaction::Entry::Insert && E.Op->getBlock()) {
      const InstInfo &I = Cache->get(E.Op);
      BitVector L = liveAfter(E.Op, I.Defs);
      UnitList Clobbered;
      const UnitList &ED = ErasedDefs.lookup(E.Op->getBlock());
      for (uint16_t U : I.Defs)
        if (!RU.isPseudo(U) && U < L.size() && L.test(U) &&
            !RegUnitInfo::contains(ED, U))
          Clobbered.push_back(U);
      if (!Clobbered.empty())
        return Verdict::fail(Verdict::Kind::LiveValue,
                             "the new " + Cache->describe(E.Op) +
                                 " overwrites " + RU.describe(Clobbered) +
                                 ", which original code still reads");
    }
  }
  return Verdict::ok();
}

static std::string countsText(const unsigned C[NumCounters]) {
  std::string S;
  unsigned Max[NumCounters];
  maxCounts(Max);
  for (Counter K : {Counter::VM, Counter::EXP, Counter::LGKM}) {
    unsigned I = unsigned(K);
    if (C[I] < Max[I])
      S += (S.empty() ? "" : " ") + std::string(counterName(K)) + "(" +
           std::to_string(C[I]) + ")";
  }
  return S;
}

Verdict Legality::checkWaits(Transaction &T) {
  const RegUnitInfo &RU = Cache->units();
  llvm::DenseMap<Block *, llvm::DenseMap<Operation *, unsigned>> BasePos;
  auto baseAfter = [&](Block *B, Operation *A, Operation *X) {
    auto &Pos = BasePos[B];
    if (Pos.empty())
      for (Operation *Op : BaseOrder[B])
        Pos[Op] = unsigned(Pos.size());
    auto AI = Pos.find(A), XI = Pos.find(X);
    return AI != Pos.end() && XI != Pos.end() && XI->second > AI->second;
  };
  const WaitcntAnalysis *W = BaseWaits.get();
  SmallVector<Block *> Blocks;
  if (T.MemoryTouched) {
    T.Fresh = std::make_unique<WaitcntAnalysis>(Fn, *Cache);
    W = T.Fresh.get();
    for (Block &B : Fn->getRegion(0))
      Blocks.push_back(&B);
  } else {
    Blocks.append(T.Touched.begin(), T.Touched.end());
  }
  // With no memory op, wait or call edited, the ops left in place see the
  // baseline's ops in flight, whose touches were recorded and are
  // tolerated: only new and moved ops are checked.
  llvm::SmallPtrSet<Operation *, 8> Only;
  if (!T.MemoryTouched)
    newOrMoved(T, Only);
  Verdict Result;
  auto Before = [&](Operation *Op) { return baseStateBefore(Op); };
  Replayer R{*W, T.MemoryTouched ? nullptr : &Only, Before};
  for (Block *B : Blocks) {
    R.replay(B, [&](Operation *Op, const PendingState &S) {
      if (!Result)
        return;
      const InstInfo &I = Cache->get(Op);
      bool IsNew = T.isNew(Op);
      SmallVector<const PendingOp *, 4> Ps;
      WaitcntAnalysis::touching(S, I, RU, Ps, Cache->touchesAllRegisters(Op));
      for (const PendingOp *P : Ps) {
        if (!IsNew) {
          // The original did the same: touched the result while the op was
          // still counted on these counters (not on more: a wait it had,
          // e.g. vmcnt(0) after lgkmcnt(0) for a FLAT load, must stay).
          uint8_t Base = baselineUnwaitedCounters(Op, P->Op);
          if (Base && !(P->Counters & ~Base))
            continue;
          // Where the edit keeps every path's waits and memory ops from P
          // to Op, each path retires P where the original did: Op touches
          // it on no more paths than the original, also where another
          // path's wait retired it.
          Base = baselineUnwaitedCounters(Op, P->Op, /*PathsKept=*/true);
          if (Base && !(P->Counters & ~Base) &&
              (!T.MemoryTouched ? !T.isMoved(Op) : pathsKept(T, Op, P->Op)))
            continue;
        }
        unsigned Need[NumCounters];
        maxCounts(Need);
        P->requiredCounts(Need);
        UnitList Touched(I.Uses.begin(), I.Uses.end());
        for (uint16_t D : I.Defs)
          RegUnitInfo::addUnit(Touched, D);
        UnitList Hit;
        if (P->Defs)
          RegUnitInfo::intersect(*P->Defs, Touched, Hit);
        for (auto It = Hit.begin(); It != Hit.end();)
          It = RU.isPseudo(*It) ? Hit.erase(It) : It + 1;
        // The original touched it unwaited on some path too, but waited
        // for it on another path into Op (retiredOnSomePath).
        const auto *Orig = IsNew ? nullptr : baselineUnwaitedAt(Op);
        bool WaitedOnSomePath = Orig && llvm::is_contained(*Orig, P->Op);
        Result = Verdict::fail(
            Verdict::Kind::Wait,
            Cache->describe(Op) + " touches " +
                (Hit.empty() ? std::string("registers") : RU.describe(Hit)) +
                " while " +
                (P->Op ? Cache->describe(P->Op)
                       : std::string("an unknown memory op (function entry)")) +
                " may still be in flight: no s_waitcnt covers it (needs " +
                countsText(Need) + " before it" +
                (WaitedOnSomePath ? "; the original retires it on some path "
                                    "into it, so every path must"
                                  : "") +
                ")");
        return;
      }
      if (I.Sync && !IsNew) {
        auto BIt = BaseSyncPending.find(Op);
        for (const PendingOp &P : S.Ops) {
          if (P.Op && T.isNew(P.Op))
            continue;
          // Ops that came after the sync op in the original were never
          // completed there; moving them up is the dependences' business.
          if (P.Op && P.Op->getBlock() == B && baseAfter(B, Op, P.Op))
            continue;
          if (BIt != BaseSyncPending.end() &&
              llvm::is_contained(BIt->second, P.Op))
            continue;
          unsigned Need[NumCounters];
          maxCounts(Need);
          P.requiredCounts(Need);
          Result = Verdict::fail(
              Verdict::Kind::Sync,
              (P.Op ? Cache->describe(P.Op) : std::string("an unknown op")) +
                  " may still be in flight at " + Cache->describe(Op) + " (" +
                  (I.SideEffectWhy.empty()
                       ? std::string(I.IsAtomic ? "atomic" : "memory write")
                       : I.SideEffectWhy.str()) +
                  "), which the original had completed (needs " +
                  countsText(Need) + ")");
          return;
        }
      }
    });
    if (!Result)
      return Result;
  }
  return Verdict::ok();
}

void Legality::affectedConsumers(const Transaction &T,
                                 SmallVectorImpl<Operation *> &Out) {
  // A consumer's hazard pairs depend only on the ops its backward walk
  // visits (HazardChecker::pairsFor stops MaxHazardWaitStates back, and
  // softClause looks no further). In a touched block that walk meets the
  // edit only from a seed on: a new or moved op, or the op that followed
  // an erased or moved one (an op whose predecessor changed is one of
  // these or follows a new or moved op). The other ops of the block keep
  // their baseline pairs (BaseHazards), which are tolerated: leaving them
  // out changes no verdict, and the rest keeps the order of the list of
  // every op of the touched blocks (block order, then the successors).
  llvm::SmallPtrSet<Block *, 4> TouchedSet(T.Touched.begin(), T.Touched.end());
  llvm::DenseSet<Operation *> Window;
  SmallVector<Operation *, 32> Beyond;
  llvm::DenseSet<Operation *> Seen;
  // An internal call runs its subroutines (never edited) before the op
  // after it: their ops within Left wait states of their entries walk
  // back across the call into the edit (HazardChecker follows calls).
  const InternalCallModel *Calls = nullptr;
  if (Fn->hasAttr("internal_calls") && internalCalls().modelled())
    Calls = &internalCalls();
  auto intoSubroutines = [&](Operation *Call, int Left) {
    if (!Calls || Left <= 0)
      return;
    std::deque<std::pair<Block *, int>> Sub;
    llvm::DenseMap<Block *, int> SubBudget;
    for (Block *E : Calls->targetsOf(Call))
      Sub.push_back({E, Left});
    while (!Sub.empty()) {
      auto [B, L] = Sub.front();
      Sub.pop_front();
      auto BIt = SubBudget.find(B);
      if (BIt != SubBudget.end() && BIt->second >= L)
        continue;
      SubBudget[B] = L;
      int Dist = 0;
      bool Exhausted = false;
      for (Operation &Op : *B) {
        if (Seen.insert(&Op).second)
          Beyond.push_back(&Op);
        Dist += int(Cache->get(&Op).WaitStates);
        if (Dist >= L) {
          Exhausted = true;
          break;
        }
      }
      if (!Exhausted)
        for (Block *S : B->getSuccessors())
          Sub.push_back({S, L - Dist});
    }
  };
  auto seed = [&](Operation *S) {
    if (!S || !S->getBlock() || !TouchedSet.contains(S->getBlock()))
      return;
    Window.insert(S);
    int Dist = 0;
    for (Operation *Op = S; Op; Op = Op->getNextNode()) {
      Window.insert(Op);
      const InstInfo &I = Cache->get(Op);
      if (I.IsCall)
        intoSubroutines(Op, MaxHazardWaitStates - Dist - int(I.WaitStates));
      if (Op == S)
        continue; // (the distance counts from the op after the edit on)
      Dist += int(I.WaitStates);
      if (Dist >= MaxHazardWaitStates)
        break;
    }
  };
  for (const Transaction::Entry &E : T.Log) {
    if (E.K != Transaction::Entry::Erase)
      seed(E.Op);
    if (E.K != Transaction::Entry::Insert)
      seed(E.OldNext);
  }
  // The successors, as far as a walk from their ops can reach back into a
  // touched block (from its end, at most). A touched block met again (a
  // loop) adds its first ops to the window.
  std::deque<std::pair<Block *, int>> Work;
  llvm::DenseMap<Block *, int> Budget;
  for (Block *B : T.Touched)
    for (Block *S : B->getSuccessors())
      Work.push_back({S, MaxHazardWaitStates});
  while (!Work.empty()) {
    auto [B, Left] = Work.front();
    Work.pop_front();
    auto BIt = Budget.find(B);
    if (BIt != Budget.end() && BIt->second >= Left)
      continue;
    Budget[B] = Left;
    bool InTouched = TouchedSet.contains(B);
    int Dist = 0;
    bool Exhausted = false;
    for (Operation &Op : *B) {
      if (InTouched)
        Window.insert(&Op);
      else if (Seen.insert(&Op).second)
        Beyond.push_back(&Op);
      const InstInfo &I = Cache->get(&Op);
      if (I.IsCall)
        intoSubroutines(&Op, Left - Dist - int(I.WaitStates));
      Dist += int(I.WaitStates);
      if (Dist >= Left) {
        Exhausted = true;
        break;
      }
    }
    if (!Exhausted)
      for (Block *S : B->getSuccessors())
        Work.push_back({S, Left - Dist});
  }
  llvm::DenseMap<Block *, SmallVector<Operation *, 32>> ByBlock;
  for (Operation *Op : Window)
    ByBlock[Op->getBlock()].push_back(Op);
  for (Block *B : T.Touched) {
    auto It = ByBlock.find(B);
    if (It == ByBlock.end())
      continue;
    llvm::sort(It->second, [](Operation *X, Operation *Y) {
      return X->isBeforeInBlock(Y);
    });
    Out.append(It->second.begin(), It->second.end());
  }
  Out.append(Beyond.begin(), Beyond.end());
}

Verdict Legality::checkHazards(Transaction &T) {
  SmallVector<Operation *, 64> Consumers;
  affectedConsumers(T, Consumers);
  HazardChecker HC(*Cache, /*MemoizePairs=*/true); // the ops do not change
  for (Operation *C : Consumers) {
    SmallVector<HazardPair, 2> Pairs;
    HC.pairsFor(C, Pairs);
    for (const HazardPair &P : Pairs) {
      bool Tolerated = false;
      auto It = BaseHazards.find(C);
      if (It != BaseHazards.end() && !T.isNew(C))
        for (const HazardPair &B : It->second)
          if (B.Rule == P.Rule && B.Producer == P.Producer &&
              P.Have >= B.Have)
            Tolerated = true;
      if (!Tolerated)
        return Verdict::fail(Verdict::Kind::Hazard, P.message(*Cache));
    }
  }
  return Verdict::ok();
}

void Legality::updateBaseline(const Transaction &T) {
  // Each unit's first touch of a touched block, past what T changed (T's
  // new and moved ops are baseline ops from now on).
  bool Indexing = editsIndexing(T);
  llvm::SmallPtrSet<Operation *, 8> Moved;
  movedOps(T, Moved);
  for (Block *B : T.Touched) {
    auto It = BaseFirstTouch.find(B);
    if (It == BaseFirstTouch.end())
      continue;
    if (Indexing) {
      BaseFirstTouch.erase(It);
      continue;
    }
    SmallVector<std::pair<uint16_t, std::optional<Operation *>>, 8> Next;
    for (auto &KV : It->second)
      Next.push_back({KV.first, walkStart(T, B, KV.first, Moved)});
    // Advanced to the first touch, so that the next commit's walks start
    // there (not where this one's started).
    auto &M = BaseFirstTouch[B];
    for (auto &[U, S] : Next) {
      if (!S) {
        M.erase(U);
        continue;
      }
      Operation *X = *S;
      while (X && !touchesUnit(X, U))
        X = X->getNextNode();
      M[U] = X;
    }
  }
  // Forget erased ops.
  for (const Transaction::Entry &E : T.Log)
    if (E.K == Transaction::Entry::Erase && !E.Op->getBlock()) {
      forgetUnwaited(E.Op);
      BaseSyncPending.erase(E.Op);
      BaseHazards.erase(E.Op);
    }
  SmallVector<Block *> Touched(T.Touched.begin(), T.Touched.end());
  for (Block *B : Touched)
    if (BaseFirstExecDef.count(B))
      BaseFirstExecDef[B] = firstExecDef(T, B);
  if (Indexing)
    MayIndex = true;
  llvm::SmallPtrSet<Operation *, 8> Changed;
  newOrMoved(T, Changed);
  int64_t FnStart = -1;
  if (auto A = Fn->getAttrOfType<IntegerAttr>("addr"))
    FnStart = A.getInt();
  for (Block *B : Touched) {
    LiveSummaries.invalidate(B);
    auto &L = BaseOrder[B];
    Operation *OldFirst = L.empty() ? nullptr : L.front();
    updateOrder(T, B, L);
    // The transaction passed checkStructure: no raw word, no op after the
    // terminator, and no op of the old order but its first named by
    // another function. Of the new order, only the new and moved ops and
    // the old first op are left to look up.
    BaseClean[B] = true;
    bool Unreferenced = Refs;
    auto named = [&](Operation *X) {
      if (!X || X->getBlock() != B || X == &B->front())
        return false;
      int64_t Id = getInstId(X);
      return Id >= 0 && Id != FnStart && Refs->otherThan(Id, Fn);
    };
    if (Unreferenced && named(OldFirst))
      Unreferenced = false;
    for (Operation *X : Changed)
      if (Unreferenced && named(X))
        Unreferenced = false;
    BaseUnreferenced[B] = Unreferenced;
  }
  if (T.MemoryTouched) {
    BaseWaitMarks.clear();
    BaseWaits = T.Fresh ? std::move(const_cast<Transaction &>(T).Fresh)
                        : std::make_unique<WaitcntAnalysis>(Fn, *Cache);
    BaseUnwaited.clear();
    BaseUnwaitedCounters.clear();
    BaseUnwaitedAsIs.clear();
    BaseSyncPending.clear();
    SmallVector<Block *> All;
    for (Block &B : Fn->getRegion(0))
      All.push_back(&B);
    recordWaits(*BaseWaits, All);
  } else {
    // The ops left in place see the same ops in flight: their records
    // stand.
    llvm::SmallPtrSet<Operation *, 8> Only;
    newOrMoved(T, Only);
    for (Operation *Op : Only) {
      forgetUnwaited(Op);
      BaseSyncPending.erase(Op);
    }
    recordWaits(*BaseWaits, Touched, &Only);
  }
  SmallVector<Operation *, 64> Consumers;
  affectedConsumers(T, Consumers);
  recordHazards(Consumers);
}

void Legality::updateOrder(const Transaction &T, Block *B,
                           SmallVectorImpl<Operation *> &L) {
  // The ops T left in place keep their order: take out the erased and
  // moved ones and put the new and moved ones after their predecessors, by
  // searches of the list (walking a long block's ops at every commit, a
  // pointer chase, was the peephole's main cost on long blocks).
  llvm::SmallPtrSet<Operation *, 8> Out;
  llvm::SetVector<Operation *, SmallVector<Operation *, 8>> In;
  for (const Transaction::Entry &E : T.Log) {
    if (E.K != Transaction::Entry::Insert && E.OldBlock == B)
      Out.insert(E.Op);
    if (E.K != Transaction::Entry::Erase && E.Op->getBlock() == B)
      In.insert(E.Op);
  }
  auto reread = [&] {
    L.clear();
    for (Operation &Op : *B)
      L.push_back(&Op);
  };
  if (Out.size() + In.size() > 8)
    return reread();
  for (Operation *X : Out)
    if (auto It = llvm::find(L, X); It != L.end())
      L.erase(It);
  SmallVector<Operation *, 8> Add(In.begin(), In.end());
  llvm::sort(Add,
             [](Operation *X, Operation *Y) { return X->isBeforeInBlock(Y); });
  for (Operation *X : Add) {
    Operation *Prev = X->getPrevNode();
    auto It = Prev ? llvm::find(L, Prev) : L.end();
    if (Prev && It == L.end()) // not expected: read the block
      return reread();
    L.insert(Prev ? std::next(It) : L.begin(), X);
  }
  assert(llvm::equal(L, llvm::make_pointer_range(*B)) &&
         "the baseline order is the block's");
}

Operation *Legality::firstExecDef(const Transaction &T, Block *B) {
  const RegUnitInfo &RU = Cache->units();
  auto defines = [&](Operation *Op) {
    return Liveness::definesExec(Cache->get(Op), RU);
  };
  auto It = BaseFirstExecDef.find(B);
  if (It == BaseFirstExecDef.end()) {
    Operation *First = nullptr;
    for (Operation *Op : BaseOrder[B])
      if (defines(Op)) {
        First = Op;
        break;
      }
    It = BaseFirstExecDef.try_emplace(B, First).first;
  }
  Operation *Base = It->second;
  llvm::SmallPtrSet<Operation *, 8> Changed;
  newOrMoved(T, Changed);
  // The ops left in place keep their order: the baseline's first EXEC
  // write stays the first of them unless the edit erased or moved it.
  if (Base && (Base->getBlock() != B || Changed.contains(Base))) {
    for (Operation &Op : *B)
      if (defines(&Op))
        return &Op;
    return nullptr;
  }
  Operation *First = Base;
  for (Operation *Op : Changed)
    if (Op->getBlock() == B && defines(Op) &&
        (!First || Op->isBeforeInBlock(First)))
      First = Op;
  return First;
}

bool Legality::baseClean(Block *B) {
  auto [It, Inserted] = BaseClean.try_emplace(B, false);
  if (Inserted) {
    auto &Order = BaseOrder[B];
    bool Clean = !Order.empty();
    for (size_t I = 0; I < Order.size() && Clean; ++I) {
      const InstInfo &Info = Cache->get(Order[I]);
      Clean = Info.Kind != OpKind::Raw &&
              (!Info.IsTerminator || I + 1 == Order.size());
    }
    BaseClean[B] = Clean;
    return Clean;
  }
  return It->second;
}

void Legality::movedOps(const Transaction &T,
                        SmallPtrSetImpl<Operation *> &Out) {
  for (const Transaction::Entry &E : T.Log)
    if (E.K == Transaction::Entry::Move)
      Out.insert(E.Op);
}

void Legality::newOrMoved(const Transaction &T,
                          SmallPtrSetImpl<Operation *> &Out) {
  for (const Transaction::Entry &E : T.Log)
    if (E.K != Transaction::Entry::Erase && E.Op->getBlock())
      Out.insert(E.Op);
}

//===----------------------------------------------------------------------===//
// Queries and single edits
//===----------------------------------------------------------------------===//

static Verdict prefixed(Verdict V, const std::string &What) {
  if (!V)
    V.Reason = What + ": " + V.Reason;
  return V;
}

Verdict Legality::canMoveBefore(Operation *X, Operation *Y) {
  std::string What = "moving " + Cache->describe(X) + " before " +
                     Cache->describe(Y);
  Transaction T(*this);
  T.moveBefore(X, Y);
  Verdict V = T.verify();
  T.rollback();
  return prefixed(V, What);
}

Verdict Legality::canMoveAfter(Operation *X, Operation *Y) {
  std::string What = "moving " + Cache->describe(X) + " after " +
                     Cache->describe(Y);
  Transaction T(*this);
  T.moveAfter(X, Y);
  Verdict V = T.verify();
  T.rollback();
  return prefixed(V, What);
}

Verdict Legality::canErase(Operation *X) {
  std::string What = "erasing " + Cache->describe(X);
  Transaction T(*this);
  T.erase(X);
  Verdict V = T.verify();
  T.rollback();
  return prefixed(V, What);
}

Verdict Legality::canInsertBefore(Operation *New, Operation *Y) {
  Transaction T(*this);
  T.insert(New, Y, /*Owned=*/false);
  std::string What = "inserting " + Cache->describe(New) + " before " +
                     Cache->describe(Y);
  Verdict V = T.verify();
  T.rollback();
  return prefixed(V, What);
}

Verdict Legality::canReplace(ArrayRef<Operation *> Old,
                             ArrayRef<Operation *> New) {
  std::string What = "replacing " + std::to_string(Old.size()) +
                     " op(s) from " +
                     (Old.empty() ? std::string("?")
                                  : Cache->describe(Old.front()));
  Transaction T(*this);
  T.replace(Old, New, /*Owned=*/false);
  Verdict V = T.verify();
  T.rollback();
  return prefixed(V, What);
}

Verdict Legality::moveBefore(Operation *X, Operation *Y) {
  std::string What = "moving " + Cache->describe(X) + " before " +
                     Cache->describe(Y);
  Transaction T(*this);
  T.moveBefore(X, Y);
  return prefixed(T.commit(), What);
}

Verdict Legality::moveAfter(Operation *X, Operation *Y) {
  std::string What = "moving " + Cache->describe(X) + " after " +
                     Cache->describe(Y);
  Transaction T(*this);
  T.moveAfter(X, Y);
  return prefixed(T.commit(), What);
}

Verdict Legality::erase(Operation *X) {
  std::string What = "erasing " + Cache->describe(X);
  Transaction T(*this);
  T.erase(X);
  return prefixed(T.commit(), What);
}

Verdict Legality::insertBefore(Operation *New, Operation *Y) {
  std::string What = "inserting " + Cache->describe(New) + " before " +
                     Cache->describe(Y);
  Cache->invalidate(New);
  Transaction T(*this);
  T.insertBefore(New, Y);
  return prefixed(T.commit(), What);
}

Verdict Legality::replace(ArrayRef<Operation *> Old,
                          ArrayRef<Operation *> New) {
  std::string What = "replacing " + std::to_string(Old.size()) +
                     " op(s) from " +
                     (Old.empty() ? std::string("?")
                                  : Cache->describe(Old.front()));
  Transaction T(*this);
  T.replace(Old, New);
  return prefixed(T.commit(), What);
}
