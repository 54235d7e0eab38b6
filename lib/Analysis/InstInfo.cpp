//===- InstInfo.cpp - What one amdgcn op does, for the analyses -----------===//

#include "asmevo/Analysis/InstInfo.h"

#include "asmevo/Analysis/InternalCalls.h"

#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

const char *asmevo::counterName(Counter C) {
  switch (C) {
  case Counter::VM:
    return "vmcnt";
  case Counter::LGKM:
    return "lgkmcnt";
  case Counter::EXP:
    return "expcnt";
  }
  return "?";
}

bool InstInfo::isMFMA() const {
  if (!isMAI())
    return false;
  return !Mnemonic.starts_with("v_accvgpr_");
}

bool InstInfo::isDGEMM() const {
  return isMFMA() && Mnemonic.starts_with("v_mfma_f64");
}

void InstInfo::registerDefs(const RegUnitInfo &RU, UnitList &Out) const {
  for (uint16_t U : Defs)
    if (!RU.isPseudo(U))
      Out.push_back(U);
}

InstInfoCache::InstInfoCache(TargetInfo &TI)
    : TI(TI), RU(RegUnitInfo::get(TI)) {
  StringRef CPU = TI.cpu();
  if (CPU == "gfx90a")
    HT = HazardTarget::GFX90A;
  else if (CPU == "gfx940" || CPU == "gfx941" || CPU == "gfx942" ||
           CPU == "gfx950" || CPU == "gfx9-4-generic")
    HT = HazardTarget::GFX942;
  else
    HT = HazardTarget::GFX9;
  // XNACK "any" (unspecified in the target id) may be on at run time, as
  // LLVM assumes: only an explicit xnack- turns the soft-clause rules off.
  Xnack = !TI.features().contains("-xnack");
}

const InstInfo &InstInfoCache::get(Operation *Op) {
  auto &Slot = Map[Op];
  if (!Slot) {
    Slot = std::make_unique<InstInfo>();
    compute(Op, *Slot);
    StringRef Mn = Slot->Mnemonic;
    Slot->PartialVectorWrite =
        Slot->isDPP() || Slot->isSDWA() || Mn.contains("16") ||
        Mn.starts_with("v_writelane") || Mn.contains("_lds");
    if (Slot->IsCall) {
      Operation *Fn = Op->getParentOp();
      while (Fn && !isa<KernelOp, FuncOp>(Fn))
        Fn = Fn->getParentOp();
      Slot->InternalCall = Fn && Fn->hasAttr("internal_calls");
    }
    // (Call effects describe the code object's device functions, not the
    // subroutines of an internal_calls function.)
    if (Slot->IsCall && HasCallEffects && !Slot->InternalCall)
      for (unsigned U : CallEffects.set_bits()) {
        RegUnitInfo::addUnit(Slot->Uses, U);
        RegUnitInfo::addUnit(Slot->Defs, U);
      }
    if (Slot->IsCall && Slot->InternalCall) {
      auto It = CalleeEffects.find(Op);
      if (It != CalleeEffects.end()) {
        for (uint16_t U : It->second.first)
          RegUnitInfo::addUnit(Slot->Uses, U);
        for (uint16_t U : It->second.second)
          RegUnitInfo::addUnit(Slot->Defs, U);
        Slot->CalleeEffectsKnown = true;
        // The effects are set only for a modelled function, whose
        // subroutines hold no memory op and no wait: the call orders no
        // memory op and is no sync point (what in flight it reads or
        // overwrites is in Uses and Defs; the wait check sees it there).
        Slot->Sync = false;
        llvm::erase(Slot->Uses, RU.pseudo(PseudoUnit::Order));
        llvm::erase(Slot->Defs, RU.pseudo(PseudoUnit::Order));
      }
    }
  }
  return *Slot;
}

InstInfoCache::~InstInfoCache() = default;

void InstInfoCache::setInternalCallEffects(Operation *Call, UnitList Uses,
                                           UnitList Defs) {
  CalleeEffects[Call] = {std::move(Uses), std::move(Defs)};
  Map.erase(Call);
}

const InternalCallModel &InstInfoCache::internalCalls(Operation *Fn) {
  auto It = CallModels.find(Fn);
  if (It == CallModels.end())
    It = CallModels
             .try_emplace(Fn, std::make_unique<InternalCallModel>(Fn, *this))
             .first;
  return *It->second;
}

const DecodedInst *InstInfoCache::templateFor(StringRef Mnemonic,
                                              bool WithImm) {
  auto It = Templates.find(Mnemonic);
  if (It != Templates.end())
    return It->second;
  const DecodedInst *D = nullptr;
  auto WordOrErr = TI.soppTemplate(Mnemonic, WithImm);
  if (WordOrErr) {
    uint32_t W = *WordOrErr;
    uint8_t B[4] = {uint8_t(W), uint8_t(W >> 8), uint8_t(W >> 16),
                    uint8_t(W >> 24)};
    D = TI.decode(B);
  } else {
    consumeError(WordOrErr.takeError());
  }
  Templates[Mnemonic] = D;
  return D;
}

static bool startsWithAny(StringRef S, std::initializer_list<StringRef> Ps) {
  for (StringRef P : Ps)
    if (S.starts_with(P))
      return true;
  return false;
}

/// Side effects that LLVM's MC layer does not tell apart (it marks almost
/// every instruction hasUnmodeledSideEffects): the list follows the ISA's
/// descriptions of the instructions.
static StringRef sideEffectOf(StringRef M) {
  if (startsWithAny(M, {"s_barrier"}))
    return "barrier";
  if (startsWithAny(M, {"s_sendmsg", "s_ttracedata"}))
    return "message";
  if (startsWithAny(M, {"s_setreg", "s_getreg", "s_denorm_mode",
                        "s_round_mode", "s_setvskip"}))
    return "hardware register access";
  if (startsWithAny(M, {"s_dcache", "s_icache", "buffer_wbl2", "buffer_inv",
                        "buffer_wbinvl1", "buffer_gl", "s_atc_probe"}))
    return "cache control";
  if (startsWithAny(M, {"s_sleep", "s_trap", "s_setprio", "s_sethalt",
                        "s_rfe", "s_setkill", "s_incperflevel",
                        "s_decperflevel", "s_wakeup"}))
    return "wave control";
  if (startsWithAny(M, {"s_memtime", "s_memrealtime"}))
    return "reads a clock";
  if (startsWithAny(M, {"s_getpc"}))
    return "reads the program counter";
  if (startsWithAny(M, {"s_swappc", "s_call"}))
    return "call";
  if (startsWithAny(M, {"ds_gws", "ds_ordered_count", "ds_append",
                        "ds_consume"}))
    return "global data share / wave synchronisation";
  if (M.starts_with("exp"))
    return "export";
  if (startsWithAny(M, {"s_movrel", "v_movrel"}))
    return "M0-relative register access";
  if (M.starts_with("s_set_gpr_idx"))
    return "VGPR indexing mode";
  return {};
}

void InstInfoCache::fromMC(const DecodedInst &D, InstInfo &I) {
  I.D = &D;
  I.Opcode = D.Inst.getOpcode();
  I.Mnemonic = D.Mnemonic;
  I.Flags = TI.tsFlags(I.Opcode);
  const MCInstrDesc &Desc = TI.desc(I.Opcode);
  unsigned NumDefs = Desc.getNumDefs();
  for (unsigned K = 0, E = D.Inst.getNumOperands(); K != E; ++K) {
    const MCOperand &MO = D.Inst.getOperand(K);
    if (!MO.isReg() || !MO.getReg().isValid())
      continue;
    bool IsDef = K < NumDefs;
    I.Regs.push_back({MO.getReg(), int(K), IsDef});
    RU.addReg(IsDef ? I.Defs : I.Uses, MO.getReg());
    RU.addReg(I.RegUnits[IsDef][/*ExplicitOnly=*/true], MO.getReg());
  }
  for (MCPhysReg R : Desc.implicit_uses()) {
    I.Regs.push_back({MCRegister(R), -1, false});
    RU.addReg(I.Uses, MCRegister(R));
  }
  for (MCPhysReg R : Desc.implicit_defs()) {
    I.Regs.push_back({MCRegister(R), -1, true});
    RU.addReg(I.Defs, MCRegister(R));
  }
  for (bool IsDef : {false, true}) {
    I.RegUnits[IsDef][false] = I.RegUnits[IsDef][true];
    for (const InstInfo::RegOperand &R : I.Regs)
      if (R.IsDef == IsDef && R.OperandIndex < 0)
        RU.addReg(I.RegUnits[IsDef][false], R.Reg);
  }

  StringRef M = I.Mnemonic;
  StringRef OpName = TI.opcodeName(I.Opcode);

  // Writes that keep part of the old destination read it, although LLVM's
  // MC operand lists do not say so: d16 loads (the other half), SDWA with
  // dst_unused:UNUSED_PRESERVE, VOP3 op_sel writing the high half,
  // conditional and bit-set scalar moves.
  bool ReadsOwnDst =
      M.starts_with("s_cmov") || M.starts_with("s_bitset") ||
      M.starts_with("v_mad_mixhi") || M.starts_with("v_mad_mixlo") ||
      (M.contains("_d16") && Desc.mayLoad());
  if (!ReadsOwnDst && (I.has(InstFlag::SDWA) ||
                       (I.has(InstFlag::VOP3) && !I.has(InstFlag::VOP3P)))) {
    std::string Text = TI.print(D.Inst);
    StringRef T(Text);
    if (T.contains("dst_unused:UNUSED_PRESERVE"))
      ReadsOwnDst = true;
    size_t At = T.find("op_sel:[");
    if (At != StringRef::npos &&
        T.substr(At + 8).take_until([](char C) { return C == ']'; })
            .ends_with("1"))
      ReadsOwnDst = true;
  }
  if (ReadsOwnDst)
    for (const InstInfo::RegOperand &R : I.Regs)
      if (R.IsDef && R.OperandIndex >= 0)
        RU.addReg(I.Uses, R.Reg);
  bool MayLoad = Desc.mayLoad(), MayStore = Desc.mayStore();
  I.SideEffectWhy = sideEffectOf(M);
  I.SideEffect = !I.SideEffectWhy.empty();
  I.IsCall = I.SideEffectWhy == "call";

  // Memory spaces.
  uint8_t Spaces = 0;
  bool LdsDma = false;
  if (I.isSMEM()) {
    if (startsWithAny(M, {"s_load", "s_buffer_load", "s_store",
                          "s_buffer_store", "s_atomic", "s_buffer_atomic"}))
      Spaces = MemSpace::Global;
    else if (M.starts_with("s_scratch"))
      Spaces = MemSpace::Scratch;
    if (M.starts_with("s_store") || M.starts_with("s_buffer_store") ||
        M.starts_with("s_scratch_store"))
      MayStore = true, MayLoad = false;
  } else if (I.isDS()) {
    if (startsWithAny(M, {"ds_bpermute", "ds_permute", "ds_swizzle",
                          "ds_nop"}))
      Spaces = 0;
    else if (startsWithAny(M, {"ds_gws", "ds_ordered_count"}) ||
             StringRef(TI.print(D.Inst)).ends_with(" gds"))
      Spaces = MemSpace::GDS;
    else
      Spaces = MemSpace::LDS;
  } else if (I.isFLAT()) {
    if (I.has(InstFlag::FlatGlobal))
      Spaces = MemSpace::Global;
    else if (I.has(InstFlag::FlatScratch))
      Spaces = MemSpace::Scratch;
    else
      Spaces = MemSpace::Global | MemSpace::Scratch | MemSpace::LDS;
    LdsDma = OpName.contains("_LDS_");
  } else if (I.isVMEM()) {
    if (!I.SideEffect) // buffer_wbl2/inv are fences, not accesses
      Spaces = I.has(InstFlag::MIMG) ? MemSpace::Global
                                     : MemSpace::Global | MemSpace::Scratch;
    LdsDma = OpName.contains("_LDS_");
  }
  if (Spaces) {
    if (LdsDma) {
      I.MemRead = Spaces & ~MemSpace::LDS;
      I.MemWrite = MemSpace::LDS;
    } else {
      if (MayLoad)
        I.MemRead = Spaces;
      if (MayStore)
        I.MemWrite = Spaces;
      if (!MayLoad && !MayStore) // conservatively both
        I.MemRead = I.MemWrite = Spaces;
    }
    I.IsAtomic = MayLoad && MayStore && !LdsDma;
  }
  const struct {
    uint8_t Bit;
    PseudoUnit P;
  } SpaceUnits[] = {{MemSpace::Global, PseudoUnit::MemGlobal},
                    {MemSpace::Scratch, PseudoUnit::MemScratch},
                    {MemSpace::LDS, PseudoUnit::MemLDS},
                    {MemSpace::GDS, PseudoUnit::MemGDS}};
  for (auto &S : SpaceUnits) {
    if (I.MemRead & S.Bit)
      RegUnitInfo::addUnit(I.Uses, RU.pseudo(S.P));
    if (I.MemWrite & S.Bit)
      RegUnitInfo::addUnit(I.Defs, RU.pseudo(S.P));
  }

  // Wait counters (gfx9: stores count on vmcnt too; EXP_CNT on MUBUF is a
  // leftover of older generations and not used for VMEM on gfx9).
  bool VM = I.has(InstFlag::VM_CNT), LGKM = I.has(InstFlag::LGKM_CNT);
  if (M.starts_with("s_sendmsg"))
    LGKM = true;
  if (VM)
    I.Counters |= counterBit(Counter::VM);
  if (LGKM)
    I.Counters |= counterBit(Counter::LGKM);
  if (I.has(InstFlag::EXP))
    I.Counters |= counterBit(Counter::EXP);
  if (VM && !LGKM)
    I.InOrder |= counterBit(Counter::VM);
  if (LGKM && !VM && I.isDS() && !(Spaces & MemSpace::GDS) &&
      !I.SideEffect)
    I.InOrder |= counterBit(Counter::LGKM);
  if (I.has(InstFlag::EXP))
    I.InOrder |= counterBit(Counter::EXP);

  if (I.isMFMA()) {
    const MCSchedModel &SM = TI.subtarget().getSchedModel();
    int Lat = SM.computeInstrLatency(TI.subtarget(), Desc.getSchedClass());
    I.Passes = Lat > 0 ? unsigned(Lat) : 16;
  }

  // Ordering pseudo unit: side effects define it, memory ops read it.
  if (I.SideEffect) {
    RegUnitInfo::addUnit(I.Defs, RU.pseudo(PseudoUnit::Order));
    RegUnitInfo::addUnit(I.Uses, RU.pseudo(PseudoUnit::Order));
  } else if (I.MemRead || I.MemWrite) {
    RegUnitInfo::addUnit(I.Uses, RU.pseudo(PseudoUnit::Order));
  }
  I.Sync = (I.SideEffect && !I.SideEffectWhy.starts_with("reads")) ||
           (I.MemWrite & ~MemSpace::LDS) || I.IsAtomic;
}

void InstInfoCache::compute(Operation *Op, InstInfo &I) {
  I.Op = Op;
  auto FromBytes = [&](ArrayRef<uint8_t> Bytes) {
    const DecodedInst *D = TI.decode(Bytes);
    if (D && D->Size == Bytes.size())
      fromMC(*D, I);
  };
  auto FromTemplate = [&](StringRef Mnemonic, bool WithImm) {
    if (const DecodedInst *D = templateFor(Mnemonic, WithImm))
      fromMC(*D, I);
    I.Mnemonic = Mnemonic;
  };
  if (auto Inst = dyn_cast<InstOp>(Op)) {
    I.Kind = OpKind::Inst;
    FromBytes(Inst.getBytes());
    if (!I.D) {
      I.Kind = OpKind::Raw;
      I.SideEffect = true;
      I.SideEffectWhy = "undecodable instruction";
      return;
    }
    // s_nop / s_waitcnt written as generic instructions mean the same as
    // the dedicated ops.
    int64_t Imm = -1;
    for (const MCOperand &MO : I.D->Inst)
      if (MO.isImm()) {
        Imm = MO.getImm();
        break;
      }
    if (I.Mnemonic == "s_nop" && Imm >= 0) {
      I.Kind = OpKind::Nop;
      I.WaitStates = unsigned(Imm & 0xf) + 1;
    } else if (I.Mnemonic == "s_waitcnt" && Imm >= 0) {
      I.Kind = OpKind::Waitcnt;
      I.Wait[unsigned(Counter::VM)] = (Imm & 0xf) | ((Imm >> 14) & 3) << 4;
      I.Wait[unsigned(Counter::EXP)] = (Imm >> 4) & 7;
      I.Wait[unsigned(Counter::LGKM)] = (Imm >> 8) & 0xf;
    }
    return;
  }
  if (auto W = dyn_cast<WaitcntOp>(Op)) {
    I.Kind = OpKind::Waitcnt;
    FromTemplate("s_waitcnt", true);
    I.Wait[unsigned(Counter::VM)] = W.getVmcnt();
    I.Wait[unsigned(Counter::LGKM)] = W.getLgkmcnt();
    I.Wait[unsigned(Counter::EXP)] = W.getExpcnt();
    return;
  }
  if (auto N = dyn_cast<NopOp>(Op)) {
    I.Kind = OpKind::Nop;
    FromTemplate("s_nop", true);
    I.WaitStates = unsigned(N.getImm() & 0xf) + 1;
    return;
  }
  if (isa<BarrierOp>(Op)) {
    I.Kind = OpKind::Barrier;
    FromTemplate("s_barrier", false);
    return;
  }
  if (isa<EndpgmOp>(Op)) {
    I.Kind = OpKind::Endpgm;
    FromTemplate("s_endpgm", false);
    I.IsTerminator = true;
    return;
  }
  if (isa<BranchOp>(Op)) {
    I.Kind = OpKind::Branch;
    FromTemplate("s_branch", true);
    I.IsTerminator = I.IsBranch = true;
    I.SideEffect = false;
    return;
  }
  if (auto CB = dyn_cast<CondBranchOp>(Op)) {
    I.Kind = OpKind::CondBranch;
    FromTemplate(CB.getMnemonic(), true);
    I.IsTerminator = I.IsBranch = true;
    I.SideEffect = false;
    return;
  }
  if (isa<FallthroughOp>(Op)) {
    I.Kind = OpKind::Fallthrough;
    I.IsTerminator = true;
    I.WaitStates = 0;
    I.Mnemonic = "fallthrough";
    return;
  }
  if (auto Ind = dyn_cast<IndirectOp>(Op)) {
    I.Kind = OpKind::Indirect;
    FromBytes(getOriginalBytes(Op));
    I.IsTerminator = I.IsReturn = true;
    I.Sync = true;
    I.SideEffect = true;
    I.SideEffectWhy = "leaves the function";
    return;
  }
  if (isa<RawOp>(Op)) {
    I.Kind = OpKind::Raw;
    I.SideEffect = true;
    I.SideEffectWhy = "undecodable word";
    I.Mnemonic = ".long";
    return;
  }
  I.Kind = OpKind::Unknown;
  I.SideEffect = true;
  I.SideEffectWhy = "unknown operation";
}

std::string InstInfoCache::describe(Operation *Op) {
  std::string S;
  raw_string_ostream OS(S);
  int64_t Id = getInstId(Op);
  if (Id >= 0)
    OS << "[0x" << format_hex_no_prefix(Id, 1) << "] ";
  else
    OS << "[new] ";
  const InstInfo &I = get(Op);
  if (auto W = dyn_cast<WaitcntOp>(Op)) {
    OS << "s_waitcnt";
    bool Any = false;
    if (W.getVmcnt() != 63)
      OS << " vmcnt(" << W.getVmcnt() << ")", Any = true;
    if (W.getExpcnt() != 7)
      OS << " expcnt(" << W.getExpcnt() << ")", Any = true;
    if (W.getLgkmcnt() != 15)
      OS << " lgkmcnt(" << W.getLgkmcnt() << ")", Any = true;
    if (!Any)
      OS << " none";
  } else if (auto N = dyn_cast<NopOp>(Op)) {
    OS << "s_nop " << N.getImm();
  } else if (I.Kind == OpKind::Inst || I.Kind == OpKind::Indirect) {
    OS << (I.D ? TI.print(I.D->Inst) : std::string("<undecodable>"));
  } else if (auto CB = dyn_cast<CondBranchOp>(Op)) {
    OS << CB.getMnemonic();
  } else {
    OS << I.Mnemonic;
  }
  return S;
}

bool InstInfoCache::functionUsesAGPRs(Operation *Op) {
  Operation *Fn = Op;
  while (Fn && !isa<KernelOp, FuncOp>(Fn))
    Fn = Fn->getParentOp();
  // (functionOf is defined below.)
  if (!Fn)
    return true;
  auto It = UsesAGPRs.find(Fn);
  if (It != UsesAGPRs.end())
    return It->second;
  bool Uses = false;
  Fn->walk([&](Operation *X) {
    if (Uses || X == Fn)
      return;
    const InstInfo &I = get(X);
    for (uint16_t U : I.Uses)
      Uses |= !RU.isPseudo(U) && RU.kindOf(U) == RegKind::AGPR;
    for (uint16_t U : I.Defs)
      Uses |= !RU.isPseudo(U) && RU.kindOf(U) == RegKind::AGPR;
  });
  UsesAGPRs[Fn] = Uses;
  return Uses;
}

static Operation *functionOf(Operation *Op) {
  while (Op && !isa<KernelOp, FuncOp>(Op))
    Op = Op->getParentOp();
  return Op;
}

void InstInfoCache::computeIndexed(Operation *Fn) {
  auto &Set = Indexed[Fn];
  Set.clear();
  Region &R = Fn->getRegion(0);
  llvm::DenseMap<Block *, bool> InOn;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Block &B : R) {
      bool On = InOn.lookup(&B);
      for (Operation &Op : B) {
        const InstInfo &I = get(&Op);
        if (I.Mnemonic == "s_set_gpr_idx_on")
          On = true;
        else if (I.Mnemonic == "s_set_gpr_idx_off")
          On = false;
        else if (On)
          Set.insert(&Op);
      }
      for (Block *S : B.getSuccessors())
        if (On && !InOn.lookup(S)) {
          InOn[S] = true;
          Changed = true;
        }
    }
  }
}

bool InstInfoCache::inIndexedMode(Operation *Op) {
  Operation *Fn = functionOf(Op);
  if (!Fn) {
    // Detached or new: look back in its block.
    return false;
  }
  auto It = Indexed.find(Fn);
  if (It == Indexed.end()) {
    computeIndexed(Fn);
    It = Indexed.find(Fn);
  }
  if (It->second.contains(Op))
    return true;
  if (It->second.empty())
    return false;
  // Ops added after the computation: scan back in the block.
  for (Operation *P = Op->getPrevNode(); P; P = P->getPrevNode()) {
    StringRef M = get(P).Mnemonic;
    if (M == "s_set_gpr_idx_on")
      return true;
    if (M == "s_set_gpr_idx_off")
      return false;
    if (It->second.contains(P))
      return true;
  }
  return false;
}

bool InstInfoCache::unknownRegisters(Operation *Op) {
  const InstInfo &I = get(Op);
  if ((I.IsCall && !I.CalleeEffectsKnown &&
       (!HasCallEffects || I.InternalCall)) ||
      I.Kind == OpKind::Raw || I.Kind == OpKind::Unknown)
    return true;
  if (I.SideEffectWhy == "M0-relative register access" ||
      I.SideEffectWhy == "VGPR indexing mode")
    return true;
  return I.isVALU() && inIndexedMode(Op);
}
