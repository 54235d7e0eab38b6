//===- Peephole.cpp - Exactly equivalent local rewrites -------------------===//
//
// Every rewrite here computes the same bits as the code it replaces for
// every input (integer and bitwise operations only: no floating-point
// contraction, no rounding change):
//
//   v_lshlrev_b32 t, k, a ; v_add_u32 d, t, b  ->  v_lshl_add_u32 d, a, k, b
//   v_add_u32 t, a, b     ; v_add_u32 d, t, c  ->  v_add3_u32 d, a, b, c
//   v_lshlrev_b32 t, k, a ; v_or_b32 d, t, b   ->  v_lshl_or_b32 d, a, k, b
//   v_and_b32 t, a, b     ; v_or_b32 d, t, c   ->  v_and_or_b32 d, a, b, c
//
// (the adds are the carry-less, wrapping gfx9 v_add_u32; the shift amount
// is masked to 5 bits by both forms), when t is not read afterwards and
// nothing between the two writes t, a, b, k or EXEC. Moves of a register
// to itself go away, and so does an instruction that repeats an earlier
// one with nothing it depends on changed in between.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

#include <optional>

namespace asmevo {
#define GEN_PASS_DEF_PEEPHOLE
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

/// "v_add_u32_e32 v1, v2, v3" -> mnemonic without encoding suffix and the
/// operand tokens; false when an operand carries modifiers (neg, abs,
/// clamp, op_sel, sdwa/dpp controls, ...).
bool splitOperands(TargetInfo &TI, const InstInfo &I, std::string &Base,
                   SmallVectorImpl<std::string> &Ops) {
  if (!I.D || I.isDPP() || I.isSDWA())
    return false;
  auto [M, Text] = TI.printSplit(I.D->Inst);
  llvm::StringRef Mn(M);
  if (Mn.ends_with("_e32") || Mn.ends_with("_e64"))
    Mn = Mn.drop_back(4);
  Base = Mn.str();
  SmallVector<llvm::StringRef, 4> Toks;
  llvm::StringRef(Text).split(Toks, ", ");
  for (llvm::StringRef T : Toks) {
    T = T.trim();
    if (T.empty() || T.contains(' ') || T.contains('|') ||
        T.starts_with("-") || T.contains("("))
      return false;
    Ops.push_back(T.str());
  }
  return true;
}

/// The mnemonic splitOperands would give, without printing the operands:
/// InstInfo::Mnemonic is the printed mnemonic (TargetInfo::decode).
llvm::StringRef baseMnemonic(const InstInfo &I) {
  llvm::StringRef Mn = I.Mnemonic;
  if (Mn.ends_with("_e32") || Mn.ends_with("_e64"))
    Mn = Mn.drop_back(4);
  return Mn;
}

bool isVGPRToken(llvm::StringRef T) {
  unsigned N;
  return T.consume_front("v") && !T.getAsInteger(10, N);
}

struct PeepholePass : public asmevo::impl::PeepholeBase<PeepholePass> {
  using Base::Base;

  struct Fusion {
    const char *First, *Second, *Result;
    /// Operand order of Result from the first op's sources (f0, f1), the
    /// second op's other source (o).
    enum Form { ShiftThen, BinThen } Form;
  };

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-peephole";
    auto Each = [&](Operation *Fn, InstInfoCache &C,
                    const PcrelReferences &Refs) {
      rewrite::LegalityOnDemand L(Fn, C, Refs);
      long Fused = 0, Deleted = 0;
      bool Changed = true;
      for (unsigned Round = 0; Changed && Round < 8; ++Round) {
        Changed = false;
        for (Block &B : Fn->getRegion(0)) {
          SmallVector<Operation *> Ops;
          for (Operation &Op : B)
            Ops.push_back(&Op);
          llvm::DenseSet<Operation *> Gone;
          for (size_t I = 0; I < Ops.size(); ++I) {
            if (Gone.contains(Ops[I]))
              continue;
            if (trySelfMove(L, Ops[I])) {
              Gone.insert(Ops[I]);
              ++Deleted;
              Changed = true;
              continue;
            }
            if (Operation *Q = tryFuse(L, Ops, I, Gone)) {
              (void)Q;
              ++Fused;
              Changed = true;
              continue;
            }
            if (tryDuplicate(L, Ops, I, Gone)) {
              ++Deleted;
              Changed = true;
            }
          }
        }
      }
      if (Fused || Deleted) {
        ++S.FunctionsChanged;
        S.add("fused", Fused);
        S.add("deleted", Deleted);
      }
      S.Refused += Refused;
      Refused = 0;
    };
    if (failed(rewrite::forEachEditableFunction(getOperation(), S.Pass, Each)))
      return signalPassFailure();
    if (summary)
      S.print(llvm::errs());
  }

  unsigned Refused = 0;

  void note(const std::string &What, const Verdict &V) {
    if (!V)
      ++Refused;
    if (verbose)
      llvm::errs() << "amdgcn-peephole: " << What
                   << (V ? std::string("") : ": refused: " + V.Reason) << "\n";
  }

  bool trySelfMove(rewrite::LegalityOnDemand &L, Operation *Op) {
    const InstInfo &I = L.cache().get(Op);
    if (I.Kind != OpKind::Inst)
      return false;
    // Printing the operands is the costly part: only for moves.
    llvm::StringRef Mn = baseMnemonic(I);
    if (Mn != "v_mov_b32" && Mn != "s_mov_b32" && Mn != "s_mov_b64" &&
        Mn != "v_mov_b64")
      return false;
    std::string Base;
    SmallVector<std::string, 4> Tok;
    if (!splitOperands(L.cache().target(), I, Base, Tok) || Tok.size() != 2)
      return false;
    if (Base != "v_mov_b32" && Base != "s_mov_b32" && Base != "s_mov_b64" &&
        Base != "v_mov_b64")
      return false;
    if (Tok[0] != Tok[1])
      return false;
    std::string What = "deleted " + L.cache().describe(Op);
    Legality::Transaction T(L.get());
    T.eraseRedundant(Op, Op);
    Verdict V = T.commit();
    note(What, V);
    return bool(V);
  }

  /// Units of registers written by ops strictly between A and B.
  bool writesBetween(InstInfoCache &C, Operation *A, Operation *B,
                     ArrayRef<uint16_t> Units, bool AlsoReads) {
    for (Operation *X = A->getNextNode(); X && X != B; X = X->getNextNode()) {
      const InstInfo &I = C.get(X);
      if (C.unknownRegisters(X) || I.IsCall)
        return true;
      if (RegUnitInfo::intersects(I.Defs, Units))
        return true;
      if (AlsoReads && RegUnitInfo::intersects(I.Uses, Units))
        return true;
    }
    return false;
  }

  UnitList unitsOfTokens(rewrite::LegalityOnDemand &L, const InstInfo &I,
                         bool Defs) {
    UnitList U;
    for (const InstInfo::RegOperand &R : I.Regs)
      if (R.IsDef == Defs && R.OperandIndex >= 0)
        L.cache().units().addReg(U, R.Reg);
    return U;
  }

  Operation *tryFuse(rewrite::LegalityOnDemand &L, ArrayRef<Operation *> Ops,
                     size_t I, llvm::DenseSet<Operation *> &Gone) {
    static const Fusion Table[] = {
        {"v_lshlrev_b32", "v_add_u32", "v_lshl_add_u32", Fusion::ShiftThen},
        {"v_add_u32", "v_add_u32", "v_add3_u32", Fusion::BinThen},
        {"v_lshlrev_b32", "v_or_b32", "v_lshl_or_b32", Fusion::ShiftThen},
        {"v_and_b32", "v_or_b32", "v_and_or_b32", Fusion::BinThen},
    };
    InstInfoCache &C = L.cache();
    TargetInfo &TI = C.target();
    Operation *P = Ops[I];
    const InstInfo &PI = C.get(P);
    if (PI.Kind != OpKind::Inst || !PI.isVALU())
      return nullptr;
    llvm::StringRef PMn = baseMnemonic(PI);
    if (llvm::none_of(Table, [&](const Fusion &F) { return PMn == F.First; }))
      return nullptr;
    std::string PBase;
    SmallVector<std::string, 4> PT;
    if (!splitOperands(TI, PI, PBase, PT) || PT.size() != 3 ||
        !isVGPRToken(PT[0]))
      return nullptr;
    const Fusion *Cands[4];
    unsigned NC = 0;
    for (const Fusion &F : Table)
      if (PBase == F.First)
        Cands[NC++] = &F;
    if (!NC)
      return nullptr;
    UnitList TUnits = unitsOfTokens(L, PI, /*Defs=*/true);
    UnitList SrcUnits = unitsOfTokens(L, PI, /*Defs=*/false);
    // EXEC must not change in between either.
    for (uint16_t U : PI.Uses)
      if (!C.units().isPseudo(U) &&
          C.units().specialName(U).starts_with("exec"))
        RegUnitInfo::addUnit(SrcUnits, U);
    for (size_t J = I + 1; J < Ops.size() && J <= I + 1 + window; ++J) {
      Operation *Q = Ops[J];
      if (Gone.contains(Q))
        continue;
      const InstInfo &QI = C.get(Q);
      if (QI.IsTerminator)
        break;
      std::string QBase;
      SmallVector<std::string, 4> QT;
      // Only a possible second op is printed.
      llvm::StringRef QMn = baseMnemonic(QI);
      bool Parsed =
          QI.Kind == OpKind::Inst &&
          llvm::any_of(ArrayRef<const Fusion *>(Cands, NC),
                       [&](const Fusion *F) { return QMn == F->Second; }) &&
          splitOperands(TI, QI, QBase, QT) && QT.size() == 3;
      const Fusion *F = nullptr;
      for (unsigned K = 0; K < NC && Parsed; ++K)
        if (QBase == Cands[K]->Second)
          F = Cands[K];
      bool ReadsT = RegUnitInfo::intersects(QI.Uses, TUnits);
      if (!F || !ReadsT) {
        // Something else in between: it must not read or write t, nor
        // write the sources.
        if (ReadsT || RegUnitInfo::intersects(QI.Defs, TUnits) ||
            RegUnitInfo::intersects(QI.Defs, SrcUnits) ||
            C.unknownRegisters(Q))
          return nullptr;
        continue;
      }
      // Q = op d, x, y with exactly one of x, y being t.
      int TIdx = QT[1] == PT[0] ? 1 : QT[2] == PT[0] ? 2 : -1;
      if (TIdx < 0 || QT[3 - TIdx] == PT[0])
        return nullptr;
      const std::string &Other = QT[3 - TIdx];
      std::string Text;
      if (F->Form == Fusion::ShiftThen) // lshlrev t, k, a
        Text = std::string(F->Result) + " " + QT[0] + ", " + PT[2] + ", " +
               PT[1] + ", " + Other;
      else // op t, a, b
        Text = std::string(F->Result) + " " + QT[0] + ", " + PT[1] + ", " +
               PT[2] + ", " + Other;
      std::string Err;
      OpBuilder B(P->getContext());
      Operation *New = rewrite::makeInst(B, TI, Text, Err, getInstId(Q));
      if (!New)
        return nullptr; // e.g. the constant bus does not allow it
      std::string What = "fused " + C.describe(P) + " and " + C.describe(Q) +
                         " into " + Text;
      Legality::Transaction T(L.get());
      T.erase(P);
      T.replace({Q}, {New});
      Verdict V = T.commit();
      note(What, V);
      if (!V)
        return nullptr;
      Gone.insert(P);
      Gone.insert(Q);
      return New;
    }
    return nullptr;
  }

  bool tryDuplicate(rewrite::LegalityOnDemand &L, ArrayRef<Operation *> Ops,
                    size_t I, llvm::DenseSet<Operation *> &Gone) {
    InstInfoCache &C = L.cache();
    Operation *P = Ops[I];
    const InstInfo &PI = C.get(P);
    if (PI.Kind != OpKind::Inst || PI.SideEffect || PI.isMemOp() ||
        PI.Counters || C.unknownRegisters(P) || PI.Defs.empty())
      return false;
    // Reading its own result (v_add v0, v0, v1) is not idempotent.
    if (RegUnitInfo::intersects(PI.Defs, PI.Uses))
      return false;
    ArrayRef<uint8_t> Bytes = getOriginalBytes(P);
    UnitList Watch(PI.Uses.begin(), PI.Uses.end());
    for (uint16_t U : PI.Defs)
      RegUnitInfo::addUnit(Watch, U);
    for (size_t J = I + 1; J < Ops.size() && J <= I + 8; ++J) {
      Operation *Q = Ops[J];
      if (Gone.contains(Q))
        continue;
      const InstInfo &QI = C.get(Q);
      if (QI.IsTerminator || C.unknownRegisters(Q))
        return false;
      if (QI.Kind == OpKind::Inst && getOriginalBytes(Q) == Bytes) {
        std::string What = "deleted " + C.describe(Q) + ", a repeat of " +
                           C.describe(P);
        Legality::Transaction T(L.get());
        T.eraseRedundant(Q, P);
        Verdict V = T.commit();
        note(What, V);
        if (V)
          Gone.insert(Q);
        return bool(V);
      }
      if (RegUnitInfo::intersects(QI.Defs, Watch))
        return false;
    }
    return false;
  }
};

} // namespace
