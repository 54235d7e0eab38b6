//===- Hazards.cpp - Wait states the hardware does not insert -------------===//

#include "asmevo/Analysis/Hazards.h"

#include "asmevo/Analysis/InternalCalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace mlir;
using namespace asmevo;

//===----------------------------------------------------------------------===//
// Operand helpers
//===----------------------------------------------------------------------===//

namespace {
enum class RegFilter { Scalar, Vector, VGPR, Any };
} // namespace

static bool unitMatches(const RegUnitInfo &RU, unsigned U, RegFilter F) {
  if (RU.isPseudo(U))
    return false;
  RegKind K = RU.kindOf(U);
  switch (F) {
  case RegFilter::Scalar:
    return K == RegKind::SGPR || K == RegKind::TTMP || K == RegKind::Special;
  case RegFilter::Vector:
    return K == RegKind::VGPR || K == RegKind::AGPR;
  case RegFilter::VGPR:
    return K == RegKind::VGPR;
  case RegFilter::Any:
    return true;
  }
  return false;
}

/// Units of the register operands selected by Which, filtered.
static void regUnits(const RegUnitInfo &RU, const InstInfo &I, bool Defs,
                     bool ExplicitOnly, RegFilter F, UnitList &Out) {
  // The cached list is sorted: into an empty list, appending keeps it so.
  bool Append = Out.empty();
  for (uint16_t U : I.RegUnits[Defs][ExplicitOnly])
    if (unitMatches(RU, U, F)) {
      if (Append)
        Out.push_back(U);
      else
        RegUnitInfo::addUnit(Out, U);
    }
}

static void operandUnits(const RegUnitInfo &RU, const InstInfo &I, int Index,
                         UnitList &Out) {
  for (const InstInfo::RegOperand &R : I.Regs)
    if (R.OperandIndex == Index)
      RU.addReg(Out, R.Reg);
}

static const InstInfo::RegOperand *operand(const InstInfo &I, int Index) {
  for (const InstInfo::RegOperand &R : I.Regs)
    if (R.OperandIndex == Index)
      return &R;
  return nullptr;
}

/// Units of the named special register (vcc, exec, m0) as the MC layer
/// spells it.
static void specialUnits(const RegUnitInfo &RU, StringRef Prefix,
                         UnitList &Out) {
  for (unsigned U = 0; U < RU.numMCUnits(); ++U)
    if (RU.kindOf(U) == RegKind::Special &&
        RU.specialName(U).starts_with(Prefix))
      RegUnitInfo::addUnit(Out, U);
}

namespace {
/// Per-target unit sets used by several rules.
struct SpecialUnits {
  UnitList VCC, EXEC, M0;
  explicit SpecialUnits(const RegUnitInfo &RU) {
    specialUnits(RU, "vcc_", VCC);
    specialUnits(RU, "exec_", EXEC);
    specialUnits(RU, "m0", M0);
  }
};
} // namespace

static const SpecialUnits &specials(const RegUnitInfo &RU) {
  static llvm::DenseMap<const RegUnitInfo *, std::unique_ptr<SpecialUnits>> Map;
  auto &S = Map[&RU];
  if (!S)
    S = std::make_unique<SpecialUnits>(RU);
  return *S;
}

/// Adds to Units the units of two sorted lists that both have and that
/// pass both filters. A merge that filters as it goes: it runs for every
/// pair of a hazard window, and copying filtered lists first was a tenth of
/// amdgcn-schedule's time.
static void intersectFiltered(const RegUnitInfo &RU, ArrayRef<uint16_t> A,
                              ArrayRef<uint16_t> B, RegFilter F1, RegFilter F2,
                              UnitList &Units) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (A[I] < B[J]) {
      ++I;
    } else if (B[J] < A[I]) {
      ++J;
    } else {
      if (unitMatches(RU, A[I], F1) && unitMatches(RU, A[I], F2))
        RegUnitInfo::addUnit(Units, A[I]);
      ++I, ++J;
    }
  }
}

/// Intersection of P's register defs (filtered) with a sorted unit list.
static bool defsHit(const HazardContext &Ctx, const InstInfo &P,
                    ArrayRef<uint16_t> Targets, RegFilter F, UnitList &Units,
                    bool ExplicitOnly = false) {
  intersectFiltered(Ctx.Cache.units(), P.RegUnits[/*Defs=*/true][ExplicitOnly],
                    Targets, F, RegFilter::Any, Units);
  return !Units.empty();
}

/// defsHit with the targets C's own register uses (CDefs: defs), filtered
/// by FC and CExplicitOnly, without building that list: every pair of a
/// hazard window asks it with the same C.
static bool defsHitIn(const HazardContext &Ctx, const InstInfo &P,
                      const InstInfo &C, bool CDefs, RegFilter FC,
                      bool CExplicitOnly, RegFilter F, UnitList &Units,
                      bool ExplicitOnly = false) {
  intersectFiltered(Ctx.Cache.units(), P.RegUnits[/*Defs=*/true][ExplicitOnly],
                    C.RegUnits[CDefs][CExplicitOnly], F, FC, Units);
  return !Units.empty();
}

/// Whether I writes a register unit that passes F.
static bool writesAny(const HazardContext &Ctx, const InstInfo &I,
                      RegFilter F) {
  for (uint16_t U : I.RegUnits[/*Defs=*/true][/*ExplicitOnly=*/false])
    if (unitMatches(Ctx.Cache.units(), U, F))
      return true;
  return false;
}

static UnitList uses(const HazardContext &Ctx, const InstInfo &I, RegFilter F,
                     bool ExplicitOnly) {
  UnitList L;
  regUnits(Ctx.Cache.units(), I, false, ExplicitOnly, F, L);
  return L;
}

static UnitList defs(const HazardContext &Ctx, const InstInfo &I, RegFilter F,
                     bool ExplicitOnly) {
  UnitList L;
  regUnits(Ctx.Cache.units(), I, true, ExplicitOnly, F, L);
  return L;
}

static bool isGFX942(const HazardContext &Ctx) {
  return Ctx.Target == HazardTarget::GFX942;
}

static bool isSetReg(const InstInfo &I) {
  return I.Mnemonic.starts_with("s_setreg");
}

/// The hardware register id of s_getreg/s_setreg (SIMM16[5:0]).
static int hwRegId(const InstInfo &I) {
  if (!I.D)
    return -1;
  for (const MCOperand &O : I.D->Inst)
    if (O.isImm())
      return int(O.getImm() & 0x3f);
  return -1;
}

static bool isReadM0Consumer(const InstInfo &C) {
  StringRef M = C.Mnemonic;
  if (M.starts_with("s_sendmsg") || M.starts_with("s_ttracedata") ||
      M.starts_with("s_movrel") || M.starts_with("v_interp") ||
      M == "ds_read_addtid_b32" || M == "ds_write_addtid_b32" ||
      M.starts_with("ds_gws") || M.starts_with("ds_ordered_count"))
    return true;
  if (C.MemWrite & MemSpace::GDS)
    return true;
  // LDS DMA: buffer/global loads that write LDS.
  return (C.isVMEMOrFLAT()) && (C.MemWrite & MemSpace::LDS) &&
         !(C.MemRead & MemSpace::LDS);
}

/// The register operand holding store data wider than 64 bits (the
/// "12-dword store" hazard), or -1.
static int wideStoreDataOperand(const HazardContext &Ctx, const InstInfo &P) {
  if (!P.MemWrite || !(P.isVMEM() || P.isFLAT()))
    return -1;
  const TargetInfo &TI = Ctx.Cache.target();
  int Data = -1;
  int Rsrc = -1;
  for (const InstInfo::RegOperand &R : P.Regs) {
    if (R.IsDef || R.OperandIndex < 0)
      continue;
    RegRange C = TI.classify(R.Reg);
    if ((C.Kind == RegKind::VGPR || C.Kind == RegKind::AGPR) && C.Count > 2)
      Data = R.OperandIndex;
    if (C.Kind == RegKind::SGPR && C.Count == 4)
      Rsrc = R.OperandIndex;
  }
  if (Data < 0)
    return -1;
  if (P.isVMEM() && Rsrc >= 0) {
    // MUBUF/MTBUF: only without a register soffset.
    if (const InstInfo::RegOperand *S = operand(P, Rsrc + 1))
      if (S->Reg.isValid())
        return -1;
  }
  return Data;
}

/// Does P write its destination shifted (SDWA dst_sel, the DST_OP_SEL bit
/// of src0_modifiers)? Like LLVM, for VOP3P that bit is op_sel_hi of src0,
/// set by default on packed ops: a packed op (v_pk_*, v_dot*) followed by a
/// VALU reading its result gets one wait state, as LLVM 22 emits for gfx942;
/// on the mix ops it is clear by default.
static bool computeWritesPartialDst(const HazardContext &Ctx,
                                    const InstInfo &P) {
  if (!P.D || P.isMAI())
    return false;
  std::string Text = Ctx.Cache.target().print(P.D->Inst);
  StringRef T(Text);
  if (P.isSDWA()) {
    size_t At = T.find("dst_sel:");
    return At != StringRef::npos && !T.substr(At).starts_with("dst_sel:DWORD");
  }
  if (P.has(InstFlag::VOP3P)) {
    size_t At = T.find("op_sel_hi:[");
    if (At != StringRef::npos)
      return T.substr(At + 11).starts_with("1");
    // Not printed: the printer's default, 1 for packed ops but 0 for the
    // mix ops (v_fma_mix*, v_mad_mix*: VOP3P without LLVM's IsPacked).
    return !P.Mnemonic.contains("_mix");
  }
  size_t At = T.find("op_sel:[");
  if (At == StringRef::npos)
    return false;
  StringRef L = T.substr(At + 8);
  L = L.take_until([](char C) { return C == ']'; });
  return L.ends_with("1");
}

/// computeWritesPartialDst, printed once per instruction (InstInfo caches it).
static bool writesPartialDst(const HazardContext &Ctx, const InstInfo &P) {
  if (P.PartialDst < 0)
    P.PartialDst = computeWritesPartialDst(Ctx, P);
  return P.PartialDst;
}

//===----------------------------------------------------------------------===//
// MFMA wait states (by passes; LLVM's sched model gives the passes)
//===----------------------------------------------------------------------===//

namespace {
enum class Xdl { No, Yes, Unsure };
}

static Xdl xdlOf(const HazardContext &Ctx, const InstInfo &I) {
  if (!I.isMFMA() || I.isDGEMM())
    return Xdl::No;
  if (!isGFX942(Ctx))
    return Xdl::Yes;
  if (I.Mnemonic.starts_with("v_smfmac"))
    return Xdl::Yes;
  // v_mfma_f32_*_f32 (fp32 inputs) are not XDL: see the file comment.
  if (I.Mnemonic.ends_with("f32") && !I.Mnemonic.ends_with("xf32"))
    return Xdl::No;
  return Xdl::Yes;
}

/// Max over the XDL assumptions that are possible for P and C.
template <typename Fn>
static int maxOverXdl(const HazardContext &Ctx, const InstInfo &P,
                      const InstInfo &C, Fn F) {
  Xdl XP = xdlOf(Ctx, P), XC = xdlOf(Ctx, C);
  int Best = 0;
  for (bool PX : {false, true}) {
    if ((XP == Xdl::Yes && !PX) || (XP == Xdl::No && PX))
      continue;
    for (bool CX : {false, true}) {
      if ((XC == Xdl::Yes && !CX) || (XC == Xdl::No && CX))
        continue;
      Best = std::max(Best, F(PX, CX));
    }
  }
  return Best;
}

static bool isDGEMM4x4(const InstInfo &I) {
  return I.isDGEMM() && I.Mnemonic.starts_with("v_mfma_f64_4x4");
}

/// gfx90a non-DGEMM by passes: 2 -> A, 8 -> B, 16 (or other) -> C.
static int byPasses90A(unsigned Passes, int A, int B, int C) {
  return Passes == 2 ? A : Passes == 8 ? B : C;
}

/// MFMA P writes a register that MFMA C reads as operand OpIndex.
static int mfmaAfterMfma(const HazardContext &Ctx, const InstInfo &P,
                         const InstInfo &C, int OpIndex, bool FullReg) {
  bool CSmfmac = C.Mnemonic.starts_with("v_smfmac");
  bool IsSrcC = !CSmfmac && OpIndex == 3;
  bool G942 = isGFX942(Ctx);
  return maxOverXdl(Ctx, P, C, [&](bool PX, bool CX) -> int {
    if (IsSrcC) {
      if (!C.isDGEMM() && !G942 && P.isDGEMM())
        return 0;
      if (FullReg) {
        if (isDGEMM4x4(P) && isDGEMM4x4(C))
          return 4;
        if (G942 && P.Passes == 2)
          return 2;
        return 0;
      }
      if (P.isDGEMM())
        return CX ? 0 : (isDGEMM4x4(P) ? 4 : 9);
      if (G942) {
        if (CX && !PX)
          return 0;
        return PX ? int(P.Passes) + 1 : int(P.Passes);
      }
      return C.isDGEMM() ? byPasses90A(P.Passes, 3, 9, 17)
                         : byPasses90A(P.Passes, 2, 8, 16);
    }
    if (P.isDGEMM())
      return isDGEMM4x4(P) ? 6 : 11;
    if (G942)
      return PX ? int(P.Passes) + 3 : int(P.Passes) + 2;
    return byPasses90A(P.Passes, 5, 11, 19);
  });
}

/// MFMA P writes a register that a non-MFMA VALU or memory/export op reads.
static int mfmaResultRead(const HazardContext &Ctx, const InstInfo &P,
                          const InstInfo &C) {
  bool Mem = C.isMemOrExport();
  if (P.isDGEMM())
    return P.Passes <= 4 ? (Mem ? 9 : 6) : (Mem ? 18 : 11);
  if (isGFX942(Ctx))
    return maxOverXdl(Ctx, P, C, [&](bool PX, bool) {
      return PX ? int(P.Passes) + 3 : int(P.Passes) + 2;
    });
  return byPasses90A(P.Passes, 5, 11, 19);
}

static int mfmaResultOverwrite(const HazardContext &Ctx, const InstInfo &P,
                               const InstInfo &C) {
  if (P.isDGEMM())
    return P.Passes <= 4 ? 6 : 11;
  if (isGFX942(Ctx))
    return maxOverXdl(Ctx, P, C, [&](bool PX, bool) {
      return PX ? int(P.Passes) + 3 : int(P.Passes) + 2;
    });
  return byPasses90A(P.Passes, 5, 11, 19);
}

/// Soft clauses (XNACK replay): the run of consecutive ops of one class
/// right before C (in its block) plus C must not write a register any of
/// them reads, and a store cannot join a clause that writes registers.
/// Only the op right before C is checked as producer; the clause is
/// gathered from there, at most as far back as LLVM looks (19 instructions
/// in functions that use AGPRs, 5 otherwise): compiled code is hazard-free
/// by that definition.
static int softClause(const HazardContext &Ctx, const InstInfo &P,
                      const InstInfo &C, UnitList &U,
                      bool (*InClass)(const InstInfo &)) {
  bool InSeq = !Ctx.Seq.empty();
  if (!InClass(P) ||
      (InSeq ? Ctx.Seq.back() != P.Op : P.Op->getNextNode() != C.Op))
    return 0;
  UnitList ClauseDefs, ClauseUses;
  unsigned Window = Ctx.Cache.functionUsesAGPRs(C.Op) ? 19 : 5;
  auto Add = [&](const InstInfo &I) {
    for (uint16_t Y : defs(Ctx, I, RegFilter::Any, false))
      RegUnitInfo::addUnit(ClauseDefs, Y);
    for (uint16_t Y : uses(Ctx, I, RegFilter::Any, false))
      RegUnitInfo::addUnit(ClauseUses, Y);
  };
  if (InSeq) {
    // The clause in the hypothetical order; an s_nop before an op ends it.
    for (int K = int(Ctx.Seq.size()) - 1; K >= 0 && Window; --K, --Window) {
      const InstInfo &I = Ctx.Cache.get(Ctx.Seq[K]);
      if (!InClass(I))
        break;
      Add(I);
      if (size_t(K) < Ctx.SeqGap.size() && Ctx.SeqGap[K] > 0)
        break;
    }
  } else {
    for (Operation *X = P.Op; X && Window; X = X->getPrevNode(), --Window) {
      const InstInfo &I = Ctx.Cache.get(X);
      if (!InClass(I))
        break;
      Add(I);
    }
  }
  if (ClauseDefs.empty())
    return 0;
  if (C.MemWrite)
    return 1;
  for (uint16_t Y : defs(Ctx, C, RegFilter::Any, false))
    RegUnitInfo::addUnit(ClauseDefs, Y);
  for (uint16_t Y : uses(Ctx, C, RegFilter::Any, false))
    RegUnitInfo::addUnit(ClauseUses, Y);
  RegUnitInfo::intersect(ClauseDefs, ClauseUses, U);
  return U.empty() ? 0 : 1;
}

static bool isLegacyVALU(const InstInfo &I) {
  return I.isVALU() && !I.isMFMA();
}

static bool isMaiValuConsumer(const HazardContext &, const InstInfo &C) {
  return (C.isVALU() && !C.isMFMA()) || C.isMemOrExport();
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// Rows of every gfx9 target.
static constexpr unsigned All9 = unsigned(HazardTarget::GFX9) |
                                 unsigned(HazardTarget::GFX90A) |
                                 unsigned(HazardTarget::GFX942);
/// MFMA rows (gfx90a and CDNA3).
static constexpr unsigned Both =
    unsigned(HazardTarget::GFX90A) | unsigned(HazardTarget::GFX942);
static constexpr unsigned Only942 = unsigned(HazardTarget::GFX942);
static constexpr unsigned Only90A = unsigned(HazardTarget::GFX90A);

static const HazardRule Rules[] = {
    {"valu-sgpr-vmem", "VALU writes SGPR/VCC/EXEC -> VMEM/FLAT reads it", All9,
     [](const HazardContext &, const InstInfo &C) { return C.isVMEMOrFLAT(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       return defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Scalar, false,
                        RegFilter::Scalar, U)
                  ? 5
                  : 0;
     },
     "ISA table 'VALU writes SGPR -> VMEM reads that SGPR' (5); LLVM "
     "GCNHazardRecognizer::checkVMEMHazards"},

    {"dpp-vgpr", "VGPR write -> DPP reads that VGPR", All9,
     [](const HazardContext &, const InstInfo &C) { return C.isDPP(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       return defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::VGPR, true,
                        RegFilter::VGPR, U)
                  ? 2
                  : 0;
     },
     "ISA table 'VALU writes VGPR -> VALU DPP reads that VGPR' (2); LLVM "
     "checkDPPHazards (any writer)"},

    {"dpp-exec", "VALU writes EXEC -> DPP op", All9,
     [](const HazardContext &, const InstInfo &C) { return C.isDPP(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       return defsHit(Ctx, P, specials(Ctx.Cache.units()).EXEC,
                      RegFilter::Scalar, U)
                  ? 5
                  : 0;
     },
     "ISA table 'VALU writes EXEC -> VALU DPP op' (5); LLVM checkDPPHazards"},

    {"div-fmas-vcc", "VALU writes VCC -> v_div_fmas", All9,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic.starts_with("v_div_fmas");
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       return defsHit(Ctx, P, specials(Ctx.Cache.units()).VCC,
                      RegFilter::Scalar, U)
                  ? 4
                  : 0;
     },
     "ISA table 'VALU writes VCC (incl. v_div_scale) -> V_DIV_FMAS' (4); "
     "LLVM checkDivFMasHazards"},

    {"rwlane-lane-select",
     "VALU writes SGPR -> v_readlane/v_writelane uses it as lane select", All9,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic == "v_readlane_b32" || C.Mnemonic == "v_writelane_b32";
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       UnitList Sel;
       operandUnits(Ctx.Cache.units(), C, 2, Sel);
       return defsHit(Ctx, P, Sel, RegFilter::Scalar, U) ? 4 : 0;
     },
     "ISA table 'VALU writes SGPR/VCC -> V_{READ,WRITE}LANE using that SGPR "
     "as lane select' (4); LLVM checkRWLaneHazards"},

    {"setreg-getreg", "s_setreg -> s_getreg of the same hardware register",
     All9,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic.starts_with("s_getreg");
     },
     [](const HazardContext &, const InstInfo &P, const InstInfo &C,
        UnitList &) { return isSetReg(P) && hwRegId(P) == hwRegId(C) ? 2 : 0; },
     "ISA table 'S_SETREG -> S_GETREG same reg' (2); LLVM "
     "checkGetRegHazards, getSetRegWaitStates (gfx9: 2)"},

    {"setreg-setreg", "s_setreg -> s_setreg of the same hardware register",
     All9, [](const HazardContext &, const InstInfo &C) { return isSetReg(C); },
     [](const HazardContext &, const InstInfo &P, const InstInfo &C,
        UnitList &) { return isSetReg(P) && hwRegId(P) == hwRegId(C) ? 2 : 0; },
     "ISA table 'S_SETREG -> S_SETREG same reg' (2); LLVM "
     "checkSetRegHazards"},

    {"salu-m0", "SALU writes M0 -> s_sendmsg/GDS/s_movrel/LDS add-TID/LDS DMA",
     All9,
     [](const HazardContext &, const InstInfo &C) {
       return isReadM0Consumer(C);
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &,
        UnitList &U) {
       if (!P.isSALU())
         return 0;
       return defsHit(Ctx, P, specials(Ctx.Cache.units()).M0,
                      RegFilter::Scalar, U)
                  ? 1
                  : 0;
     },
     "ISA table 'SALU writes M0 -> GDS, S_SENDMSG, S_TTRACEDATA; LDS add-TID, "
     "buffer/global LDS DMA, s_movrel' (1); LLVM checkReadM0Hazards "
     "(hasReadM0SendMsg/MovRelInterp/LdsDmaHazard on GFX9)"},

    {"wide-store-data",
     "VMEM store of more than 64 bits -> VALU overwrites the store data", All9,
     [](const HazardContext &, const InstInfo &C) { return C.isVALU(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       int Data = wideStoreDataOperand(Ctx, P);
       if (Data < 0)
         return 0;
       UnitList DataUnits;
       operandUnits(Ctx.Cache.units(), P, Data, DataUnits);
       RegUnitInfo::intersect(defs(Ctx, C, RegFilter::Vector, false),
                              DataUnits, U);
       if (U.empty())
         return 0;
       return isGFX942(Ctx) ? 2 : 1;
     },
     "ISA table 'FLAT/BUFFER store X3/X4, CMPSWAP_X2 -> write VGPRs holding "
     "the write data' (1; 2 on gfx940); LLVM checkVALUHazardsHelper / "
     "createsVALUHazard"},

    {"trans-use", "transcendental VALU -> non-transcendental VALU reads result",
     Only942,
     [](const HazardContext &, const InstInfo &C) {
       return C.isVALU() && !C.isTRANS();
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isTRANS())
         return 0;
       return defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Any, true,
                        RegFilter::Vector, U)
                  ? 1
                  : 0;
     },
     "CDNA3 ISA table 'VALU Trans op -> non-trans VALU consumes result' (1); "
     "LLVM checkVALUHazards (hasTransForwardingHazard)"},

    {"dst-sel-forward",
     "VALU writes part of a VGPR (SDWA dst_sel / op_sel) -> VALU reads it",
     Only942,
     [](const HazardContext &, const InstInfo &C) { return C.isVALU(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       if (!defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Any, true,
                      RegFilter::Vector, U, /*ExplicitOnly=*/true))
         return 0;
       return writesPartialDst(Ctx, P) ? 1 : 0;
     },
     "CDNA3 ISA table 'VALU op with OPSEL/SDWA changing the result's bit "
     "position -> VALU consumes the result' (1); LLVM checkVALUHazards "
     "(hasDstSelForwardingHazard, gfx940; for VOP3P the src0 op_sel_hi bit)"},

    {"valu-sgpr-valu", "VALU writes SGPR/VCC -> VALU reads that SGPR/VCC",
     Only942,
     [](const HazardContext &, const InstInfo &C) { return C.isVALU(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       // Most VALU ops write no scalar register: no need to gather C's
       // scalar reads (this runs for every pair of a window).
       if (!P.isVALU() || !writesAny(Ctx, P, RegFilter::Scalar))
         return 0;
       UnitList Read = uses(Ctx, C, RegFilter::Scalar, true);
       UnitList Implicit = uses(Ctx, C, RegFilter::Scalar, false);
       UnitList VccRead;
       RegUnitInfo::intersect(Implicit, specials(Ctx.Cache.units()).VCC,
                              VccRead);
       for (uint16_t X : VccRead)
         RegUnitInfo::addUnit(Read, X);
       return defsHit(Ctx, P, Read, RegFilter::Scalar, U) ? 2 : 0;
     },
     "CDNA3 ISA table 'VALU writes SGPR -> VALU reads that SGPR' (2); LLVM "
     "checkVALUHazards (hasVDecCoExecHazard)"},

    {"valu-vgpr-readlane",
     "VALU writes VGPR -> v_readlane/v_readfirstlane reads it as vsrc0",
     Only942,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic == "v_readlane_b32" ||
              C.Mnemonic == "v_readfirstlane_b32";
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       UnitList Src;
       operandUnits(Ctx.Cache.units(), C, 1, Src);
       return defsHit(Ctx, P, Src, RegFilter::Vector, U) ? 1 : 0;
     },
     "CDNA3 ISA table 'VALU writes VGPRn -> v_readlane vsrc0 reads VGPRn' (1);"
     " LLVM checkVALUHazards (VALUWriteVGPRReadlaneRead)"},

    {"valu-exec-rwlane",
     "VALU writes EXEC -> v_readlane/v_readfirstlane/v_writelane", Only942,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic == "v_readlane_b32" ||
              C.Mnemonic == "v_readfirstlane_b32" ||
              C.Mnemonic == "v_writelane_b32";
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &,
        UnitList &U) {
       if (!P.isVALU())
         return 0;
       return defsHit(Ctx, P, specials(Ctx.Cache.units()).EXEC,
                      RegFilter::Scalar, U)
                  ? 4
                  : 0;
     },
     "CDNA3 ISA table 'VALU writes EXEC -> v_readlane/readfirstlane/writelane'"
     " (4); LLVM checkVALUHazards (VALUWriteEXECRWLane)"},

    {"valu-exec-mfma", "VALU writes EXEC -> MFMA", Both,
     [](const HazardContext &, const InstInfo &C) { return C.isMFMA(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &,
        UnitList &U) {
       if (!isLegacyVALU(P))
         return 0;
       return defsHit(Ctx, P, specials(Ctx.Cache.units()).EXEC,
                      RegFilter::Scalar, U)
                  ? 4
                  : 0;
     },
     "MI200/CDNA3 ISA table 'VALU writes EXEC -> MFMA' (4); LLVM "
     "checkMAIHazards90A"},

    {"valu-vgpr-mfma", "VALU (not MFMA/DOT) writes VGPR/AGPR -> MFMA reads it",
     Both, [](const HazardContext &, const InstInfo &C) { return C.isMFMA(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!isLegacyVALU(P) || P.isDOT())
         return 0;
       return defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Vector, true,
                        RegFilter::Vector, U)
                  ? 2
                  : 0;
     },
     "MI200/CDNA3 ISA table 'VALU writes VGPR -> MFMA reads it' (2); LLVM "
     "checkMAIHazards90A (LegacyVALUNotDotWritesVGPRWaitStates)"},

    {"mfma-mfma", "MFMA writes VGPR/AGPR -> MFMA reads it (SrcA/B/C)", Both,
     [](const HazardContext &, const InstInfo &C) { return C.isMFMA(); },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isMFMA())
         return 0;
       // Each source read below is among C's explicit uses: without a
       // common unit no operand is hit (and its units need not be made).
       if (!RegUnitInfo::intersects(P.RegUnits[/*Defs=*/true][true],
                                    C.RegUnits[/*Defs=*/false][true]))
         return 0;
       const RegUnitInfo &RU = Ctx.Cache.units();
       const InstInfo::RegOperand *Dst = operand(P, 0);
       int Need = 0;
       for (const InstInfo::RegOperand &R : C.Regs) {
         if (R.IsDef || R.OperandIndex < 0)
           continue;
         UnitList Read, Hit;
         RU.addReg(Read, R.Reg);
         if (!defsHit(Ctx, P, Read, RegFilter::Vector, Hit, true))
           continue;
         bool Full = Dst && Dst->Reg == R.Reg;
         int N = mfmaAfterMfma(Ctx, P, C, R.OperandIndex, Full);
         if (N > 0) {
           for (uint16_t X : Hit)
             RegUnitInfo::addUnit(U, X);
           Need = std::max(Need, N);
         }
       }
       return Need;
     },
     "MI200 ISA MFMA dependency table (SrcC 2/8/16 (+1 for DGEMM readers), "
     "SrcA/B 5/11/19, DGEMM 4/9, 6/11); CDNA3 table (XDL SrcC passes+1, SMFMA "
     "passes, SrcA/B passes+3/+2); LLVM checkMAIHazards90A"},

    {"mfma-valu-read", "MFMA writes VGPR/AGPR -> VALU/VMEM/LDS/export reads it",
     Both, isMaiValuConsumer,
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isMFMA())
         return 0;
       if (!defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Vector, true,
                      RegFilter::Vector, U, /*ExplicitOnly=*/true))
         return 0;
       return mfmaResultRead(Ctx, P, C);
     },
     "MI200 ISA 'XDL write VGPR -> VALU/VMEM/LDS/EXP read' (5/11/19, DGEMM "
     "6/11 VALU, 9/18 memory); CDNA3 (XDL passes+3, SMFMA passes+2); LLVM "
     "checkMAIVALUHazards"},

    {"mfma-valu-write",
     "MFMA writes VGPR/AGPR -> VALU/VMEM/LDS writes it again (WAW)", Both,
     isMaiValuConsumer,
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isMFMA())
         return 0;
       if (!defsHitIn(Ctx, P, C, /*CDefs=*/true, RegFilter::Vector, true,
                      RegFilter::Vector, U, /*ExplicitOnly=*/true))
         return 0;
       return mfmaResultOverwrite(Ctx, P, C);
     },
     "MI200 ISA 'XDL write VGPR -> VALU write VGPR (WAW)' (5/11/19, DGEMM "
     "6/11); CDNA3 (passes+3/+2); LLVM checkMAIVALUHazards"},

    {"mfma-srcc-overwrite",
     "MFMA reads SrcC -> VALU/VMEM/LDS overwrites it (WAR)", Both,
     isMaiValuConsumer,
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isMFMA() || P.isDGEMM() || P.Mnemonic.starts_with("v_smfmac"))
         return 0;
       if (isGFX942(Ctx) && xdlOf(Ctx, P) == Xdl::No)
         return 0;
       // SrcC is one of P's explicit operands: C writing none of their
       // units overwrites no SrcC unit.
       ArrayRef<uint16_t> CDefs = C.RegUnits[/*Defs=*/true][true];
       if (!RegUnitInfo::intersects(CDefs, P.RegUnits[/*Defs=*/false][true]) &&
           !RegUnitInfo::intersects(CDefs, P.RegUnits[/*Defs=*/true][true]))
         return 0;
       UnitList SrcC;
       operandUnits(Ctx.Cache.units(), P, 3, SrcC);
       RegUnitInfo::intersect(defs(Ctx, C, RegFilter::Vector, true), SrcC, U);
       if (U.empty())
         return 0;
       switch (P.Passes) {
       case 2:
         return 1;
       case 4:
         return 3;
       case 8:
         return 7;
       default:
         return 15;
       }
     },
     "MI200 ISA 'XDL read VGPR as SrcC -> VALU write' (1/7/15); CDNA3 4-pass "
     "XDL (3); LLVM checkMAIVALUHazards (SMFMA*ReadVgprVALUWarWaitStates)"},

    {"dot-read", "DOT writes VGPR -> VALU/memory reads it", Both,
     isMaiValuConsumer,
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isDOT())
         return 0;
       const RegUnitInfo &RU = Ctx.Cache.units();
       int LastUse = -1;
       for (const InstInfo::RegOperand &R : C.Regs)
         if (!R.IsDef && R.OperandIndex >= 0)
           LastUse = std::max(LastUse, R.OperandIndex);
       for (const InstInfo::RegOperand &R : C.Regs) {
         if (R.IsDef || R.OperandIndex < 0)
           continue;
         // The same DOT opcode may read the result as SrcC (accumulate).
         if (P.Opcode == C.Opcode && R.OperandIndex == LastUse)
           continue;
         UnitList Read;
         RU.addReg(Read, R.Reg);
         defsHit(Ctx, P, Read, RegFilter::Vector, U, true);
       }
       return U.empty() ? 0 : 3;
     },
     "MI200 ISA 'DOT write -> same DOT SrcA/B or other VALU read' (3); LLVM "
     "checkMAIVALUHazards (DotWriteSameDotReadSrcAB, "
     "DotWriteDifferentVALURead)"},

    {"dot-write", "DOT writes VGPR -> a different VALU writes it", Both,
     isMaiValuConsumer,
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isDOT() || P.Opcode == C.Opcode)
         return 0;
       return defsHitIn(Ctx, P, C, /*CDefs=*/true, RegFilter::Vector, true,
                        RegFilter::Vector, U, /*ExplicitOnly=*/true)
                  ? 3
                  : 0;
     },
     "LLVM checkMAIVALUHazards (DotWriteDifferentVALUWrite) (3)"},

    {"dgemm-fma64", "DGEMM -> v_fma_f64/v_fmac_f64", Both,
     [](const HazardContext &, const InstInfo &C) {
       return C.Mnemonic.starts_with("v_fma_f64") ||
              C.Mnemonic.starts_with("v_fmac_f64");
     },
     [](const HazardContext &, const InstInfo &P, const InstInfo &,
        UnitList &) { return P.isDGEMM() ? 2 : 0; },
     "LLVM checkMAIVALUHazards (DMFMAToFMA64WaitStates) (2)"},

    {"valu-dgemm-vmem",
     "VALU writes VGPR, a DGEMM follows, then VMEM/LDS reads the VGPR", Only90A,
     [](const HazardContext &, const InstInfo &C) {
       return C.isVMEMOrFLAT() || C.isDS();
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       if (!P.isVALU() || !Ctx.DGEMMBetween)
         return 0;
       return defsHitIn(Ctx, P, C, /*CDefs=*/false, RegFilter::Vector, true,
                        RegFilter::Vector, U)
                  ? 2
                  : 0;
     },
     "LLVM checkMAIVALUHazards (DMFMABetweenVALUWriteVMEMRead, gfx90a HW bug "
     "workaround) (2)",
     /*ReadsOrder=*/true},

    {"smem-soft-clause",
     "SMEM soft clause (xnack): a clause must not write what it reads", All9,
     [](const HazardContext &Ctx, const InstInfo &C) {
       return Ctx.Cache.xnackEnabled() && C.isSMEM();
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       return softClause(Ctx, P, C, U,
                         [](const InstInfo &I) { return I.isSMEM(); });
     },
     "LLVM checkSoftClauseHazards (only with xnack enabled or 'any') (1: "
     "break the clause)",
     /*ReadsOrder=*/true},

    {"vmem-soft-clause",
     "VMEM soft clause (xnack): a clause must not write what it reads", All9,
     [](const HazardContext &Ctx, const InstInfo &C) {
       return Ctx.Cache.xnackEnabled() && C.isVMEMOrFLAT();
     },
     [](const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
        UnitList &U) {
       return softClause(Ctx, P, C, U,
                         [](const InstInfo &I) { return I.isVMEMOrFLAT(); });
     },
     "LLVM checkSoftClauseHazards (only with xnack enabled or 'any') (1: "
     "break the clause)",
     /*ReadsOrder=*/true},
};

ArrayRef<HazardRule> asmevo::hazardRules() { return Rules; }

//===----------------------------------------------------------------------===//
// Checker
//===----------------------------------------------------------------------===//

std::string HazardPair::message(InstInfoCache &C) const {
  std::string Regs = C.units().describe(Units);
  return formatv("hazard {0} ({1}; {2}): {3}{4} by {5}, then {6}: needs {7} "
                 "wait state{8} between them, has {9} ({10} missing)",
                 Rule->Id, Rule->Text, Rule->Source, Regs.empty() ? "" : Regs,
                 Regs.empty() ? "produced" : " written", C.describe(Producer),
                 C.describe(Consumer), Required, Required == 1 ? "" : "s",
                 Have, std::max(0, Required - Have))
      .str();
}

HazardChecker::HazardChecker(InstInfoCache &Cache, bool MemoizePairs)
    : Cache(Cache), Memoize(MemoizePairs) {}

namespace {
struct Walker {
  using Reached = std::pair<const InstInfo *, int>;
  Walker(InstInfoCache &Cache, const InstInfo *C) : Cache(Cache), C(C) {}
  InstInfoCache &Cache;
  /// The consumer; null: the walk only collects the ops it reaches
  /// (HazardChecker::reach).
  const InstInfo *C;
  SmallVector<const HazardRule *, 8> Applicable;
  // (producer, rule) -> best pair so far (fewest wait states).
  llvm::DenseMap<std::pair<Operation *, const HazardRule *>, HazardPair> Found;
  // Fewest wait states a walk entered a place with: (block end, call whose
  // return led there) or (call site, null).
  llvm::DenseMap<std::pair<void *, Operation *>, int> BestEntry;
  /// The internal calls of the consumer's function (InternalCallModel),
  /// when modelled: the walk follows the instructions as they run, back
  /// from after a call into each subroutine it may reach (through its
  /// returns) and from a subroutine's entry to the calls that reach it.
  const InternalCallModel *Calls = nullptr;
  /// What lies back from a call or a subroutine entry
  /// (HazardChecker::reach), when the walk may use it: no applicable rule
  /// reads the order, so what a producer needs does not depend on the path
  /// the walk took to it.
  llvm::function_ref<ArrayRef<Reached>(Operation *, Block *)> Reach;
  /// Collecting: each op reached, at the fewest wait states, in the order
  /// first reached (ReachedAt: its index there).
  SmallVector<Reached, 0> Collected;
  llvm::DenseMap<Operation *, unsigned> ReachedAt;

  bool enter(void *Where, Operation *Call, int Dist) {
    auto [It, New] = BestEntry.try_emplace({Where, Call}, Dist);
    if (!New && It->second <= Dist)
      return false;
    It->second = Dist;
    return true;
  }

  void collect(const InstInfo &P, int Dist) {
    auto [It, New] = ReachedAt.try_emplace(P.Op, Collected.size());
    if (New)
      Collected.push_back({&P, Dist});
    else
      Collected[It->second].second =
          std::min(Collected[It->second].second, Dist);
  }

  /// P reached Dist wait states back from the consumer. (Inlined: the
  /// walk's innermost step, as it was before the walks were summarized.)
  LLVM_ATTRIBUTE_ALWAYS_INLINE void visit(const InstInfo &P, int Dist,
                                          const HazardContext &Ctx) {
    if (!C)
      return collect(P, Dist);
    for (const HazardRule *R : Applicable) {
      UnitList U;
      int Need = R->Check(Ctx, P, *C, U);
      if (Need <= 0)
        continue;
      auto Key = std::make_pair(P.Op, R);
      auto FIt = Found.find(Key);
      if (FIt == Found.end() || Dist < FIt->second.Have) {
        HazardPair HP;
        HP.Rule = R;
        HP.Producer = P.Op;
        HP.Consumer = C->Op;
        HP.Units = U;
        HP.Required = Need;
        HP.Have = Dist;
        Found[Key] = HP;
      }
    }
  }

  /// Where walks continue from (call or subroutine entry) is summarized:
  /// visits what they would visit there, each op at its fewest wait states
  /// (what the walk keeps), as far as this walk may go.
  bool visitReach(Operation *Call, Block *Entry, int Dist,
                  const HazardContext &Ctx) {
    if (!Reach)
      return false;
    for (auto [P, E] : Reach(Call, Entry)) {
      if (Dist + E >= MaxHazardWaitStates)
        break;
      visit(*P, Dist + E, Ctx);
    }
    return true;
  }

  /// Reached Call (an internal call) from the op after it: continues right
  /// before that op, at the returns of the subroutines.
  void afterCall(Operation *Call, int Dist, const HazardContext &Ctx) {
    for (Block *Entry : Calls->targetsOf(Call))
      for (Operation *R : Calls->subroutine(Entry)->Returns)
        if (enter(R->getBlock(), Call, Dist))
          walk(R->getBlock(), R->getReverseIterator(), Dist, Ctx, Call);
  }

  /// Reached a subroutine's entry with no call to return to: continues at
  /// every call that may enter it.
  void atEntry(Block *Entry, int Dist, const HazardContext &Ctx) {
    for (Operation *S : Calls->callersOf(Entry))
      if (enter(S, nullptr, Dist))
        walk(S->getBlock(), S->getReverseIterator(), Dist, Ctx, nullptr, S);
  }

  /// Call: the call whose subroutine the walk is in, entered through its
  /// return (null: not in a subroutine, or in it from the consumer on).
  /// AtCall: It is a call site reached from its subroutine's entry (the
  /// call itself runs right before the subroutine).
  void walk(Block *B, Block::reverse_iterator It, int Dist, HazardContext Ctx,
            Operation *Call = nullptr, Operation *AtCall = nullptr) {
    for (auto E = B->rend(); It != E; ++It) {
      Operation *Op = &*It;
      const InstInfo &P = Cache.get(Op);
      if (P.Kind == OpKind::Fallthrough)
        continue;
      if (Calls && P.IsCall && Op != AtCall && !Calls->targetsOf(Op).empty()) {
        // Right before the op after a call: the subroutines' returns.
        if (!visitReach(Op, nullptr, Dist, Ctx))
          afterCall(Op, Dist, Ctx);
        return;
      }
      visit(P, Dist, Ctx);
      Dist += int(P.WaitStates);
      Ctx.DGEMMBetween |= P.isDGEMM();
      Ctx.OnlySMEMBetween &= P.isSMEM();
      Ctx.OnlyVMEMBetween &= P.isVMEMOrFLAT();
      if (Dist >= MaxHazardWaitStates)
        return;
    }
    if (Calls && Calls->subroutine(B)) {
      // A subroutine's entry: right after the call that entered it (the
      // one whose return led here, else every call that may reach it).
      if (Call) {
        if (enter(Call, nullptr, Dist))
          walk(Call->getBlock(), Call->getReverseIterator(), Dist, Ctx, nullptr,
               Call);
      } else if (!visitReach(nullptr, B, Dist, Ctx)) {
        atEntry(B, Dist, Ctx);
      }
    }
    for (Block *Pred : B->getPredecessors()) {
      if (!enter(Pred, Call, Dist))
        continue;
      walk(Pred, Pred->rbegin(), Dist, Ctx, Call);
    }
  }
};
} // namespace

ArrayRef<HazardChecker::Reached>
HazardChecker::reach(Operation *Call, Block *Entry,
                     const InternalCallModel &Calls) {
  void *Where = Call ? static_cast<void *>(Call) : Entry;
  if (auto It = Reaches.find(Where); It != Reaches.end())
    return It->second;
  // The walk from there at 0 wait states (it uses no summary: a place may
  // be reached again from itself).
  Walker W(Cache, nullptr);
  W.Calls = &Calls;
  HazardContext Ctx{Cache, Cache.hazardTarget()};
  if (Call)
    W.afterCall(Call, 0, Ctx);
  else
    W.atEntry(Entry, 0, Ctx);
  std::stable_sort(
      W.Collected.begin(), W.Collected.end(),
      [](const Reached &X, const Reached &Y) { return X.second < Y.second; });
  return Reaches[Where] = std::move(W.Collected);
}

void HazardChecker::pairsFor(Operation *Consumer,
                             SmallVectorImpl<HazardPair> &Out, bool All) {
  const InstInfo &C = Cache.get(Consumer);
  if (C.Kind == OpKind::Fallthrough || C.Kind == OpKind::Raw)
    return;
  HazardContext Ctx{Cache, Cache.hazardTarget()};
  Walker W(Cache, &C);
  for (const HazardRule &R : hazardRules())
    if ((R.Targets & unsigned(Cache.hazardTarget())) && R.IsConsumer(Ctx, C))
      W.Applicable.push_back(&R);
  if (W.Applicable.empty())
    return;
  Block *B = Consumer->getBlock();
  if (Operation *Fn = B->getParentOp(); Fn && Fn->hasAttr("internal_calls")) {
    const InternalCallModel &M = Cache.internalCalls(Fn);
    if (M.modelled())
      W.Calls = &M;
  }
  auto Reach = [&](Operation *Call, Block *Entry) {
    return reach(Call, Entry, *W.Calls);
  };
  if (Memoize && W.Calls &&
      llvm::none_of(W.Applicable,
                    [](const HazardRule *R) { return R->ReadsOrder; }))
    W.Reach = Reach;
  W.walk(B, std::next(Consumer->getReverseIterator()), 0, Ctx);
  SmallVector<HazardPair, 4> Pairs;
  for (auto &KV : W.Found)
    if (All || KV.second.violated())
      Pairs.push_back(KV.second);
  // Deterministic order: by rule table position, then by distance.
  std::sort(Pairs.begin(), Pairs.end(),
            [](const HazardPair &A, const HazardPair &B) {
              if (A.Rule != B.Rule)
                return A.Rule < B.Rule;
              return A.Have < B.Have;
            });
  Out.append(Pairs.begin(), Pairs.end());
}

int HazardChecker::missingBefore(Operation *Consumer) {
  SmallVector<HazardPair, 4> Pairs;
  pairsFor(Consumer, Pairs);
  int Missing = 0;
  for (const HazardPair &P : Pairs)
    Missing = std::max(Missing, P.Required - P.Have);
  return Missing;
}

void HazardChecker::rulesFor(const InstInfo &C, const HazardContext &Ctx,
                             ConsumerRules &Out) {
  for (const HazardRule &R : hazardRules())
    if ((R.Targets & unsigned(Cache.hazardTarget())) && R.IsConsumer(Ctx, C))
      (R.ReadsOrder ? Out.Order : Out.Pair).push_back(&R);
}

HazardChecker::ConsumerRules *HazardChecker::memoRules(const InstInfo &C) {
  auto [It, Inserted] = MemoRules.try_emplace(C.Op);
  if (Inserted)
    rulesFor(C, HazardContext{Cache, Cache.hazardTarget()}, It->second);
  ConsumerRules &R = It->second;
  return R.Pair.empty() && R.Order.empty() ? nullptr : &R;
}

int HazardChecker::pairNeed(const HazardContext &Ctx, const InstInfo &P,
                            const InstInfo &C, ConsumerRules &Rules) {
  auto compute = [&] {
    int Need = 0;
    for (const HazardRule *R : Rules.Pair) {
      UnitList U;
      Need = std::max(Need, R->Check(Ctx, P, C, U));
    }
    return Need;
  };
  if (!Memoize)
    return compute();
  auto [It, Inserted] = Rules.Need.try_emplace(P.Op, 0);
  if (Inserted)
    It->second = compute();
  return It->second;
}

int HazardChecker::missingAfter(ArrayRef<Operation *> Prior,
                                ArrayRef<int> GapBefore, Operation *Consumer) {
  const InstInfo &C = Cache.get(Consumer);
  if (C.Kind == OpKind::Fallthrough || C.Kind == OpKind::Raw)
    return 0;
  HazardContext Ctx{Cache, Cache.hazardTarget()};
  Ctx.Seq = Prior;
  Ctx.SeqGap = GapBefore;
  ConsumerRules Local;
  ConsumerRules *Rules = &Local;
  if (Memoize)
    Rules = memoRules(C);
  else
    rulesFor(C, Ctx, Local);
  if (!Rules || (Rules->Pair.empty() && Rules->Order.empty()))
    return 0;
  // The walk of Walker::walk over Prior instead of the IR. What a pair needs
  // is the largest of what its rules need: the rules that look only at the
  // two ops come from the memo, the others are asked here.
  int Missing = 0, Dist = 0;
  for (int K = int(Prior.size()) - 1; K >= 0; --K) {
    const InstInfo &P = Cache.get(Prior[K]);
    if (P.Kind == OpKind::Fallthrough)
      continue;
    int Need = Rules->Pair.empty() ? 0 : pairNeed(Ctx, P, C, *Rules);
    for (const HazardRule *R : Rules->Order) {
      UnitList U;
      Need = std::max(Need, R->Check(Ctx, P, C, U));
    }
    Missing = std::max(Missing, Need - Dist);
    int Gap = size_t(K) < GapBefore.size() ? GapBefore[K] : 0;
    Dist += int(P.WaitStates) + Gap;
    Ctx.DGEMMBetween |= P.isDGEMM();
    Ctx.OnlySMEMBetween &= P.isSMEM() && Gap == 0;
    Ctx.OnlyVMEMBetween &= P.isVMEMOrFLAT() && Gap == 0;
    if (Dist >= MaxHazardWaitStates)
      break;
  }
  return Missing;
}

HazardOrder::HazardOrder(HazardChecker &HC) : HC(HC) {
  assert(HC.Memoize && "HazardOrder asks a memoizing checker");
}

void HazardOrder::push(Operation *Op, int GapBefore) {
  Ops.push_back(Op);
  Gaps.push_back(GapBefore);
  Infos.push_back(&HC.Cache.get(Op));
}

int HazardOrder::missing(Operation *Consumer) {
  const InstInfo &C = HC.Cache.get(Consumer);
  if (C.Kind == OpKind::Fallthrough || C.Kind == OpKind::Raw)
    return 0;
  HazardChecker::ConsumerRules *Rules = HC.memoRules(C);
  if (!Rules)
    return 0;
  if (!Rules->Order.empty())
    return HC.missingAfter(Ops, Gaps, Consumer);
  // missingAfter's walk over the ops appended since the last answer; past
  // them, every earlier op is as many wait states further away as the walk
  // counted (what they missed, Answer::Missing, is that much less), or out
  // of reach when the walk stopped for distance. Missing is at least 0, and
  // no rule needs more than MaxHazardWaitStates, so the cut is the same.
  HazardContext Ctx{HC.Cache, HC.Cache.hazardTarget()};
  Answer &A = Answers[Consumer];
  int Missing = 0, Dist = 0;
  bool Reached = true;
  for (int K = int(Ops.size()) - 1; K >= int(A.Len); --K) {
    const InstInfo &P = *Infos[K];
    if (P.Kind == OpKind::Fallthrough)
      continue;
    Missing = std::max(Missing, HC.pairNeed(Ctx, P, C, *Rules) - Dist);
    Dist += int(P.WaitStates) + Gaps[K];
    if (Dist >= MaxHazardWaitStates) {
      Reached = false;
      break;
    }
  }
  if (Reached)
    Missing = std::max(Missing, A.Missing - Dist);
  A.Missing = Missing;
  A.Len = Ops.size();
  return Missing;
}

void HazardChecker::checkFunction(Operation *Fn,
                                  SmallVectorImpl<HazardPair> &Out) {
  for (Block &B : Fn->getRegion(0))
    for (Operation &Op : B)
      pairsFor(&Op, Out);
}
