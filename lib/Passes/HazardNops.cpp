//===- HazardNops.cpp - Insert the s_nops hazards need --------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_HAZARDNOPS
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
/// Does C read the registers of P only as the carry-in of a 64-bit add or
/// subtract (v_addc_co_u32, v_subb_co_u32, v_subbrev_co_u32)? The carry is
/// the implicit VCC of the e32 form and the last source of the e64 form.
bool readsOnlyAsCarry(InstInfoCache &Cache, const HazardPair &P) {
  const InstInfo &C = Cache.get(P.Consumer);
  StringRef M = C.Mnemonic;
  if (!M.starts_with("v_addc_co_u32") && !M.starts_with("v_subb_co_u32") &&
      !M.starts_with("v_subbrev_co_u32"))
    return false;
  bool E64 = M.ends_with("_e64");
  const RegUnitInfo &RU = Cache.units();
  int Carry = -1; // index into C.Regs
  for (int K = 0, E = int(C.Regs.size()); K < E; ++K) {
    const InstInfo::RegOperand &R = C.Regs[K];
    if (R.IsDef)
      continue;
    if (E64 && R.OperandIndex >= 0)
      Carry = K; // the last explicit source
    if (!E64 && R.OperandIndex < 0) {
      UnitList U;
      RU.addReg(U, R.Reg);
      if (RegUnitInfo::intersects(U, P.Units))
        Carry = K; // the implicit VCC (not EXEC)
    }
  }
  if (Carry < 0)
    return false;
  UnitList CarryUnits, Other;
  RU.addReg(CarryUnits, C.Regs[Carry].Reg);
  for (int K = 0, E = int(C.Regs.size()); K < E; ++K)
    if (K != Carry && !C.Regs[K].IsDef)
      RU.addReg(Other, C.Regs[K].Reg);
  for (uint16_t U : P.Units)
    if (!RegUnitInfo::contains(CarryUnits, U) ||
        RegUnitInfo::contains(Other, U))
      return false;
  return true;
}

struct HazardNopsPass : public asmevo::impl::HazardNopsBase<HazardNopsPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-hazard";
    auto Each = [&](Operation *Fn, InstInfoCache &Cache,
                    const PcrelReferences &Refs) {
      // Memoizing (what lies back from each internal call and subroutine
      // entry is walked once, not per consumer): it forgets after each edit.
      HazardChecker HC(Cache, /*MemoizePairs=*/true);
      SmallVector<Operation *> Ops;
      for (Block &Blk : Fn->getRegion(0))
        for (Operation &Op : Blk)
          Ops.push_back(&Op);
      // Wait states C still needs (its pairs not skipped); the carry reads
      // left alone are counted into Carry, and with Print the pairs are
      // printed.
      auto missingBefore = [&](Operation *C, unsigned &Carry, bool Print) {
        SmallVector<HazardPair, 2> Pairs;
        HC.pairsFor(C, Pairs);
        int Missing = 0;
        for (const HazardPair &P : Pairs) {
          if (llvm::is_contained(skip, std::string(P.Rule->Id)))
            continue;
          if (!fixCarryReads && StringRef(P.Rule->Id) == "valu-sgpr-valu" &&
              readsOnlyAsCarry(Cache, P)) {
            ++Carry;
            continue;
          }
          Missing = std::max(Missing, P.Required - P.Have);
          if (Print && verbose)
            llvm::errs() << "amdgcn-hazard: " << P.message(Cache) << "\n";
        }
        return Missing;
      };
      // The legality baseline (the whole function's waits and hazards)
      // costs more than a scan, and most functions need no s_nop: a first
      // scan of the input looks for a hazard before it is built. Without
      // one, that scan is the whole pass: it has no pair to print (a
      // printed pair is a missing wait state) and counts the carry reads.
      unsigned CarryKept = 0;
      bool Any = false;
      for (auto It = Ops.begin(); !Any && It != Ops.end(); ++It)
        Any = missingBefore(*It, CarryKept, /*Print=*/false) > 0;
      if (!Any) {
        if (CarryKept)
          S.add("carry reads left as in the input", CarryKept);
        return;
      }
      // The insertion scan reports what it finds after the s_nops put
      // before earlier ops.
      CarryKept = 0;
      Legality L(Fn, Cache, Refs);
      OpBuilder B(Fn->getContext());
      const InternalCallModel &M = L.internalCalls();
      auto pad = [&](Legality::Transaction &Tx, Operation *C, int Missing,
                     unsigned &WaitStates) {
        while (Missing > 0) {
          unsigned N = unsigned(std::min(Missing, 16));
          Tx.insertBefore(rewrite::makeNop(B, N), C);
          Missing -= int(N);
          WaitStates += N;
        }
        HC.forget();
      };
      unsigned Added = 0, Sites = 0;
      bool Changed = false, Refused = false;
      {
        Legality::Transaction T(L);
        for (Operation *C : Ops) {
          // The calls and the subroutines' ops get theirs below, in a
          // transaction of their own.
          if (M.isFixedOp(C))
            continue;
          int Missing = missingBefore(C, CarryKept, /*Print=*/true);
          if (Missing <= 0)
            continue;
          ++Sites;
          pad(T, C, Missing, Added);
        }
        if (!T.empty()) {
          Verdict V = T.commit();
          HC.forget(); // (a refusal took the s_nops out)
          Changed = V.Legal;
          Refused = !V.Legal;
          if (Refused)
            llvm::errs() << "amdgcn-hazard: " << rewrite::functionName(Fn)
                         << " left unchanged: " << V.Reason << "\n";
        }
      }
      // Pairs whose consumer is a call or a subroutine's op (internal
      // calls, InternalCallModel): the s_nops go right before the consumer,
      // in the subroutine, where they run on every call that reaches it
      // (sound for every call site, as s_nops only add wait states and
      // touch no register, memory op or wait). Not in dead code.
      unsigned SubSites = 0, SubAdded = 0, Dead = 0;
      bool SubRefused = false;
      if (!Refused) {
        Legality::Transaction T(L);
        T.allowSubroutineNops();
        for (Operation *C : Ops) {
          if (!M.isFixedOp(C))
            continue;
          bool InDeadCode = M.isFixedBlock(C->getBlock()) &&
                            !M.isSubroutineBlock(C->getBlock());
          unsigned Ignored = 0;
          int Missing = missingBefore(C, InDeadCode ? Ignored : CarryKept,
                                      /*Print=*/!InDeadCode);
          if (Missing <= 0)
            continue;
          if (InDeadCode) {
            ++Dead;
            continue;
          }
          ++SubSites;
          pad(T, C, Missing, SubAdded);
        }
        if (!T.empty()) {
          Verdict V = T.commit();
          HC.forget();
          Changed |= V.Legal;
          SubRefused = !V.Legal;
          if (SubRefused)
            llvm::errs() << "amdgcn-hazard: " << rewrite::functionName(Fn)
                         << ": the s_nops for its subroutines and calls were "
                            "refused: "
                         << V.Reason << "\n";
        }
      }
      if (CarryKept)
        S.add("carry reads left as in the input", CarryKept);
      if (Dead)
        S.add("left in dead code", Dead);
      if (SubRefused)
        S.add("left in subroutines and at internal calls", SubSites);
      if (Refused) {
        ++S.Refused;
        return;
      }
      if (!Changed)
        return;
      ++S.FunctionsChanged;
      if (Sites) {
        S.add("hazards fixed", Sites);
        S.add("wait states added", Added);
      }
      if (SubSites && !SubRefused) {
        S.add("hazards fixed in subroutines and at calls", SubSites);
        S.add("wait states added there", SubAdded);
      }
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
