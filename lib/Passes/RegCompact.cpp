//===- RegCompact.cpp - Renumber registers to lower the counts ------------===//
//
// A consistent renaming of a whole kernel: every register index i of a
// file moves to i - G * (number of fully unused aligned groups of G
// registers between the highest register live at entry and i). Shifting
// by multiples of G keeps every tuple's alignment (SGPR tuples up to 4,
// VGPR/AGPR tuples 2 on gfx90a/gfx942) and registers that stay in order
// keep tuples contiguous. Registers live at entry (what the hardware
// initializes: user/system SGPRs, workitem ids, preloaded kernel
// arguments) keep their numbers.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/Liveness.h"
#include "asmevo/CodeObject/Resources.h"
#include "asmevo/Passes/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace asmevo {
#define GEN_PASS_DEF_REGCOMPACT
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

constexpr unsigned NumFiles = 3; // SGPR, VGPR, AGPR
int fileOf(RegKind K) {
  return K == RegKind::SGPR ? 0 : K == RegKind::VGPR ? 1 : K == RegKind::AGPR ? 2 : -1;
}
const RegKind FileKinds[NumFiles] = {RegKind::SGPR, RegKind::VGPR,
                                     RegKind::AGPR};
const unsigned Granule[NumFiles] = {4, 2, 2};
const char *FileName[NumFiles] = {"SGPR", "VGPR", "AGPR"};

unsigned blocks(unsigned N, unsigned G) {
  return (std::max(N, 1u) + G - 1) / G - 1;
}

/// Waves per SIMD that the unified VGPR file allows (512 per lane, granule
/// 8, at most 8 waves on gfx90a/gfx942).
unsigned vgprWaves(unsigned Total) {
  unsigned Alloc = std::max(8u, (Total + 7) / 8 * 8);
  return std::min(8u, 512 / Alloc);
}

struct RegCompactPass : public asmevo::impl::RegCompactBase<RegCompactPass> {
  using Base::Base;

  void runOnOperation() override {
    rewrite::Summary S;
    S.Pass = "amdgcn-regcompact";
    SmallVector<Operation *> Fns;
    rewrite::candidateFunctions(getOperation(), Fns);
    PcrelReferences R(getOperation()); // once for all kernels
    Refs = &R;
    CallGraph CG(getOperation()); // once for all kernels
    Calls = &CG;
    for (Operation *Fn : Fns)
      if (auto K = dyn_cast<KernelOp>(Fn))
        compact(K, S);
    Refs = nullptr;
    Calls = nullptr;
    if (summary)
      S.print(llvm::errs());
  }

  const PcrelReferences *Refs = nullptr;
  CallGraph *Calls = nullptr;

  void compact(KernelOp K, rewrite::Summary &S) {
    std::string Why;
    auto TIOrErr = getTargetInfoFor(K);
    if (!TIOrErr)
      return note(K, llvm::toString(TIOrErr.takeError()));
    // The legality checker is built once the calls' effects are known.
    InstInfoCache C(**TIOrErr);
    if (!rewrite::isEditable(K, C, &Why))
      return note(K, Why);
    const RegUnitInfo &RU = C.units();
    TargetInfo &TI = C.target();
    bool Unified = TI.cpu() == "gfx90a" || TI.cpu() == "gfx940" ||
                   TI.cpu() == "gfx941" || TI.cpu() == "gfx942" ||
                   TI.cpu() == "gfx950" || TI.cpu() == "gfx9-4-generic";
    if (!Unified)
      return note(K, "only gfx90a/gfx942 register files are handled");

    // Which indices are used, which are fixed (live at entry)?
    std::vector<bool> Used[NumFiles], Fixed[NumFiles];
    for (unsigned F = 0; F < NumFiles; ++F) {
      Used[F].assign(512, false);
      Fixed[F].assign(512, false);
    }
    bool Bail = false, HasCall = false;
    K->walk([&](Operation *Op) {
      if (Op == K || Bail)
        return;
      const InstInfo &I = C.get(Op);
      // A call's own operands are known; what the callee touches is
      // handled below (fixCalleeRegisters).
      if ((!I.IsCall && C.unknownRegisters(Op)) || I.Kind == OpKind::Indirect) {
        Bail = true;
        Why = "unknown register access or an indirect jump: " + C.describe(Op);
        return;
      }
      HasCall |= I.IsCall;
      // PC-relative pairs keep their ids and sizes when renamed; emission
      // recomputes their offsets.
      for (const InstInfo::RegOperand &R : I.Regs) {
        RegRange RR = TI.classify(R.Reg);
        int F = fileOf(RR.Kind);
        if (F < 0)
          continue;
        for (unsigned X = RR.First; X < RR.First + RR.Count && X < 512; ++X)
          Used[F][X] = true;
        if (F == 0 && RR.First + RR.Count > 100) {
          Bail = true; // near VCC/FLAT_SCRATCH/XNACK aliases
          Why = "SGPRs above s99 are used";
        }
      }
    });
    if (Bail)
      return note(K, Why);
    // With calls, the callees' registers keep their numbers and stay
    // allocated: below the highest index any device function of the code
    // object touches (an indirect call may reach any of them; code objects
    // call no code outside themselves), every register is fixed. The
    // renamed registers are above that, so no callee reads or clobbers them
    // before or after.
    RegisterUsage Callees;
    if (HasCall && !fixCalleeRegisters(K, C, Used, Fixed, Callees, Why))
      return note(K, Why);
    // Registers the hardware initializes stay where they are and inside the
    // allocation, read or not: user and system SGPRs (user_sgpr_count, then
    // workgroup ids, workgroup info, the private segment wave offset) and
    // the workitem-id VGPRs.
    {
      DictionaryAttr Desc = K.getDescriptor();
      auto field = [&](StringRef Key) -> unsigned {
        auto A = Desc.getAs<IntegerAttr>(Key);
        return A ? unsigned(A.getInt()) : 0;
      };
      unsigned Sys = field("user_sgpr_count") +
                     field("enable_sgpr_workgroup_id_x") +
                     field("enable_sgpr_workgroup_id_y") +
                     field("enable_sgpr_workgroup_id_z") +
                     field("enable_sgpr_workgroup_info") +
                     field("enable_private_segment");
      for (unsigned X = 0; X < Sys && X < 512; ++X) {
        Fixed[0][X] = true;
        Used[0][X] = true;
      }
      for (unsigned X = 0; X <= field("enable_vgpr_workitem_id") && X < 3;
           ++X) {
        Fixed[1][X] = true;
        Used[1][X] = true;
      }
    }
    // A call's own operands (target, return address) keep their numbers.
    if (HasCall)
      K->walk([&](Operation *Op) {
        if (Op == K || !C.get(Op).IsCall)
          return;
        for (const InstInfo::RegOperand &R : C.get(Op).Regs) {
          RegRange RR = TI.classify(R.Reg);
          int F = fileOf(RR.Kind);
          for (unsigned X = RR.First;
               F >= 0 && X < RR.First + RR.Count && X < 512; ++X)
            Fixed[F][X] = true;
        }
      });
    Liveness Dense(K, C, Liveness::Mode::Dense);
    const llvm::BitVector &In = Dense.liveIn(&K.getBody().front());
    for (unsigned U : In.set_bits()) {
      if (RU.isPseudo(U))
        continue;
      int F = fileOf(RU.kindOf(U));
      if (F >= 0 && RU.indexOf(U) < 512)
        Fixed[F][RU.indexOf(U)] = true;
    }

    // The renaming per file.
    std::vector<int> Map[NumFiles];
    unsigned OldEnd[NumFiles] = {0, 0, 0}, NewEnd[NumFiles] = {0, 0, 0};
    bool Any = false;
    for (unsigned F = 0; F < NumFiles; ++F) {
      unsigned G = Granule[F];
      Map[F].assign(512, -1);
      int TopFixedGroup = -1;
      for (unsigned X = 0; X < 512; ++X) {
        if (Used[F][X])
          OldEnd[F] = X + 1;
        if (Fixed[F][X])
          TopFixedGroup = int(X / G);
      }
      unsigned Removed = 0;
      for (unsigned Gr = 0; Gr * G < OldEnd[F]; ++Gr) {
        bool GroupUsed = false;
        for (unsigned X = Gr * G; X < (Gr + 1) * G; ++X)
          GroupUsed |= Used[F][X];
        if (!GroupUsed && int(Gr) > TopFixedGroup) {
          ++Removed;
          continue;
        }
        for (unsigned X = Gr * G; X < (Gr + 1) * G; ++X)
          if (Used[F][X]) {
            Map[F][X] = int(X - Removed * G);
            NewEnd[F] = std::max(NewEnd[F], unsigned(Map[F][X]) + 1);
          }
      }
      Any |= Removed > 0;
    }
    if (!Any)
      return;

    // Rewrite every instruction whose registers move.
    Legality L(K, C, *Refs);
    Legality::Transaction T(L);
    OpBuilder B(K->getContext());
    unsigned Rewritten = 0;
    SmallVector<Operation *> Ops;
    K->walk([&](InstOp Op) { Ops.push_back(Op); });
    for (Operation *Op : Ops) {
      const InstInfo &I = C.get(Op);
      if (!I.D)
        continue;
      llvm::MCInst Inst = I.D->Inst;
      bool Changed = false;
      for (unsigned N = 0; N < Inst.getNumOperands(); ++N) {
        llvm::MCOperand &MO = Inst.getOperand(N);
        if (!MO.isReg() || !MO.getReg().isValid())
          continue;
        RegRange RR = TI.classify(MO.getReg());
        int F = fileOf(RR.Kind);
        if (F < 0 || Map[F][RR.First] < 0 || unsigned(Map[F][RR.First]) == RR.First)
          continue;
        llvm::MCRegister NewReg =
            RU.tupleReg(RR.Kind, unsigned(Map[F][RR.First]), RR.Count);
        if (!NewReg.isValid())
          return note(K, "no register " + std::string(FileName[F]) + " " +
                             std::to_string(Map[F][RR.First]) + " of size " +
                             std::to_string(RR.Count));
        MO.setReg(NewReg);
        Changed = true;
      }
      if (!Changed)
        continue;
      SmallVector<uint8_t, 16> Bytes;
      if (llvm::Error E = TI.encode(Inst, Bytes))
        return note(K, "cannot encode the renamed " + C.describe(Op) + ": " +
                           llvm::toString(std::move(E)));
      if (Bytes.size() != getOriginalBytes(Op).size())
        return note(K, "renaming changes the size of " + C.describe(Op));
      auto Old = cast<InstOp>(Op);
      SmallVector<int32_t, 4> Enc;
      for (size_t X = 0; X + 3 < Bytes.size(); X += 4)
        Enc.push_back(int32_t(uint32_t(Bytes[X]) | uint32_t(Bytes[X + 1]) << 8 |
                              uint32_t(Bytes[X + 2]) << 16 |
                              uint32_t(Bytes[X + 3]) << 24));
      Operation *New =
          InstOp::create(B, Old.getLoc(), Old.getId(), Enc, Old.getPcrelPart(),
                         Old.getPcrelTarget(), Old.getPcrelAnchor());
      if (verbose)
        llvm::errs() << "amdgcn-regcompact: " << C.describe(Op) << " -> "
                     << TI.print(Inst) << "\n";
      T.replace({Op}, {New});
      ++Rewritten;
    }

    // New counts.
    DictionaryAttr Desc = K.getDescriptor();
    auto descInt = [&](StringRef Key) -> int64_t {
      auto A = Desc.getAs<IntegerAttr>(Key);
      return A ? A.getInt() : 0;
    };
    DictionaryAttr Meta = K.getMetadataAttr();
    auto metaInt = [&](StringRef Key) -> int64_t {
      if (!Meta)
        return -1;
      auto A = Meta.getAs<IntegerAttr>(Key);
      return A ? A.getInt() : -1;
    };
    unsigned OldAccum = (descInt("accum_offset") + 1) * 4;
    bool HasAGPR = NewEnd[2] > 0;
    unsigned NewAccum = HasAGPR ? std::max(4u, (NewEnd[1] + 3) / 4 * 4)
                                : std::max(4u, (NewEnd[1] + 3) / 4 * 4);
    unsigned OldTotal = metaInt(".vgpr_count") >= 0
                            ? unsigned(metaInt(".vgpr_count"))
                            : (HasAGPR ? OldAccum + OldEnd[2] : OldEnd[1]);
    unsigned NewTotal = HasAGPR ? NewAccum + NewEnd[2] : NewEnd[1];
    NewTotal = std::min(NewTotal, OldTotal);
    int64_t OldSgpr = metaInt(".sgpr_count");
    unsigned SgprSaved = OldEnd[0] - NewEnd[0];
    // The SGPR count includes VCC/FLAT_SCRATCH/XNACK_MASK above the numbered
    // SGPRs (LLVM's rules, numExtraSGPRs). Renaming leaves those uses alone,
    // so the original count minus the saving keeps any slack it had; it is
    // never below what the renamed code needs, nor above the original.
    RegisterUsage Usage = computeKernelRegisterUsage(K, TI, *Calls);
    Usage.merge(Callees);
    unsigned Needed =
        NewEnd[0] + numExtraSGPRs(TI, Usage.UsesVCC,
                                  Usage.UsesFlatScratch ||
                                      descInt("enable_sgpr_flat_scratch_init"));
    unsigned NewSgpr =
        OldSgpr >= 0
            ? std::max(unsigned(std::max<int64_t>(OldSgpr - SgprSaved, 0)),
                       std::min(unsigned(OldSgpr), Needed))
            : Needed;

    NamedAttrList D(Desc);
    D.set("accum_offset", B.getI64IntegerAttr(NewAccum / 4 - 1));
    D.set("granulated_workitem_vgpr_count",
          B.getI64IntegerAttr(blocks(NewTotal, 8)));
    D.set("granulated_wavefront_sgpr_count",
          B.getI64IntegerAttr(blocks(NewSgpr, 8)));
    // Fields equal to zero are omitted in the descriptor dictionary.
    NamedAttrList D2;
    for (NamedAttribute A : D)
      if (!isa<IntegerAttr>(A.getValue()) ||
          cast<IntegerAttr>(A.getValue()).getInt() != 0)
        D2.push_back(A);
    if (Meta) {
      NamedAttrList M(Meta);
      if (Meta.get(".vgpr_count"))
        M.set(".vgpr_count", B.getI64IntegerAttr(NewTotal));
      if (Meta.get(".agpr_count"))
        M.set(".agpr_count", B.getI64IntegerAttr(NewEnd[2]));
      if (Meta.get(".sgpr_count"))
        M.set(".sgpr_count", B.getI64IntegerAttr(NewSgpr));
      Meta = M.getDictionary(K->getContext());
    }
    Verdict V = T.commit();
    if (!V) {
      ++S.Refused;
      llvm::errs() << "amdgcn-regcompact: @" << K.getSymName()
                   << " left unchanged: " << V.Reason << "\n";
      return;
    }
    K.setDescriptorAttr(D2.getDictionary(K->getContext()));
    if (Meta)
      K.setMetadataAttr(Meta);
    ++S.FunctionsChanged;
    S.add("instructions renamed", Rewritten);
    S.add("VGPRs saved", long(OldTotal) - long(NewTotal));
    S.add("SGPRs saved", SgprSaved);
    S.add("AGPRs saved", long(OldEnd[2]) - long(NewEnd[2]));
    unsigned W0 = vgprWaves(OldTotal), W1 = vgprWaves(NewTotal);
    if (W1 != W0)
      S.add("kernels with higher occupancy", 1);
    if (summary)
      llvm::errs() << "amdgcn-regcompact: @" << K.getSymName() << ": VGPR "
                   << OldTotal << " -> " << NewTotal << ", SGPR "
                   << (OldSgpr >= 0 ? unsigned(OldSgpr) : OldEnd[0]) << " -> "
                   << NewSgpr << ", AGPR " << OldEnd[2] << " -> " << NewEnd[2]
                   << "; waves/SIMD (VGPR limit) " << W0 << " -> " << W1
                   << "\n";
  }

  /// Marks every register index below the highest one a device function of
  /// K's code object touches as used and fixed. False (with Why) when that
  /// is not known.
  bool fixCalleeRegisters(KernelOp K, InstInfoCache &C, std::vector<bool> *Used,
                          std::vector<bool> *Fixed, RegisterUsage &Callees,
                          std::string &Why) {
    TargetInfo &TI = C.target();
    auto CO = K->getParentOfType<CodeObjectOp>();
    unsigned Functions = 0;
    llvm::BitVector Effects(C.units().numUnits());
    for (Operation &F : CO.getBodyBlock()) {
      if (!isa<FuncOp>(F))
        continue;
      ++Functions;
      bool Unknown = false;
      F.walk([&](Operation *Op) {
        if (Unknown || Op == &F)
          return;
        const InstInfo &I = C.get(Op);
        if (I.IsCall) // its callees are among the functions walked
          return;
        if (C.unknownRegisters(Op)) {
          Unknown = true;
          Why = "a callee's register use is not known: " + C.describe(Op);
          return;
        }
        // Every unit a callee reads or writes, special registers and memory
        // order included, is what a call reads and writes.
        for (uint16_t U : I.Uses)
          Effects.set(U);
        for (uint16_t U : I.Defs)
          Effects.set(U);
      });
      if (Unknown)
        return false;
      Callees.merge(computeRegisterUsage(&F, TI));
    }
    if (!Functions) {
      Why = "calls, but the code object has no device function they can reach";
      return false;
    }
    const unsigned End[NumFiles] = {Callees.NumSGPR, Callees.NumVGPR,
                                    Callees.NumAGPR};
    for (unsigned F = 0; F < NumFiles; ++F)
      for (unsigned X = 0; X < End[F] && X < 512; ++X) {
        Used[F][X] = true;
        Fixed[F][X] = true;
      }
    C.setCallEffects(std::move(Effects));
    return true;
  }

  void note(KernelOp K, const std::string &Why) {
    if (verbose)
      llvm::errs() << "amdgcn-regcompact: @" << K.getSymName()
                   << " skipped: " << Why << "\n";
  }
};

} // namespace
