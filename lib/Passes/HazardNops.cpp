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
    SmallVector<Operation *> Fns;
    rewrite::candidateFunctions(getOperation(), Fns);
    PcrelReferences Refs(getOperation()); // once for all functions
    for (Operation *Fn : Fns) {
      TargetInfo *TI = rewrite::targetInfoOrError(Fn, "amdgcn-hazard");
      if (!TI)
        return signalPassFailure();
      InstInfoCache Cache(*TI);
      if (!rewrite::isEditable(Fn, Cache))
        continue;
      HazardChecker HC(Cache);
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
        continue;
      }
      // The insertion scan reports what it finds after the s_nops put
      // before earlier ops.
      CarryKept = 0;
      Legality L(Fn, Cache);
      L.setPcrelReferences(Refs);
      Legality::Transaction T(L);
      OpBuilder B(Fn->getContext());
      unsigned Added = 0, Sites = 0;
      unsigned NearCalls = 0;
      for (Operation *C : Ops) {
        // Internal calls and their subroutines stay as they are
        // (InternalCallModel): their input hazards are left there.
        if (L.internalCalls().isFixedOp(C)) {
          unsigned Ignored = 0;
          NearCalls += missingBefore(C, Ignored, /*Print=*/false) > 0;
          continue;
        }
        int Missing = missingBefore(C, CarryKept, /*Print=*/true);
        if (Missing <= 0)
          continue;
        ++Sites;
        while (Missing > 0) {
          unsigned N = unsigned(std::min(Missing, 16));
          T.insertBefore(rewrite::makeNop(B, N), C);
          Missing -= int(N);
          Added += N;
        }
      }
      if (CarryKept)
        S.add("carry reads left as in the input", CarryKept);
      if (NearCalls)
        S.add("left in subroutines and at internal calls", NearCalls);
      if (T.empty())
        continue;
      Verdict V = T.commit();
      if (!V) {
        ++S.Refused;
        llvm::errs() << "amdgcn-hazard: " << rewrite::functionName(Fn)
                     << " left unchanged: " << V.Reason << "\n";
        continue;
      }
      ++S.FunctionsChanged;
      S.add("hazards fixed", Sites);
      S.add("wait states added", Added);
    }
    if (summary)
      S.print(llvm::errs());
  }
};
} // namespace
