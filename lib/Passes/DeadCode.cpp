//===- DeadCode.cpp - Remove instructions whose results are never read ----===//
//
// Backward over each block with conservative liveness: an op without side
// effects, memory writes or control flow whose register results are all
// dead is erased, and its reads no longer keep anything live. One
// transaction per round; a refused round (e.g. an erased load that a wait
// count relied on) is retried op by op. Rounds repeat until nothing
// changes.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Liveness.h"
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

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-dce";
    SmallVector<Operation *> Fns;
    rewrite::editableFunctions(getOperation(), Fns);
    PcrelReferences Refs(getOperation()); // once for all functions
    for (Operation *Fn : Fns) {
      Legality L(Fn);
      L.setPcrelReferences(Refs);
      InstInfoCache &C = L.cache();
      const RegUnitInfo &RU = C.units();
      long Erased = 0;
      for (unsigned Round = 0; Round < 16; ++Round) {
        Liveness Live(Fn, C, Liveness::Mode::Conservative);
        SmallVector<Operation *> Dead;
        for (Block &B : Fn->getRegion(0)) {
          llvm::BitVector L2 = Live.liveOut(&B);
          if (L2.size() != RU.numUnits())
            continue;
          // Walk backwards; erased ops' reads do not make anything live.
          for (Operation &Op : llvm::reverse(B)) {
            const InstInfo &I = C.get(&Op);
            bool Unknown = C.unknownRegisters(&Op);
            bool IsDead = !Unknown && isCandidate(I, RU);
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
        if (Dead.empty())
          break;
        std::vector<std::string> Texts;
        if (verbose)
          for (Operation *Op : Dead)
            Texts.push_back(C.describe(Op));
        Legality::Transaction T(L);
        for (Operation *Op : Dead)
          T.erase(Op);
        T.insertNopsForHazards();
        Verdict V = T.commit();
        if (V) {
          Erased += long(Dead.size());
          for (const std::string &X : Texts)
            llvm::errs() << "amdgcn-dce: erased " << X << "\n";
          (void)0;
          continue;
        }
        if (verbose)
          llvm::errs() << "amdgcn-dce: round refused (" << V.Reason
                       << "); trying one by one\n";
        long Before = Erased;
        for (Operation *Op : Dead) {
          std::string X = verbose ? C.describe(Op) : std::string();
          Legality::Transaction T1(L);
          T1.erase(Op);
          T1.insertNopsForHazards();
          Verdict V1 = T1.commit();
          if (V1) {
            ++Erased;
            if (verbose)
              llvm::errs() << "amdgcn-dce: erased " << X << "\n";
          } else {
            ++S.Refused;
            if (verbose)
              llvm::errs() << "amdgcn-dce: kept " << X << ": " << V1.Reason
                           << "\n";
          }
        }
        if (Erased == Before)
          break;
      }
      if (Erased) {
        ++S.FunctionsChanged;
        S.add("instructions removed", Erased);
      }
    }
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
