//===- InternalCalls.cpp - Subroutines inside a function's own code -------===//

#include "asmevo/Analysis/InternalCalls.h"

#include "asmevo/Analysis/Hazards.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>

using namespace llvm;
using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;
using llvm::SmallPtrSet;

InternalCallModel::InternalCallModel(Operation *Fn, InstInfoCache &Cache)
    : Cache(Cache) {
  if (!Fn->hasAttr("internal_calls") || Fn->getRegion(0).empty())
    return;
  check(Fn);
  if (modelled())
    buildWindows(Fn);
}

/// The ops of a PC-relative address computation that starts at G
/// (s_getpc_b64) and names a subroutine entry: Tensile's
/// SGetPositivePCOffset (s_getpc_b64; s_add_i32 sT, LIT, 4 marked
/// pcrel(add); s_add_u32; s_addc_u32) or LLVM's pair (s_getpc_b64;
/// s_add_u32 lo; s_addc_u32 hi). Recovery models only these exact forms
/// (anything else is not_relocatable), so the pair G writes holds the
/// address once the last op ran. Empty when G starts no such sequence.
static void addressSequence(InstInfoCache &C, Operation *G,
                            const llvm::DenseSet<int64_t> &Entries,
                            SmallVectorImpl<Operation *> &Out) {
  Out.clear();
  int64_t GId = getInstId(G);
  auto P = dyn_cast_or_null<InstOp>(G->getNextNode());
  if (GId < 0 || !P || P.getPcrelAnchor() != GId ||
      !Entries.contains(P.getPcrelTarget()))
    return;
  SmallVector<StringRef, 3> Want;
  if (P.getPcrelPart() == InstOp::PcRelAdd)
    Want = {"s_add_i32", "s_add_u32", "s_addc_u32"};
  else if (P.getPcrelPart() == InstOp::PcRelLo)
    Want = {"s_add_u32", "s_addc_u32"};
  else
    return;
  SmallVector<Operation *, 4> Seq{G};
  Operation *X = P;
  for (StringRef M : Want) {
    if (!X || C.get(X).Mnemonic != M)
      return;
    Seq.push_back(X);
    X = X->getNextNode();
  }
  Out.assign(Seq.begin(), Seq.end());
}

void InternalCallModel::check(Operation *Fn) {
  Region &R = Fn->getRegion(0);
  // Code the entry reaches; the rest are the subroutines (and dead code).
  llvm::DenseSet<Block *> Reached;
  SmallVector<Block *> Work{&R.front()};
  while (!Work.empty()) {
    Block *B = Work.pop_back_val();
    if (!Reached.insert(B).second)
      continue;
    for (Block *S : B->getSuccessors())
      Work.push_back(S);
  }
  // First ops of the blocks the entry does not reach: what an address
  // computation may name.
  llvm::DenseSet<int64_t> Entries;
  llvm::DenseMap<int64_t, Block *> EntryBlock;
  for (Block &B : R)
    if (!Reached.contains(&B)) {
      Fixed.insert(&B);
      if (!B.empty() && getInstId(&B.front()) >= 0) {
        Entries.insert(getInstId(&B.front()));
        EntryBlock[getInstId(&B.front())] = &B;
      }
    }
  llvm::SetVector<Block *> Targets; // the subroutine entries called

  // The calls, and the address computations that may feed them.
  SmallPtrSet<Operation *, 16> InSequence;
  SmallPtrSet<Operation *, 16> SequenceEnd;
  SmallVector<Operation *, 4> Seq;
  for (Block &B : R) {
    if (Fixed.contains(&B))
      continue;
    for (Operation &Op : B) {
      const InstInfo &I = Cache.get(&Op);
      if (I.Mnemonic == "s_getpc_b64" && I.Kind == OpKind::Inst) {
        addressSequence(Cache, &Op, Entries, Seq);
        for (Operation *X : Seq)
          InSequence.insert(X);
        if (!Seq.empty()) {
          SequenceEnd.insert(Seq.back());
          Targets.insert(
              EntryBlock.lookup(cast<InstOp>(Seq[1]).getPcrelTarget()));
        }
      }
      if (I.IsCall) {
        if (I.Mnemonic != "s_swappc_b64" || I.Regs.size() < 2 ||
            I.Regs[0].OperandIndex != 0 || I.Regs[1].OperandIndex != 1)
          return fail("call " + Cache.describe(&Op) +
                      " is not s_swappc_b64 of a register pair");
        Calls.push_back(&Op);
        continue;
      }
      if (I.Kind == OpKind::Indirect && Op.getNumSuccessors() == 0)
        return fail(Cache.describe(&Op) +
                    " leaves code the entry reaches by an indirect jump");
      if (I.Kind == OpKind::Raw || I.Kind == OpKind::Unknown ||
          (Cache.unknownRegisters(&Op) && !I.isVALU()))
        return fail(Cache.describe(&Op) +
                    " touches registers the analyses cannot name");
    }
  }
  if (Calls.empty())
    return fail("no s_swappc_b64 in code the entry reaches");

  // The subroutines (the code the computed addresses reach; other blocks
  // the entry does not reach are dead code, never run): plain ALU code, so
  // a call neither issues nor waits for memory ops (in flight before it,
  // they are in flight after it).
  llvm::DenseSet<Block *> Sub;
  SmallVector<Block *> SubWork(Targets.begin(), Targets.end());
  while (!SubWork.empty()) {
    Block *B = SubWork.pop_back_val();
    if (!Sub.insert(B).second)
      continue;
    for (Block *S : B->getSuccessors()) {
      if (!Fixed.contains(S))
        return fail("subroutine code branches into code the entry reaches "
                    "(to " +
                    (S->empty() ? std::string("an empty block")
                                : Cache.describe(&S->front())) +
                    ")");
      SubWork.push_back(S);
    }
    for (Operation &Op : *B) {
      const InstInfo &I = Cache.get(&Op);
      StringRef Why;
      switch (I.Kind) {
      case OpKind::Nop:
      case OpKind::Branch:
      case OpKind::CondBranch:
      case OpKind::Fallthrough:
        break;
      case OpKind::Indirect:
        if (Op.getNumSuccessors() != 0)
          Why = "an indirect jump";
        break;
      case OpKind::Inst:
        if (I.MemRead || I.MemWrite || I.Counters)
          Why = "a memory operation";
        else if (I.IsCall)
          Why = "a call";
        else if (I.SideEffect)
          Why = I.SideEffectWhy;
        else if (I.isMAI())
          Why = "a matrix instruction";
        else if (Cache.unknownRegisters(&Op))
          Why = "registers the analyses cannot name";
        break;
      case OpKind::Waitcnt:
        Why = "an s_waitcnt";
        break;
      default:
        Why = "not plain ALU code";
        break;
      }
      if (!Why.empty())
        return fail("subroutine op " + Cache.describe(&Op) + " is " +
                    Why.str() +
                    " (only subroutines of plain ALU code are modelled)");
    }
  }

  // Every call's target pair holds a subroutine's address on every path
  // from the entry: the last write of the pair before the call is the
  // last op of a complete address computation of a subroutine entry (no
  // subroutine writes it). Per distinct pair.
  const RegUnitInfo &RU = Cache.units();
  SmallVector<MCRegister, 2> Pairs;
  for (Operation *C : Calls) {
    MCRegister T = Cache.get(C).Regs[1].Reg;
    if (!is_contained(Pairs, T))
      Pairs.push_back(T);
  }
  for (MCRegister T : Pairs) {
    UnitList U;
    RU.addReg(U, T);
    std::string Name = Cache.target().regName(T);
    for (Block *B : Sub)
      for (Operation &Op : *B)
        if (RegUnitInfo::intersects(Cache.get(&Op).Defs, U))
          return fail("subroutine op " + Cache.describe(&Op) + " writes " +
                      Name + ", the target of a call");
    // Must-hold dataflow over the reached blocks: true once a sequence's
    // last op ran, false at any other write (its first ops: the pair holds
    // the PC then).
    llvm::DenseMap<Block *, bool> In;
    std::deque<Block *> Queue;
    for (Block &B : R)
      if (!Fixed.contains(&B)) {
        In[&B] = &B != &R.front();
        Queue.push_back(&B);
      }
    llvm::DenseSet<Block *> Queued(Queue.begin(), Queue.end());
    auto step = [&](Operation &Op, bool S) {
      const InstInfo &I = Cache.get(&Op);
      if (RegUnitInfo::intersects(I.Defs, U))
        return SequenceEnd.contains(&Op);
      return S;
    };
    while (!Queue.empty()) {
      Block *B = Queue.front();
      Queue.pop_front();
      Queued.erase(B);
      bool S = In[B];
      for (Operation &Op : *B)
        S = step(Op, S);
      for (Block *Succ : B->getSuccessors())
        if (In[Succ] && !S) {
          In[Succ] = false;
          if (Queued.insert(Succ).second)
            Queue.push_back(Succ);
        }
    }
    for (Operation *C : Calls) {
      if (Cache.get(C).Regs[1].Reg != T)
        continue;
      bool S = In[C->getBlock()];
      for (Operation &Op : *C->getBlock()) {
        if (&Op == C)
          break;
        S = step(Op, S);
      }
      if (!S)
        return fail("call " + Cache.describe(C) + ": on some path " + Name +
                    " does not hold a subroutine's address (nothing or "
                    "something else writes it after the address "
                    "computation)");
    }
  }
}

void InternalCallModel::buildWindows(Operation *Fn) {
  // A run of ops covers N wait states when they provide at least N: a
  // producer beyond it is then at least N wait states from the boundary,
  // which no hazard rule needs more than.
  const int N = MaxHazardWaitStates;
  llvm::DenseMap<Block *, std::pair<int, Operation *>> AtEnd, AtStart;
  std::deque<std::pair<Block *, bool>> Work; // (block, before its end)
  auto need = [&](Block *B, bool Before, int Left, Operation *Call) {
    if (Fixed.contains(B))
      return;
    auto &M = Before ? AtEnd : AtStart;
    auto [It, New] = M.try_emplace(B, Left, Call);
    if (!New && It->second.first >= Left)
      return;
    It->second = {Left, Call};
    Work.push_back({B, Before});
  };
  auto addRun = [&](Block *B, Operation *Anchor, bool Before, int Need,
                    Operation *Call) {
    Window W;
    W.B = B;
    W.Anchor = Anchor;
    W.Before = Before;
    W.WaitStates = Need;
    W.Call = Call;
    windowOf(W, W.Ops);
    int Have = 0;
    for (Operation *X : W.Ops)
      Have += int(Cache.get(X).WaitStates);
    if (Have < Need) {
      if (Before)
        for (Block *P : B->getPredecessors())
          need(P, true, Need - Have, Call);
      else
        for (Block *S : B->getSuccessors())
          need(S, false, Need - Have, Call);
    }
    Windows.push_back(std::move(W));
  };
  for (Operation *C : Calls) {
    addRun(C->getBlock(), C, /*Before=*/true, N, C);
    addRun(C->getBlock(), C, /*Before=*/false, N, C);
  }
  while (!Work.empty()) {
    auto [B, Before] = Work.front();
    Work.pop_front();
    auto [Need, Call] = (Before ? AtEnd : AtStart)[B];
    // Replace an earlier, shorter run of this boundary.
    llvm::erase_if(Windows, [&](const Window &W) {
      return W.B == B && !W.Anchor && W.Before == Before;
    });
    addRun(B, nullptr, Before, Need, Call);
  }
  FixedOps.insert(Calls.begin(), Calls.end());
  for (const Window &W : Windows)
    FixedOps.insert(W.Ops.begin(), W.Ops.end());
}

void InternalCallModel::windowOf(const Window &W,
                                 SmallVectorImpl<Operation *> &Out) const {
  Out.clear();
  int Have = 0;
  Operation *X;
  if (W.Anchor)
    X = W.Before ? W.Anchor->getPrevNode() : W.Anchor->getNextNode();
  else
    X = W.B->empty() ? nullptr : (W.Before ? &W.B->back() : &W.B->front());
  while (X && Have < W.WaitStates) {
    Out.push_back(X);
    Have += int(Cache.get(X).WaitStates);
    X = W.Before ? X->getPrevNode() : X->getNextNode();
  }
  if (W.Before)
    std::reverse(Out.begin(), Out.end());
}
