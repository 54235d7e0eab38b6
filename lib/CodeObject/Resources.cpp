//===- Resources.cpp - Register usage of recovered code -------------------===//

#include "asmevo/CodeObject/Resources.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCSubtargetInfo.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

static void noteSpecial(RegisterUsage &U, StringRef Name) {
  U.UsesVCC |= Name.starts_with("vcc");
  U.UsesFlatScratch |= Name.starts_with("flat_scratch");
}

RegisterUsage asmevo::computeRegisterUsage(Operation *Fn, TargetInfo &TI) {
  RegisterUsage U;
  SmallVector<RegAccess, 16> Acc;
  Fn->walk([&](Operation *Op) {
    if (auto C = dyn_cast<CondBranchOp>(Op)) {
      U.UsesVCC |= StringRef(C.getMnemonic()).contains("vcc");
      return;
    }
    ArrayRef<uint8_t> Bytes = getOriginalBytes(Op);
    if (Bytes.empty())
      return;
    const DecodedInst *D = TI.decode(Bytes);
    if (!D)
      return;
    Acc.clear();
    TI.accesses(D->Inst, Acc);
    for (const RegAccess &A : Acc) {
      RegRange R = TI.classify(A.Reg);
      unsigned End = R.First + R.Count;
      switch (R.Kind) {
      case RegKind::VGPR:
        U.NumVGPR = std::max(U.NumVGPR, End);
        break;
      case RegKind::AGPR:
        U.NumAGPR = std::max(U.NumAGPR, End);
        break;
      case RegKind::SGPR:
        U.NumSGPR = std::max(U.NumSGPR, End);
        break;
      case RegKind::Special:
        noteSpecial(U, TI.regName(A.Reg));
        break;
      default:
        break;
      }
    }
  });
  return U;
}

RegisterUsage asmevo::computeRegisterUsage(ArrayRef<uint8_t> Code,
                                           TargetInfo &TI) {
  RegisterUsage U;
  SmallVector<RegAccess, 16> Acc;
  for (size_t Off = 0; Off + 4 <= Code.size();) {
    const DecodedInst *D = TI.decode(Code.drop_front(Off));
    if (!D) {
      Off += 4;
      continue;
    }
    Off += D->Size;
    Acc.clear();
    TI.accesses(D->Inst, Acc);
    for (const RegAccess &A : Acc) {
      RegRange R = TI.classify(A.Reg);
      unsigned End = R.First + R.Count;
      if (R.Kind == RegKind::VGPR)
        U.NumVGPR = std::max(U.NumVGPR, End);
      else if (R.Kind == RegKind::AGPR)
        U.NumAGPR = std::max(U.NumAGPR, End);
      else if (R.Kind == RegKind::SGPR)
        U.NumSGPR = std::max(U.NumSGPR, End);
      else if (R.Kind == RegKind::Special)
        noteSpecial(U, TI.regName(A.Reg));
    }
  }
  return U;
}

CallGraph::CallGraph(CodeObjectOp CO) {
  for (Operation &F : CO.getBodyBlock())
    FnAt[F.getAttrOfType<IntegerAttr>("addr").getInt()] = &F;
}

ArrayRef<Operation *> CallGraph::calleesOf(Operation *Fn) {
  auto [It, New] = Callees.try_emplace(Fn);
  if (New)
    Fn->walk([&, &List = It->second](InstOp I) {
      if (I.getPcrelPart() == InstOp::NoPcRel)
        return;
      if (Operation *Callee = FnAt.lookup(I.getPcrelTarget()))
        if (!llvm::is_contained(List, Callee))
          List.push_back(Callee);
    });
  return It->second;
}

void CallGraph::forEachReachable(Operation *Fn,
                                 llvm::function_ref<bool(Operation *)> Visit) {
  llvm::DenseSet<Operation *> Seen;
  SmallVector<Operation *> Work = {Fn};
  while (!Work.empty()) {
    Operation *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    if (!Visit(F))
      return;
    llvm::append_range(Work, calleesOf(F));
  }
}

void asmevo::forEachReachableFunction(
    Operation *Fn, llvm::function_ref<bool(Operation *)> Visit) {
  CallGraph(Fn->getParentOfType<CodeObjectOp>()).forEachReachable(Fn, Visit);
}

RegisterUsage asmevo::computeKernelRegisterUsage(KernelOp Kernel,
                                                 TargetInfo &TI) {
  CallGraph Calls(Kernel->getParentOfType<CodeObjectOp>());
  return computeKernelRegisterUsage(Kernel, TI, Calls);
}

RegisterUsage asmevo::computeKernelRegisterUsage(KernelOp Kernel,
                                                 TargetInfo &TI,
                                                 CallGraph &Calls) {
  RegisterUsage U;
  Calls.forEachReachable(Kernel, [&](Operation *Fn) {
    U.merge(computeRegisterUsage(Fn, TI));
    return true;
  });
  return U;
}

static unsigned blocks(unsigned N, unsigned Granule) {
  return (std::max(N, 1u) + Granule - 1) / Granule - 1;
}

unsigned asmevo::numExtraSGPRs(const TargetInfo &TI, bool VCCUsed,
                               bool FlatScrUsed) {
  const llvm::MCSubtargetInfo &STI = TI.subtarget();
  unsigned Extra = VCCUsed ? 2 : 0;
  if (STI.checkFeatures("+gfx10-insts"))
    return Extra;
  if (!STI.checkFeatures("+gfx8-insts"))
    return FlatScrUsed ? 4 : Extra;
  // The target id's XNACK setting: "-xnack" is off, "+xnack" on, nothing is
  // "any" (reserved as if on) where the hardware supports XNACK.
  bool XnackOnOrAny =
      STI.checkFeatures("+xnack-support") && !TI.features().contains("-xnack");
  if (XnackOnOrAny)
    Extra = 4;
  if (FlatScrUsed || STI.checkFeatures("+architected-flat-scratch"))
    Extra = 6;
  return Extra;
}

bool asmevo::kernelUsesFlatScratch(const RegisterUsage &Usage,
                                   const KernelDescriptor &KD) {
  return Usage.UsesFlatScratch || KD.enableSgprFlatScratchInit();
}

bool asmevo::raiseResourceCounts(const RegisterUsage &Usage,
                                 unsigned ExtraSGPRs, bool HasAGPRFile,
                                 KernelDescriptor &KD,
                                 DictionaryAttr &Metadata) {
  auto metaInt = [&](StringRef Key) -> int64_t {
    if (!Metadata)
      return 0;
    if (auto I = Metadata.getAs<IntegerAttr>(Key))
      return I.getInt();
    return 0;
  };
  bool Changed = false;
  unsigned VGPR = std::max<unsigned>(Usage.NumVGPR, metaInt(".vgpr_count"));
  unsigned AGPR = std::max<unsigned>(Usage.NumAGPR, metaInt(".agpr_count"));
  // The count includes the extra SGPRs at the top of the allocation (VCC,
  // FLAT_SCRATCH, XNACK_MASK).
  unsigned SGPR =
      std::max<unsigned>(metaInt(".sgpr_count"), Usage.NumSGPR + ExtraSGPRs);

  // Register blocks in the descriptor. With a unified file (gfx90a+),
  // .vgpr_count is the total: architectural VGPRs up to accum_offset, then
  // the AGPRs.
  unsigned TotalV;
  if (HasAGPRFile) {
    // accum_offset only matters when AGPRs are used: VGPRs at or above it
    // would be the AGPRs.
    if (AGPR && Usage.NumVGPR > KD.accumOffset()) {
      KD.setAccumOffsetField((Usage.NumVGPR + 3) / 4 - 1);
      Changed = true;
    }
    TotalV = AGPR ? KD.accumOffset() + AGPR : Usage.NumVGPR;
    VGPR = std::max<unsigned>(TotalV, metaInt(".vgpr_count"));
    TotalV = VGPR;
  } else {
    TotalV = std::max(VGPR, AGPR); // separate AGPR file (gfx908)
  }
  if (blocks(TotalV, 8) > KD.granulatedWorkitemVgprCount()) {
    KD.setGranulatedWorkitemVgprCount(blocks(TotalV, 8));
    Changed = true;
  }
  if (blocks(SGPR, 8) > KD.granulatedWavefrontSgprCount()) {
    KD.setGranulatedWavefrontSgprCount(blocks(SGPR, 8));
    Changed = true;
  }
  if (Metadata) {
    Builder B(Metadata.getContext());
    NamedAttrList L(Metadata);
    auto raise = [&](StringRef Key, unsigned V) {
      if (V > metaInt(Key)) {
        L.set(Key, B.getI64IntegerAttr(V));
        Changed = true;
      }
    };
    // Keys are never added: the note is rewritten in place, so its shape
    // must stay; the descriptor is what the hardware reads.
    if (Metadata.get(".vgpr_count"))
      raise(".vgpr_count", VGPR);
    if (Metadata.get(".agpr_count"))
      raise(".agpr_count", AGPR);
    if (Metadata.get(".sgpr_count"))
      raise(".sgpr_count", SGPR);
    Metadata = L.getDictionary(Metadata.getContext());
  }
  return Changed;
}
