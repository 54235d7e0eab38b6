//===- DeadCode.cpp - Remove instructions whose results are never read ----===//
//
// Backward over each block with conservative liveness: an op without side
// effects, memory writes or control flow whose register results are all
// dead is erased, and its reads no longer keep anything live. One
// transaction per round; a refused round (e.g. an erased load that a wait
// count relied on) sets aside the candidates whose erasure would shift a
// later s_waitcnt (the first 32 are tried alone, the others kept) and
// erases the rest by bisection. Rounds repeat until nothing changes.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Liveness.h"
#include "asmevo/Analysis/Waitcnt.h"
#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_DEADCODE
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct DeadCodePass : public asmevo::impl::DeadCodeBase<DeadCodePass> {
  using Base::Base;

  bool isCandidate(const InstInfo &I, const RegUnitInfo &RU) const {
    if (I.Kind != OpKind::Inst || I.SideEffect || I.MemWrite || I.IsCall ||
        I.IsTerminator || I.IsBranch)
      return false;
    if (I.MemRead && !loads)
      return false;
    if (I.Mnemonic.starts_with("s_nop") || I.Mnemonic.starts_with("s_waitcnt"))
      return false;
    // Something to be dead: at least one register result.
    for (uint16_t U : I.Defs)
      if (!RU.isPseudo(U))
        return true;
    return false;
  }

  /// The ops of Fn whose register results are never read (conservative
  /// liveness, backward per block); ops in Keep stay, and their reads keep
  /// what they read live.
  void collectDead(Operation *Fn, InstInfoCache &C,
                   const llvm::DenseSet<Operation *> &Keep,
                   SmallVectorImpl<Operation *> &Dead) const {
    const RegUnitInfo &RU = C.units();
    Liveness Live(Fn, C, Liveness::Mode::Conservative);
    for (Block &B : Fn->getRegion(0)) {
      llvm::BitVector L2 = Live.liveOut(&B);
      if (L2.size() != RU.numUnits())
        continue;
      // Walk backwards; erased ops' reads do not make anything live.
      for (Operation &Op : llvm::reverse(B)) {
        const InstInfo &I = C.get(&Op);
        bool Unknown = C.unknownRegisters(&Op);
        bool IsDead = !Unknown && isCandidate(I, RU) && !Keep.count(&Op);
        if (IsDead)
          for (uint16_t U : I.Defs)
            if (!RU.isPseudo(U) && L2.test(U))
              IsDead = false;
        if (IsDead) {
          Dead.push_back(&Op);
          continue;
        }
        // The op stays: kill what it writes, add what it reads.
        bool VectorKills = Live.kills(&Op);
        if (Unknown) {
          L2.set(0, RU.numMCUnits());
          continue;
        }
        for (uint16_t U : I.Defs) {
          if (RU.isPseudo(U))
            continue;
          RegKind K = RU.kindOf(U);
          bool Vector = K == RegKind::VGPR || K == RegKind::AGPR;
          if (!Vector || VectorKills)
            L2.reset(U);
        }
        for (uint16_t U : I.Uses)
          if (!RU.isPseudo(U))
            L2.set(U);
      }
    }
  }

  /// The candidates whose erasure would change what a later s_waitcnt
  /// waits for: at a wait with count N on an in-order counter, an op issued
  /// before the candidate with exactly N younger ops would no longer be
  /// covered (one younger op fewer). Legality refuses most of these (the
  /// covered op's result is read after the wait); finding them by trial
  /// costs a whole-function check each.
  static void shiftsWaits(Operation *Fn, InstInfoCache &C,
                          const llvm::DenseSet<Operation *> &Cand,
                          llvm::DenseSet<Operation *> &Out) {
    WaitcntAnalysis W(Fn, C);
    unsigned NoWait[NumCounters];
    maxCounts(NoWait);
    for (Block &B : Fn->getRegion(0))
      W.replay(&B, [&](Operation *Op, const PendingState &S) {
        const InstInfo &I = C.get(Op);
        if (I.Kind != OpKind::Waitcnt)
          return;
        for (const PendingOp &L : S.Ops) {
          if (!L.Op || !Cand.count(L.Op) || Out.count(L.Op))
            continue;
          for (unsigned K = 0; K < NumCounters; ++K) {
            uint8_t Bit = 1u << K;
            if (!(L.Counters & L.InOrder & Bit) || I.Wait[K] >= NoWait[K])
              continue;
            for (const PendingOp &P : S.Ops)
              if (&P != &L && (P.Counters & P.InOrder & Bit) &&
                  P.Younger[K] > L.Younger[K] && P.Younger[K] == I.Wait[K]) {
                Out.insert(L.Op);
                break;
              }
          }
        }
      });
  }

  /// Erases Ops in one transaction (with the s_nops hazards need); the
  /// verdict says why not. A refused transaction leaves the IR as it was.
  Verdict eraseAll(Legality &L, ArrayRef<Operation *> Ops) {
    std::vector<std::string> Texts;
    if (verbose)
      for (Operation *Op : Ops)
        Texts.push_back(L.cache().describe(Op));
    Legality::Transaction T(L);
    for (Operation *Op : Ops)
      T.erase(Op);
    T.insertNopsForHazards();
    Verdict V = T.commit();
    if (V)
      for (const std::string &X : Texts)
        llvm::errs() << "amdgcn-dce: erased " << X << "\n";
    return V;
  }

  /// Erases Ops in one transaction; a refused group is halved and each half
  /// tried, down to single ops; a refused single op joins Keep. Returns
  /// how many were erased.
  long eraseBisecting(Legality &L, ArrayRef<Operation *> Ops,
                      llvm::DenseSet<Operation *> &Keep, rewrite::Summary &S) {
    if (Ops.empty())
      return 0;
    Verdict V = eraseAll(L, Ops);
    if (V)
      return long(Ops.size());
    if (Ops.size() == 1) {
      Keep.insert(Ops[0]);
      ++S.Refused;
      if (verbose)
        llvm::errs() << "amdgcn-dce: kept " << L.cache().describe(Ops[0])
                     << ": " << V.Reason << "\n";
      return 0;
    }
    size_t Half = Ops.size() / 2;
    return eraseBisecting(L, Ops.take_front(Half), Keep, S) +
           eraseBisecting(L, Ops.drop_front(Half), Keep, S);
  }

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-dce";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      rewrite::LegalityOnDemand LegalityOfFn(Fn, C, Refs);
      long Erased = 0;
      // Candidates refused or set aside: kept for the rest of the pass, not
      // retried each round (each retry is a whole-function check).
      llvm::DenseSet<Operation *> Keep;
      // Internal calls and their subroutines stay as they are
      // (InternalCallModel; legality would refuse the round).
      if (Fn->hasAttr("internal_calls")) {
        const InternalCallModel &M = C.internalCalls(Fn);
        Fn->walk([&](Operation *Op) {
          if (Op != Fn && M.isFixedOp(Op))
            Keep.insert(Op);
        });
      }
      for (unsigned Round = 0; Round < 16; ++Round) {
        SmallVector<Operation *> Dead;
        collectDead(Fn, C, Keep, Dead);
        if (Dead.empty())
          break;
        Legality &L = LegalityOfFn.get();
        Verdict V = eraseAll(L, Dead);
        if (V) {
          Erased += long(Dead.size());
          continue;
        }
        if (verbose)
          llvm::errs() << "amdgcn-dce: round refused (" << V.Reason << ")\n";
        // Trying each candidate alone re-checks the whole function every
        // time (quadratic on long blocks): set aside the ones that shift a
        // wait, try the few first ones of them alone (small kernels keep
        // their exact result), keep the others, and bisect the rest.
        llvm::DenseSet<Operation *> Cand(Dead.begin(), Dead.end()), Shift;
        shiftsWaits(Fn, C, Cand, Shift);
        long Before = Erased;
        unsigned Alone = 0;
        SmallVector<Operation *> TryAlone;
        for (Operation *Op : Dead)
          if (Shift.count(Op)) {
            if (Alone++ < MaxTriedAlone) {
              TryAlone.push_back(Op);
              continue;
            }
            Keep.insert(Op);
            ++S.Refused;
            if (verbose)
              llvm::errs() << "amdgcn-dce: kept " << C.describe(Op)
                           << ": erasing it would shift a later s_waitcnt "
                              "(not tried alone: more than "
                           << MaxTriedAlone << " such ops)\n";
          }
        for (Operation *Op : TryAlone)
          Erased += eraseBisecting(L, Op, Keep, S);
        // The rest, now that the kept ops' reads are live again.
        SmallVector<Operation *> Rest;
        collectDead(Fn, C, Keep, Rest);
        Erased += eraseBisecting(L, Rest, Keep, S);
        if (Erased == Before)
          break;
      }
      if (Erased) {
        ++S.FunctionsChanged;
        S.add("instructions removed", Erased);
      }
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }

  /// Wait-shifting candidates tried one at a time per round (each try
  /// re-checks the whole function).
  static constexpr unsigned MaxTriedAlone = 32;
};
} // namespace
