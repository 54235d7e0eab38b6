//===- Mutate.cpp - Semantic mutants and known-equivalent rewrites --------===//

#include "asmevo/Verify/Mutate.h"

#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Analysis/InstInfo.h"
#include "asmevo/Analysis/Liveness.h"
#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"
#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace llvm;
using namespace mlir;
using namespace asmevo::amdgcn;

namespace asmevo {
namespace verify {

const char *editKindName(EditKind K) {
  switch (K) {
  case EditKind::Immediate: return "immediate";
  case EditKind::SwapSources: return "swap-sources";
  case EditKind::Drop: return "drop";
  case EditKind::Sibling: return "sibling-opcode";
  case EditKind::Waitcnt: return "waitcnt";
  case EditKind::MemOffset: return "memory-offset";
  case EditKind::BranchFlip: return "branch-flip";
  case EditKind::ExecOp: return "exec-op";
  case EditKind::Identity: return "identity";
  case EditKind::Reorder: return "reorder";
  case EditKind::Rename: return "rename-vgpr";
  case EditKind::NopInsert: return "insert-nop";
  }
  return "?";
}

struct Mutator::Impl {
  MLIRContext *Ctx = nullptr;
  std::vector<uint8_t> Bytes;
  std::unique_ptr<CodeObject> CO;
  OwningOpRef<CodeObjectOp> Module;
  TargetInfo *TI = nullptr;
};

Mutator::Mutator() : P(std::make_unique<Impl>()) {}
Mutator::~Mutator() = default;

Expected<std::unique_ptr<Mutator>> Mutator::create(MLIRContext &Ctx,
                                                   ArrayRef<uint8_t> K0) {
  std::unique_ptr<Mutator> M(new Mutator());
  Impl &I = *M->P;
  I.Ctx = &Ctx;
  I.Bytes.assign(K0.begin(), K0.end());
  auto CO = CodeObject::parse(
      MemoryBuffer::getMemBuffer(
          StringRef(reinterpret_cast<const char *>(I.Bytes.data()), I.Bytes.size()),
          "K0", false),
      "K0");
  if (!CO)
    return CO.takeError();
  I.CO = std::move(*CO);
  auto Mod = recoverCodeObject(Ctx, *I.CO);
  if (!Mod)
    return Mod.takeError();
  I.Module = std::move(*Mod);
  auto TI = I.Module->getTargetInfo();
  if (!TI)
    return TI.takeError();
  I.TI = *TI;
  return M;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

Operation *findFunction(CodeObjectOp M, StringRef Name) {
  for (Operation &Fn : M.getBodyBlock())
    if (auto S = dyn_cast<SymbolOpInterface>(Fn); S && S.getName() == Name)
      return &Fn;
  return nullptr;
}

void collectOps(Operation *Fn, SmallVectorImpl<Operation *> &Ops) {
  for (Block &B : Fn->getRegion(0))
    for (Operation &O : B)
      Ops.push_back(&O);
}

std::set<int64_t> referencedIds(CodeObjectOp M) {
  std::set<int64_t> S;
  M.walk([&](InstOp I) {
    if (I.getPcrelPart() != InstOp::NoPcRel) {
      S.insert(I.getPcrelAnchor());
      S.insert(I.getPcrelTarget());
    }
  });
  return S;
}

/// An instruction op whose encoding an edit may replace.
bool editableInst(Operation *Op, const std::set<int64_t> &Refs) {
  auto I = dyn_cast<InstOp>(Op);
  return I && I.getPcrelPart() == InstOp::NoPcRel && !Refs.count(I.getId());
}

void setBytes(InstOp I, ArrayRef<uint8_t> B) {
  SmallVector<int32_t, 4> Enc;
  for (size_t K = 0; K + 3 < B.size(); K += 4)
    Enc.push_back(int32_t(uint32_t(B[K]) | uint32_t(B[K + 1]) << 8 |
                          uint32_t(B[K + 2]) << 16 | uint32_t(B[K + 3]) << 24));
  I.setEnc(Enc);
}

bool sameOperands(const MCInst &A, const MCInst &B) {
  if (A.getOpcode() != B.getOpcode() || A.getNumOperands() != B.getNumOperands())
    return false;
  for (unsigned K = 0; K < A.getNumOperands(); ++K) {
    const MCOperand &X = A.getOperand(K), &Y = B.getOperand(K);
    if (X.isReg() != Y.isReg() || X.isImm() != Y.isImm())
      return false;
    if (X.isReg() && X.getReg() != Y.getReg())
      return false;
    if (X.isImm() && X.getImm() != Y.getImm())
      return false;
  }
  return true;
}

/// Every operand of NewInst that differs from the original instruction's
/// (Orig, decoded from the old bytes; null: check all) must fit its
/// operand's register class (LLVM's tables, as AMDGPUInstPrinter checks
/// them), and no immediate may stand where only a register can. The
/// encoder does not check this and the decoder reads such bytes back as the
/// same MCInst: a swap of v_readlane_b32's VGPR and SGPR sources would give
/// an instruction that LLVM prints as invalid.
Error checkOperandClasses(TargetInfo &TI, const MCInst &NewInst,
                          const MCInst *Orig) {
  const MCInstrDesc &Desc = TI.desc(NewInst.getOpcode());
  const MCRegisterInfo &MRI = TI.regInfo();
  unsigned HwMode = TI.subtarget().getHwMode(MCSubtargetInfo::HwMode_RegInfo);
  bool SameOpcode = Orig && Orig->getOpcode() == NewInst.getOpcode() &&
                    Orig->getNumOperands() == NewInst.getNumOperands();
  for (unsigned K = 0;
       K < NewInst.getNumOperands() && K < Desc.getNumOperands(); ++K) {
    const MCOperandInfo &OpInfo = Desc.operands()[K];
    const MCOperand &O = NewInst.getOperand(K);
    if (OpInfo.RegClass == -1)
      continue;
    bool WasImm = false;
    if (SameOpcode) {
      const MCOperand &P = Orig->getOperand(K);
      if (O.isReg() && P.isReg() && O.getReg() == P.getReg())
        continue;
      WasImm = P.isImm();
    }
    if (O.isImm() && !WasImm && OpInfo.OperandType == MCOI::OPERAND_REGISTER)
      return createStringError(
          formatv("operand {0} takes only a register", K).str());
    if (!O.isReg() || !O.getReg())
      continue;
    int16_t RCID = TI.instrInfo().getOpRegClassID(OpInfo, HwMode);
    if (RCID < 0)
      continue;
    const MCRegisterClass &RC = MRI.getRegClass(RCID);
    if (!RC.contains(O.getReg()))
      return createStringError(formatv("operand {0}: {1} is not in {2}", K,
                                       TI.regName(O.getReg()),
                                       MRI.getRegClassName(&RC))
                                   .str());
  }
  return Error::success();
}

/// Encodes NewInst; the result must decode back to exactly NewInst and
/// differ from Old, and its operands must fit their register classes.
Expected<SmallVector<uint8_t, 16>> encodeChecked(TargetInfo &TI,
                                                 const MCInst &NewInst,
                                                 ArrayRef<uint8_t> Old) {
  const DecodedInst *OldD = TI.decode(Old);
  if (Error E = checkOperandClasses(TI, NewInst, OldD ? &OldD->Inst : nullptr))
    return std::move(E);
  SmallVector<uint8_t, 16> B;
  if (Error E = TI.encode(NewInst, B))
    return std::move(E);
  if (B.empty() || B.size() % 4)
    return createStringError("bad encoding size");
  const DecodedInst *D = TI.decode(B);
  if (!D || D->Size != B.size() || !sameOperands(D->Inst, NewInst))
    return createStringError("the edited instruction does not encode");
  if (ArrayRef<uint8_t>(B) == Old)
    return createStringError("the edit does not change the encoding");
  return B;
}

/// Assembles "Mn Ops" (for text edits); requires that the original text
/// round-trips, so the assembler reads the operands as the decoder did.
Expected<SmallVector<uint8_t, 16>> assembleEdit(TargetInfo &TI,
                                                const DecodedInst &D,
                                                ArrayRef<uint8_t> Old,
                                                StringRef Text) {
  if (!TI.textRoundTrips(D, Old))
    return createStringError("the instruction's text does not round-trip");
  MCInst Inst;
  SmallVector<uint8_t, 16> B;
  if (Error E = TI.assemble(Text, Inst, B))
    return std::move(E);
  if (ArrayRef<uint8_t>(B) == Old)
    return createStringError("the edit does not change the encoding");
  return B;
}

std::vector<unsigned> dataSources(TargetInfo &TI, const MCInst &Inst) {
  const MCInstrDesc &Desc = TI.desc(Inst.getOpcode());
  std::vector<unsigned> S;
  for (unsigned K = Desc.getNumDefs(); K < Inst.getNumOperands(); ++K) {
    if (K >= Desc.getNumOperands() || Desc.operands()[K].RegClass == -1)
      continue;
    const MCOperand &O = Inst.getOperand(K);
    if (O.isReg() || O.isImm())
      S.push_back(K);
  }
  return S;
}

/// Operations whose first two sources commute (LLVM marks only some of
/// them commutable): swapping those sources is an equivalent edit, not a
/// mutant.
bool commutesFirstTwo(StringRef Mn) {
  StringRef B = Mn;
  if (!B.consume_front("v_") && !B.consume_front("s_"))
    return false;
  static const char *const Prefixes[] = {
      "add_", "addc_", "add3_", "mul_", "and_", "or_", "or3_", "xor_",
      "nand_", "nor_", "xnor_", "min_", "max_", "min3_", "max3_", "med3_",
      "mad_", "fma_", "fmac_", "mac_", "fmaak_", "madak_", "pk_add_",
      "pk_mul_", "pk_fma_", "pk_min_", "pk_max_", "pk_mad_", "cmp_eq_",
      "cmp_ne_", "cmp_lg_", "cmp_neq_", "cmp_nlg_", "cmp_o_", "cmp_u_",
      "cmpx_eq_", "cmpx_ne_", "cmpx_lg_", "cmpx_neq_", "cmpx_nlg_", "cmpx_o_",
      "cmpx_u_", "cmpk_eq_", "cmpk_lg_", "sad_", "dot", "and_or_",
      "add_lshl_", "mul_hi_", "mul_lo_", "mul_i32_", "mul_u32_", "mullit_",
      "fma_mix", "add_co_", "addc_co_", "add_nc_", "max_i", "min_i",
      "lerp_", "mad_mix", "div_fmas_", "xad_", "xor3_", "maxmin", "minmax"};
  for (const char *P : Prefixes)
    if (B.starts_with(P))
      return true;
  return false;
}

bool isMemory(TargetInfo &TI, const MCInst &Inst) {
  uint64_t F = TI.tsFlags(Inst.getOpcode());
  return F & (InstFlag::MUBUF | InstFlag::MTBUF | InstFlag::SMRD |
              InstFlag::MIMG | InstFlag::FLAT | InstFlag::DS);
}

bool writesExec(TargetInfo &TI, const MCInst &Inst) {
  SmallVector<RegAccess, 8> Acc;
  TI.accesses(Inst, Acc);
  for (const RegAccess &A : Acc)
    if (A.IsDef && StringRef(TI.regName(A.Reg)).starts_with("exec"))
      return true;
  return false;
}

const std::pair<const char *, const char *> SiblingRules[] = {
    {"_add_", "_sub_"},         {"_sub_", "_add_"},
    {"_subrev_", "_sub_"},      {"_and_", "_or_"},
    {"_or_", "_xor_"},          {"_xor_", "_and_"},
    {"_andn2_", "_and_"},       {"_orn2_", "_or_"},
    {"_min_", "_max_"},         {"_max_", "_min_"},
    {"_min3_", "_max3_"},       {"_max3_", "_min3_"},
    {"_lshlrev_", "_lshrrev_"}, {"_lshrrev_", "_ashrrev_"},
    {"_ashrrev_", "_lshrrev_"}, {"_lshl_", "_lshr_"},
    {"_lshr_", "_ashr_"},       {"_ashr_", "_lshr_"},
    {"_lt_", "_le_"},           {"_le_", "_lt_"},
    {"_gt_", "_ge_"},           {"_ge_", "_gt_"},
    {"_eq_", "_ne_"},           {"_eq_", "_neq_"},
    {"_ne_", "_eq_"},           {"_neq_", "_eq_"},
    {"_lg_", "_eq_"},           {"_mul_lo_", "_mul_hi_"},
    {"_mul_hi_", "_mul_lo_"},   {"_mul_", "_add_"},
    {"_fma_", "_fmac_"},        {"_i32", "_u32"},
    {"_u32", "_i32"},           {"_i16", "_u16"},
    {"_u16", "_i16"},           {"_i24", "_u24"},
    {"_u24", "_i24"},           {"_floor_", "_ceil_"},
    {"_ceil_", "_floor_"},      {"_trunc_", "_floor_"},
    {"_rndne_", "_trunc_"},     {"_mov_", "_not_"},
    {"_not_", "_mov_"},         {"_ubyte", "_sbyte"},
    {"_sbyte", "_ubyte"},       {"_ushort", "_sshort"},
    {"_sshort", "_ushort"},     {"_cselect_", "_cmov_"},
    {"_bfe_u32", "_bfe_i32"},   {"_bfe_i32", "_bfe_u32"},
    {"_exp_", "_log_"},         {"_log_", "_exp_"},
    {"_rcp_", "_rsq_"},         {"_rsq_", "_rcp_"},
    {"_sqrt_", "_rsq_"},        {"_bcnt1_", "_ff1_"},
    {"_ff1_", "_bcnt1_"},       {"_perm_", "_alignbyte_"},
    {"_cndmask_", "_add_"},
};

const std::pair<const char *, const char *> ExecRules[] = {
    {"s_and_saveexec_b64", "s_or_saveexec_b64"},
    {"s_or_saveexec_b64", "s_and_saveexec_b64"},
    {"s_andn2_saveexec_b64", "s_and_saveexec_b64"},
    {"s_xor_saveexec_b64", "s_and_saveexec_b64"},
    {"s_andn2_b64", "s_and_b64"},
    {"s_and_b64", "s_andn2_b64"},
    {"s_or_b64", "s_and_b64"},
    {"s_xor_b64", "s_or_b64"},
    {"s_mov_b64", "s_not_b64"},
    {"s_cselect_b64", "s_cmov_b64"},
};

Expected<SmallVector<uint8_t, 16>>
applyRules(TargetInfo &TI, const DecodedInst &D, ArrayRef<uint8_t> Old,
           ArrayRef<std::pair<const char *, const char *>> Rules,
           bool WholeMnemonic) {
  auto [Mn, Ops] = TI.printSplit(D.Inst);
  std::string Padded = Mn + "_";
  // Equality of two 32/16-bit values does not depend on how they are
  // interpreted: v_cmp_eq_i32 and v_cmp_eq_u32 (also ne/lg, s_cmp) compute
  // the same bit, so swapping their signedness is not a mutant. s_cmpk_*
  // are excluded from this: their 16-bit immediate is sign- or
  // zero-extended by the signedness.
  StringRef M(Mn);
  bool SignlessCmp =
      (M.contains("_cmp_") || M.contains("_cmpx_")) &&
      (M.contains("_eq_") || M.contains("_ne_") || M.contains("_lg_"));
  for (auto [From, To] : Rules) {
    StringRef F(From);
    if (SignlessCmp &&
        (F == "_i32" || F == "_u32" || F == "_i16" || F == "_u16"))
      continue;
    std::string NewMn;
    if (WholeMnemonic) {
      if (!StringRef(Mn).starts_with(From))
        continue;
      NewMn = To + Mn.substr(strlen(From));
    } else {
      size_t P = Padded.find(From);
      if (P == std::string::npos)
        continue;
      NewMn = Padded.substr(0, P) + To + Padded.substr(P + strlen(From));
      NewMn.pop_back();
    }
    auto B = assembleEdit(TI, D, Old, NewMn + " " + Ops);
    if (B)
      return B;
    consumeError(B.takeError());
  }
  return createStringError("no sibling opcode assembles with these operands");
}

} // namespace

//===----------------------------------------------------------------------===//
// Sites
//===----------------------------------------------------------------------===//

std::vector<EditSite> Mutator::sites(StringRef Kernel, ArrayRef<EditKind> Kinds) {
  Impl &I = *P;
  std::vector<EditSite> Out;
  Operation *Fn = findFunction(*I.Module, Kernel);
  if (!Fn || Fn->hasAttr("not_relocatable"))
    return Out;
  std::set<int64_t> Refs = referencedIds(*I.Module);
  SmallVector<Operation *, 256> Ops;
  collectOps(Fn, Ops);
  InstInfoCache Cache(*I.TI);
  auto want = [&](EditKind K) {
    return std::find(Kinds.begin(), Kinds.end(), K) != Kinds.end();
  };
  auto add = [&](EditKind K, unsigned Idx, unsigned Variant = 0) {
    Out.push_back({K, Kernel.str(), Idx, getInstId(Ops[Idx]), Variant});
  };
  for (unsigned Idx = 0; Idx < Ops.size(); ++Idx) {
    Operation *Op = Ops[Idx];
    if (auto W = dyn_cast<WaitcntOp>(Op)) {
      if (want(EditKind::Waitcnt)) {
        add(EditKind::Waitcnt, Idx, 0);
        if (W.getVmcnt() < 63 || W.getLgkmcnt() < 15)
          add(EditKind::Waitcnt, Idx, 1);
      }
      continue;
    }
    if (isa<CondBranchOp>(Op)) {
      if (want(EditKind::BranchFlip))
        add(EditKind::BranchFlip, Idx);
      continue;
    }
    if (isa<BarrierOp>(Op)) {
      if (want(EditKind::Drop))
        add(EditKind::Drop, Idx);
      continue;
    }
    if (!editableInst(Op, Refs))
      continue;
    auto Inst = cast<InstOp>(Op);
    const DecodedInst *D = I.TI->decode(Inst.getBytes());
    if (!D)
      continue;
    StringRef Mn = D->Mnemonic;
    bool IsNop = Mn.starts_with("s_nop");
    bool Mem = isMemory(*I.TI, D->Inst);
    if (want(EditKind::Drop) && !IsNop)
      add(EditKind::Drop, Idx);
    if (want(EditKind::NopInsert))
      add(EditKind::NopInsert, Idx);
    if (IsNop || Mn.starts_with("s_waitcnt"))
      continue;
    if (want(EditKind::Immediate))
      for (unsigned K : dataSources(*I.TI, D->Inst))
        if (D->Inst.getOperand(K).isImm()) {
          add(EditKind::Immediate, Idx);
          break;
        }
    if (want(EditKind::SwapSources) && !Mem &&
        !I.TI->desc(D->Inst.getOpcode()).isCommutable() &&
        !commutesFirstTwo(Mn) &&
        dataSources(*I.TI, D->Inst).size() >= 2)
      add(EditKind::SwapSources, Idx);
    if (want(EditKind::Sibling))
      add(EditKind::Sibling, Idx);
    if (want(EditKind::MemOffset) && Mem)
      add(EditKind::MemOffset, Idx);
    if (want(EditKind::ExecOp) && writesExec(*I.TI, D->Inst))
      add(EditKind::ExecOp, Idx);
    if (want(EditKind::Reorder) && Idx + 1 < Ops.size() &&
        Ops[Idx + 1]->getBlock() == Op->getBlock() &&
        editableInst(Ops[Idx + 1], Refs)) {
      const InstInfo &A = Cache.get(Op), &B = Cache.get(Ops[Idx + 1]);
      auto plainAlu = [](const InstInfo &X) {
        return (X.isVALU() || X.isSALU()) && !X.isMemOp() && !X.SideEffect &&
               !X.Sync && !X.IsTerminator && !X.IsBranch && !X.IsCall &&
               !X.Counters && X.D && !StringRef(X.Mnemonic).starts_with("s_nop") &&
               !StringRef(X.Mnemonic).starts_with("s_set_gpr_idx");
      };
      if (plainAlu(A) && plainAlu(B) &&
          !RegUnitInfo::intersects(A.Defs, B.Uses) &&
          !RegUnitInfo::intersects(A.Defs, B.Defs) &&
          !RegUnitInfo::intersects(B.Defs, A.Uses))
        add(EditKind::Reorder, Idx);
    }
  }
  if (want(EditKind::Identity) && !Ops.empty())
    add(EditKind::Identity, 0);
  if (want(EditKind::Rename) && !Ops.empty()) {
    // Candidate VGPRs: used only as single registers, above the work-item
    // id registers; the function makes no calls and uses no VGPR indexing
    // or AGPRs.
    std::set<unsigned> Used, Single, InTuple;
    bool Ok = true;
    for (Operation *Op : Ops) {
      if (isa<RawOp, IndirectOp>(Op)) {
        Ok = false;
        break;
      }
      auto Inst = dyn_cast<InstOp>(Op);
      if (!Inst)
        continue;
      const DecodedInst *D = I.TI->decode(Inst.getBytes());
      if (!D) {
        Ok = false;
        break;
      }
      StringRef Mn = D->Mnemonic;
      if (Mn.starts_with("s_swappc") || Mn.starts_with("s_setpc") ||
          Mn.starts_with("s_set_gpr_idx") || Mn.contains("movrel")) {
        Ok = false;
        break;
      }
      for (const MCOperand &O : D->Inst) {
        if (!O.isReg())
          continue;
        RegRange R = I.TI->classify(O.getReg());
        if (R.Kind == RegKind::AGPR)
          Ok = false;
        if (R.Kind != RegKind::VGPR)
          continue;
        for (unsigned K = R.First; K < unsigned(R.First + R.Count); ++K) {
          Used.insert(K);
          (R.Count == 1 ? Single : InTuple).insert(K);
        }
      }
    }
    unsigned Ids = 1;
    if (auto K = dyn_cast<KernelOp>(Fn)) {
      auto KD = attrToDescriptor(K.getDescriptor());
      if (KD) {
        Ids = KD->enableVgprWorkitemId() + 1;
        if (KD->kernargPreloadLength())
          Ok = false;
      } else {
        consumeError(KD.takeError());
        Ok = false;
      }
    }
    if (Ok)
      for (unsigned K : Single)
        if (K >= Ids && !InTuple.count(K)) {
          Out.push_back({EditKind::Rename, Kernel.str(), 0, -1, K});
          if (Out.size() > 4096)
            break;
        }
  }
  return Out;
}

std::string Mutator::explainSurvivor(const EditSite &S) {
  Impl &I = *P;
  Operation *Fn = findFunction(*I.Module, S.Function);
  if (!Fn)
    return "";
  SmallVector<Operation *, 256> Ops;
  collectOps(Fn, Ops);
  if (S.OpIndex >= Ops.size())
    return "";
  Operation *Op = Ops[S.OpIndex];
  InstInfoCache Cache(*I.TI);
  const InstInfo &II = Cache.get(Op);
  StringRef Mn = II.Mnemonic;
  if (S.Kind == EditKind::Drop &&
      (Mn.starts_with("s_setprio") || Mn.starts_with("s_sleep") ||
       Mn.starts_with("s_nop") || Mn.starts_with("s_dcache_") ||
       Mn.starts_with("s_icache_") || Mn.starts_with("s_ttrace")))
    return "no architectural effect on data: " + Mn.str() +
           " is a scheduling/cache hint";
  if (S.Kind == EditKind::Sibling && II.D &&
      (Mn.contains("_max_") || Mn.contains("_min_"))) {
    // max(a, a) and min(a, a) are the same operation.
    auto Src = dataSources(*I.TI, II.D->Inst);
    if (Src.size() == 2) {
      const MCOperand &A = II.D->Inst.getOperand(Src[0]),
                      &B = II.D->Inst.getOperand(Src[1]);
      if (A.isReg() && B.isReg() && A.getReg() == B.getReg())
        return "same operation: min(a, a) == max(a, a) (the op only "
               "canonicalizes a)";
    }
  }
  switch (S.Kind) {
  case EditKind::Immediate:
  case EditKind::SwapSources:
  case EditKind::Sibling:
  case EditKind::Drop:
  case EditKind::ExecOp: {
    if (II.isMemOp() || II.SideEffect || II.Sync || II.IsBranch ||
        II.IsTerminator || II.Kind != OpKind::Inst)
      return "";
    Liveness L(Fn, Cache, Liveness::Mode::Conservative);
    llvm::BitVector After = L.liveAfter(Op);
    UnitList Defs;
    II.registerDefs(Cache.units(), Defs);
    for (unsigned U : Defs)
      if (U < After.size() && After.test(U))
        return "";
    return "dead result: no register it defines is live after it "
           "(conservative liveness), so the edit cannot change any output";
  }
  default:
    return "";
  }
}

//===----------------------------------------------------------------------===//
// Apply
//===----------------------------------------------------------------------===//

Expected<Edit> Mutator::apply(const EditSite &S) {
  Impl &I = *P;
  TargetInfo &TI = *I.TI;
  OwningOpRef<CodeObjectOp> Clone(cast<CodeObjectOp>((*I.Module)->clone()));
  Operation *Fn = findFunction(*Clone, S.Function);
  if (!Fn)
    return createStringError("no function " + S.Function);
  SmallVector<Operation *, 256> Ops;
  collectOps(Fn, Ops);
  if (S.OpIndex >= Ops.size())
    return createStringError("site out of range");
  Operation *Op = Ops[S.OpIndex];
  InstInfoCache Cache(TI);
  Edit E;
  E.Site = S;
  auto describe = [&](Operation *O) { return Cache.describe(O); };
  std::string Before = describe(Op);

  auto replaceBytes = [&](ArrayRef<uint8_t> B) {
    auto Inst = cast<InstOp>(Op);
    setBytes(Inst, B);
    Cache.invalidate(Op);
    E.Description = Before + "  ->  " + describe(Op);
  };
  auto decoded = [&]() -> const DecodedInst * {
    auto Inst = dyn_cast<InstOp>(Op);
    return Inst ? TI.decode(Inst.getBytes()) : nullptr;
  };

  switch (S.Kind) {
  case EditKind::Identity:
    E.Description = "identity (recover and emit, no edit)";
    break;
  case EditKind::Immediate: {
    const DecodedInst *D = decoded();
    if (!D)
      return createStringError("not an instruction");
    MCInst New = D->Inst;
    bool Done = false;
    for (unsigned K : dataSources(TI, New)) {
      MCOperand &O = New.getOperand(K);
      if (!O.isImm())
        continue;
      // +1, or +4 for multiples of 4 (byte offsets whose low bits an
      // aligned access ignores would make the +1 mutant equivalent).
      int64_t V = O.getImm();
      int64_t Delta = V != 0 && V % 4 == 0 ? 4 : 1;
      O.setImm(V >= -16 && V + Delta <= 64 ? V + Delta
               : V >= -16 && V <= 64     ? V - Delta
                                         : (V ^ Delta));
      Done = true;
      break;
    }
    if (!Done)
      return createStringError("no immediate operand");
    auto B = encodeChecked(TI, New, cast<InstOp>(Op).getBytes());
    if (!B)
      return B.takeError();
    replaceBytes(*B);
    break;
  }
  case EditKind::SwapSources: {
    const DecodedInst *D = decoded();
    if (!D)
      return createStringError("not an instruction");
    MCInst New = D->Inst;
    auto Src = dataSources(TI, New);
    if (Src.size() < 2)
      return createStringError("fewer than two sources");
    MCOperand A = New.getOperand(Src[0]), B = New.getOperand(Src[1]);
    if ((A.isReg() && B.isReg() && A.getReg() == B.getReg()) ||
        (A.isImm() && B.isImm() && A.getImm() == B.getImm()))
      return createStringError("identical sources");
    New.getOperand(Src[0]) = B;
    New.getOperand(Src[1]) = A;
    auto Bytes = encodeChecked(TI, New, cast<InstOp>(Op).getBytes());
    if (!Bytes)
      return Bytes.takeError();
    replaceBytes(*Bytes);
    break;
  }
  case EditKind::Drop:
    E.Description = "drop " + Before;
    Op->erase();
    break;
  case EditKind::Sibling: {
    const DecodedInst *D = decoded();
    if (!D)
      return createStringError("not an instruction");
    auto B = applyRules(TI, *D, cast<InstOp>(Op).getBytes(), SiblingRules, false);
    if (!B)
      return B.takeError();
    replaceBytes(*B);
    break;
  }
  case EditKind::ExecOp: {
    const DecodedInst *D = decoded();
    if (!D)
      return createStringError("not an instruction");
    auto B = applyRules(TI, *D, cast<InstOp>(Op).getBytes(), ExecRules, true);
    if (!B) {
      consumeError(B.takeError());
      B = applyRules(TI, *D, cast<InstOp>(Op).getBytes(), SiblingRules, false);
    }
    if (!B)
      return B.takeError();
    replaceBytes(*B);
    break;
  }
  case EditKind::MemOffset: {
    const DecodedInst *D = decoded();
    if (!D)
      return createStringError("not an instruction");
    auto [Mn, Ops] = TI.printSplit(D->Inst);
    std::string Text;
    size_t P;
    auto bump = [&](size_t At, size_t Len, int64_t Delta) {
      StringRef Num = StringRef(Ops).substr(At).take_while(
          [](char C) { return isalnum(C) || C == '-'; });
      int64_t V;
      if (Num.getAsInteger(0, V))
        return false;
      Text = Mn + " " + Ops.substr(0, At) + std::to_string(V + Delta) +
             Ops.substr(At + Num.size());
      return true;
    };
    if ((P = Ops.find("offset1:")) != std::string::npos) {
      if (!bump(P + 8, 0, 1))
        return createStringError("unreadable offset1");
    } else if ((P = Ops.find("offset:")) != std::string::npos) {
      if (!bump(P + 7, 0, 4))
        return createStringError("unreadable offset");
    } else if (StringRef(Mn).starts_with("s_") &&
               (P = Ops.rfind(", ")) != std::string::npos) {
      if (!bump(P + 2, 0, 4))
        return createStringError("no immediate offset");
    } else {
      // No offset field printed (0): add one.
      if (StringRef(Mn).starts_with("ds_") || StringRef(Mn).starts_with("global_") ||
          StringRef(Mn).starts_with("buffer_") || StringRef(Mn).starts_with("scratch_") ||
          StringRef(Mn).starts_with("flat_"))
        Text = Mn + " " + Ops + " offset:4";
      else
        return createStringError("no offset");
    }
    auto B = assembleEdit(TI, *D, cast<InstOp>(Op).getBytes(), Text);
    if (!B)
      return B.takeError();
    replaceBytes(*B);
    break;
  }
  case EditKind::Waitcnt: {
    auto W = dyn_cast<WaitcntOp>(Op);
    if (!W)
      return createStringError("not an s_waitcnt");
    if (S.Variant == 0) {
      E.Description = "remove " + Before;
      Op->erase();
      break;
    }
    unsigned Vm = W.getVmcnt(), Exp = W.getExpcnt(), Lgkm = W.getLgkmcnt();
    if (Vm < 63 && (Lgkm == 15 || Vm <= Lgkm))
      ++Vm;
    else if (Lgkm < 15)
      ++Lgkm;
    else
      return createStringError("nothing to weaken");
    W.setImm(WaitcntOp::encodeCounts(Vm, Exp, Lgkm));
    Cache.invalidate(Op);
    E.Description = Before + "  ->  " + describe(Op);
    break;
  }
  case EditKind::BranchFlip: {
    auto Br = dyn_cast<CondBranchOp>(Op);
    if (!Br)
      return createStringError("not a conditional branch");
    static const std::pair<const char *, const char *> Flips[] = {
        {"s_cbranch_scc0", "s_cbranch_scc1"},   {"s_cbranch_scc1", "s_cbranch_scc0"},
        {"s_cbranch_vccz", "s_cbranch_vccnz"},  {"s_cbranch_vccnz", "s_cbranch_vccz"},
        {"s_cbranch_execz", "s_cbranch_execnz"}, {"s_cbranch_execnz", "s_cbranch_execz"}};
    std::string Mn = Br.getMnemonic().str();
    bool Done = false;
    for (auto [F, T] : Flips)
      if (Mn == F) {
        Br.setMnemonic(T);
        Done = true;
        break;
      }
    if (!Done)
      return createStringError("no opposite condition for " + Mn);
    E.Description = Mn + " -> " + Br.getMnemonic().str() + " at " + Before;
    break;
  }
  case EditKind::NopInsert: {
    OpBuilder B(Op);
    NopOp::create(B, B.getUnknownLoc(), int64_t(-1), int64_t(0));
    E.Description = "insert s_nop 0 before " + Before;
    break;
  }
  case EditKind::Reorder: {
    if (S.OpIndex + 1 >= Ops.size())
      return createStringError("no next instruction");
    Operation *Next = Ops[S.OpIndex + 1];
    HazardChecker HC(Cache);
    SmallVector<HazardPair, 4> BeforeH, AfterH;
    HC.checkFunction(Fn, BeforeH);
    Op->moveAfter(Next);
    Cache.clear();
    HC.checkFunction(Fn, AfterH);
    if (AfterH.size() > BeforeH.size())
      return createStringError("swapping creates a hazard: " +
                               AfterH.front().message(Cache));
    E.Description = "swap " + Before + "  <->  " + describe(Next);
    break;
  }
  case EditKind::Rename: {
    unsigned From = S.Variant;
    std::set<unsigned> Used;
    for (Operation *O : Ops)
      if (auto Inst = dyn_cast<InstOp>(O))
        if (const DecodedInst *D = TI.decode(Inst.getBytes()))
          for (const MCOperand &MO : D->Inst)
            if (MO.isReg()) {
              RegRange R = TI.classify(MO.getReg());
              if (R.Kind == RegKind::VGPR)
                for (unsigned K = R.First; K < unsigned(R.First + R.Count); ++K)
                  Used.insert(K);
            }
    // A register the descriptor already allocates (below accum_offset), so
    // the rewrite needs no resource change: a register beyond the
    // allocation would test emission's resource update, not the oracle.
    unsigned Limit = 256;
    if (auto K = dyn_cast<KernelOp>(Fn)) {
      auto KD = attrToDescriptor(K.getDescriptor());
      if (!KD)
        return KD.takeError();
      Limit = std::min<unsigned>(
          {Limit, KD->accumOffset(), (KD->granulatedWorkitemVgprCount() + 1) * 8});
    }
    unsigned To = 3;
    while (Used.count(To))
      ++To;
    if (To >= Limit)
      return createStringError("no free VGPR inside the allocation");
    const RegUnitInfo &RU = RegUnitInfo::get(TI);
    MCRegister FromR = RU.regOfIndex(RegKind::VGPR, From);
    MCRegister ToR = RU.regOfIndex(RegKind::VGPR, To);
    if (!FromR || !ToR)
      return createStringError("no such VGPR");
    unsigned Changed = 0;
    for (Operation *O : Ops) {
      auto Inst = dyn_cast<InstOp>(O);
      if (!Inst)
        continue;
      const DecodedInst *D = TI.decode(Inst.getBytes());
      if (!D)
        return createStringError("undecodable instruction");
      MCInst New = D->Inst;
      bool Any = false;
      for (MCOperand &MO : New)
        if (MO.isReg() && MO.getReg() == FromR) {
          MO.setReg(ToR);
          Any = true;
        }
      if (!Any)
        continue;
      if (Inst.getPcrelPart() != InstOp::NoPcRel)
        return createStringError("register in a PC-relative instruction");
      auto B = encodeChecked(TI, New, Inst.getBytes());
      if (!B)
        return createStringError("cannot re-encode " + describe(O) + ": " +
                                 toString(B.takeError()));
      setBytes(Inst, *B);
      ++Changed;
    }
    if (!Changed)
      return createStringError("register not used");
    E.Description = formatv("rename v{0} -> v{1} in {2} instructions", From, To,
                            Changed)
                        .str();
    break;
  }
  }
  auto Bytes = emitCodeObject(*Clone);
  if (!Bytes)
    return createStringError("emission failed: " + toString(Bytes.takeError()));
  E.CodeObject = std::move(*Bytes);
  return E;
}

} // namespace verify
} // namespace asmevo
