//===- InternalCalls.cpp - Subroutines inside a function's own code -------===//

#include "asmevo/Analysis/InternalCalls.h"

#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Analysis/Liveness.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <deque>

using namespace llvm;
using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;
using llvm::SmallPtrSet;

static std::atomic<unsigned long> NumBuilds{0};

unsigned long InternalCallModel::builds() { return NumBuilds.load(); }

InternalCallModel::InternalCallModel(Operation *Fn, InstInfoCache &Cache)
    : Cache(Cache) {
  if (!Fn->hasAttr("internal_calls") || Fn->getRegion(0).empty())
    return;
  ++NumBuilds;
  check(Fn);
  if (!modelled())
    return;
  FixedOps.insert(Calls.begin(), Calls.end());
  setCallEffects();
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
  // (An address names the first original instruction: new ops a pass put
  // before it, s_nops amdgcn-hazard adds at a subroutine's entry, are where
  // emission lands the reference.)
  for (Block &B : R)
    if (!Reached.contains(&B)) {
      Fixed.insert(&B);
      for (Operation &Op : B) {
        int64_t Id = getInstId(&Op);
        if (Id < 0)
          continue;
        Entries.insert(Id);
        EntryBlock[Id] = &B;
        break;
      }
    }
  llvm::SetVector<Block *> Targets; // the subroutine entries called

  // The calls, and the address computations that may feed them.
  SmallPtrSet<Operation *, 16> InSequence;
  llvm::DenseMap<Operation *, Block *> SequenceTarget; // last op -> entry
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
          Block *E = EntryBlock.lookup(cast<InstOp>(Seq[1]).getPcrelTarget());
          SequenceTarget[Seq.back()] = E;
          Targets.insert(E);
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
  llvm::DenseSet<Block *> &Sub = SubBlocks;
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
  // subroutine writes it). Per distinct pair, a may-dataflow of which
  // computations' addresses the pair may hold (bit I: Targets[I]; bit
  // Other: anything else, e.g. the PC after s_getpc_b64 alone).
  const RegUnitInfo &RU = Cache.units();
  const uint64_t Other = uint64_t(1) << 63;
  if (Targets.size() >= 63)
    return fail(
        formatv("{0} subroutines (at most 62 are told apart)", Targets.size())
            .str());
  llvm::DenseMap<Block *, unsigned> TargetIdx;
  for (unsigned I = 0; I < Targets.size(); ++I)
    TargetIdx[Targets[I]] = I;
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
    llvm::DenseMap<Block *, uint64_t> In;
    std::deque<Block *> Queue;
    for (Block &B : R)
      if (!Fixed.contains(&B)) {
        In[&B] = &B == &R.front() ? Other : 0;
        Queue.push_back(&B);
      }
    llvm::DenseSet<Block *> Queued(Queue.begin(), Queue.end());
    auto step = [&](Operation &Op, uint64_t S) -> uint64_t {
      const InstInfo &I = Cache.get(&Op);
      if (!RegUnitInfo::intersects(I.Defs, U))
        return S;
      auto It = SequenceTarget.find(&Op);
      if (It == SequenceTarget.end())
        return Other;
      return uint64_t(1) << TargetIdx.lookup(It->second);
    };
    while (!Queue.empty()) {
      Block *B = Queue.front();
      Queue.pop_front();
      Queued.erase(B);
      uint64_t S = In[B];
      for (Operation &Op : *B)
        S = step(Op, S);
      for (Block *Succ : B->getSuccessors())
        if ((In[Succ] | S) != In[Succ]) {
          In[Succ] |= S;
          if (Queued.insert(Succ).second)
            Queue.push_back(Succ);
        }
    }
    for (Operation *C : Calls) {
      if (Cache.get(C).Regs[1].Reg != T)
        continue;
      uint64_t S = In[C->getBlock()];
      for (Operation &Op : *C->getBlock()) {
        if (&Op == C)
          break;
        S = step(Op, S);
      }
      if (!S || (S & Other))
        return fail("call " + Cache.describe(C) + ": on some path " + Name +
                    " does not hold a subroutine's address (nothing or "
                    "something else writes it after the address "
                    "computation)");
      auto &L = CallTargets[C];
      for (unsigned I = 0; I < Targets.size(); ++I)
        if (S & (uint64_t(1) << I)) {
          L.push_back(Targets[I]);
          Callers[Targets[I]].push_back(C);
        }
    }
  }

  // Each subroutine a call may reach returns right after it: through
  // s_setpc_b64 of the pair the call wrote, which it never writes.
  for (Block *E : Targets)
    computeSubroutine(E, Subs[E]);
  for (Operation *C : Calls) {
    MCRegister Ret = Cache.get(C).Regs[0].Reg;
    UnitList RetUnits;
    RU.addReg(RetUnits, Ret);
    std::string Name = Cache.target().regName(Ret);
    for (Block *E : CallTargets[C]) {
      const Subroutine &S = Subs[E];
      if (S.Returns.empty())
        return fail("the subroutine at " + Cache.describe(&E->front()) +
                    " called by " + Cache.describe(C) + " never returns");
      for (Operation *X : S.Returns) {
        const InstInfo &I = Cache.get(X);
        if (I.Mnemonic != "s_setpc_b64" || I.Regs.empty() ||
            I.Regs[0].Reg != Ret)
          return fail("subroutine op " + Cache.describe(X) +
                      " does not return to the call " + Cache.describe(C) +
                      " (only s_setpc_b64 " + Name + " is modelled)");
      }
      if (RegUnitInfo::intersects(S.MayDefs, RetUnits))
        return fail("the subroutine at " + Cache.describe(&E->front()) +
                    " writes " + Name + ", the return address of " +
                    Cache.describe(C));
    }
  }
}

void InternalCallModel::computeSubroutine(Block *Entry, Subroutine &Out) {
  const RegUnitInfo &RU = Cache.units();
  unsigned N = RU.numMCUnits();
  SmallVector<Block *> Blocks;
  llvm::DenseSet<Block *> Seen;
  SmallVector<Block *> Work{Entry};
  bool KeepsExec = true;
  while (!Work.empty()) {
    Block *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    Blocks.push_back(B);
    for (Operation &Op : *B)
      if (Liveness::definesExec(Cache.get(&Op), RU))
        KeepsExec = false;
    for (Block *S : B->getSuccessors())
      Work.push_back(S);
  }
  // What an op writes for sure: scalar registers, and vector registers of
  // whole writes while EXEC is the caller's (a vector write under another
  // EXEC, or a partial one, leaves lanes or bits of the old value).
  auto mustDefs = [&](const InstInfo &I, BitVector &V) {
    for (uint16_t U : I.Defs) {
      if (RU.isPseudo(U))
        continue;
      RegKind K = RU.kindOf(U);
      if ((K == RegKind::VGPR || K == RegKind::AGPR) &&
          (!KeepsExec || I.PartialVectorWrite))
        continue;
      V.set(U);
    }
  };
  // Forward must-write dataflow over the subroutine's blocks.
  llvm::DenseMap<Block *, BitVector> MustIn;
  for (Block *B : Blocks)
    MustIn[B] = B == Entry ? BitVector(N) : BitVector(N, true);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Block *B : Blocks) {
      BitVector V = MustIn[B];
      for (Operation &Op : *B)
        mustDefs(Cache.get(&Op), V);
      for (Block *S : B->getSuccessors()) {
        BitVector New = MustIn[S];
        New &= V;
        if (S != Entry && New != MustIn[S]) {
          MustIn[S] = std::move(New);
          Changed = true;
        }
      }
    }
  }
  BitVector Exposed(N), May(N), AtReturns(N, true);
  for (Block *B : Blocks) {
    BitVector V = MustIn[B];
    for (Operation &Op : *B) {
      const InstInfo &I = Cache.get(&Op);
      for (uint16_t U : I.Uses)
        if (!RU.isPseudo(U) && !V.test(U))
          Exposed.set(U);
      if (I.Kind == OpKind::Indirect && Op.getNumSuccessors() == 0) {
        Out.Returns.push_back(&Op);
        AtReturns &= V;
      }
      for (uint16_t U : I.Defs)
        if (!RU.isPseudo(U))
          May.set(U);
      mustDefs(I, V);
    }
  }
  if (Out.Returns.empty())
    AtReturns.reset();
  for (unsigned U : Exposed.set_bits())
    Out.ExposedUses.push_back(uint16_t(U));
  for (unsigned U : May.set_bits())
    Out.MayDefs.push_back(uint16_t(U));
  for (unsigned U : AtReturns.set_bits())
    if (May.test(U))
      Out.MustDefs.push_back(uint16_t(U));
}

void InternalCallModel::setCallEffects() {
  const RegUnitInfo &RU = Cache.units();
  unsigned N = RU.numMCUnits();
  for (Operation *C : Calls) {
    ArrayRef<Block *> Ts = targetsOf(C);
    // Reads: what a subroutine reads before writing it, and what it may
    // leave unchanged (the old value flows through the call); writes:
    // what any may write. Not the return pair: the call writes it first.
    BitVector Uses(N), May(N), Must(N, true);
    for (Block *E : Ts) {
      const Subroutine &S = Subs[E];
      for (uint16_t U : S.ExposedUses)
        Uses.set(U);
      for (uint16_t U : S.MayDefs)
        May.set(U);
      BitVector M(N);
      for (uint16_t U : S.MustDefs)
        M.set(U);
      Must &= M;
    }
    BitVector Kept = May;
    Kept.reset(Must);
    Uses |= Kept;
    UnitList Ret;
    RU.addReg(Ret, Cache.get(C).Regs[0].Reg);
    for (uint16_t U : Ret)
      Uses.reset(U);
    UnitList UL, DL;
    for (unsigned U : Uses.set_bits())
      UL.push_back(uint16_t(U));
    for (unsigned U : May.set_bits())
      DL.push_back(uint16_t(U));
    Cache.setInternalCallEffects(C, std::move(UL), std::move(DL));
  }
}
