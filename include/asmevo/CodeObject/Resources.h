//===- Resources.h - Register usage of recovered code ------------*- C++ -*-===//

#ifndef ASMEVO_CODEOBJECT_RESOURCES_H
#define ASMEVO_CODEOBJECT_RESOURCES_H

#include "asmevo/CodeObject/KernelDescriptor.h"
#include "asmevo/IR/AMDGCN.h"

namespace asmevo {

/// Registers a function's instructions name: the next free index per file.
struct RegisterUsage {
  unsigned NumVGPR = 0;
  unsigned NumAGPR = 0;
  unsigned NumSGPR = 0; // numbered SGPRs only (no VCC/FLAT_SCRATCH/XNACK)
  bool UsesVCC = false;
  bool UsesFlatScratch = false; // names FLAT_SCRATCH (or a half of it)

  void merge(const RegisterUsage &O) {
    NumVGPR = std::max(NumVGPR, O.NumVGPR);
    NumAGPR = std::max(NumAGPR, O.NumAGPR);
    NumSGPR = std::max(NumSGPR, O.NumSGPR);
    UsesVCC |= O.UsesVCC;
    UsesFlatScratch |= O.UsesFlatScratch;
  }
};

/// SGPRs the hardware reserves above a wave's numbered SGPRs for VCC,
/// FLAT_SCRATCH and XNACK_MASK, by LLVM's rules (AMDGPU
/// IsaInfo::getNumExtraSGPRs, called by the asm printer with the target id's
/// "XNACK on or any"): GFX10+ only VCC (2); GFX8/GFX9 6 with FLAT_SCRATCH
/// used or architected flat scratch (gfx940+: always 6), else 4 with XNACK
/// on or unspecified ("any") on a processor that supports it, else 2 with
/// VCC used, else 0; before GFX8 4 with FLAT_SCRATCH, else 2 with VCC.
/// The generation and the features come from LLVM's subtarget tables.
unsigned numExtraSGPRs(const TargetInfo &TI, bool VCCUsed, bool FlatScrUsed);

/// Whether a kernel's FLAT_SCRATCH counts as used for numExtraSGPRs: the code
/// names it, or the descriptor asks the hardware to initialize it
/// (enable_sgpr_flat_scratch_init), which LLVM sets only for kernels that use
/// it.
bool kernelUsesFlatScratch(const RegisterUsage &Usage,
                           const KernelDescriptor &KD);

/// The direct calls between the functions of a code object: a PC-relative
/// target that starts a function is an edge. A function's callees are found
/// when a walk first reaches it and kept, so repeated walks (one per kernel
/// of an object whose kernels share device functions) do not read the
/// callees' code again.
class CallGraph {
public:
  explicit CallGraph(amdgcn::CodeObjectOp CO);
  /// Calls Visit on Fn and on every function it can reach, each once; stops
  /// when Visit returns false.
  void forEachReachable(mlir::Operation *Fn,
                        llvm::function_ref<bool(mlir::Operation *)> Visit);

private:
  llvm::ArrayRef<mlir::Operation *> calleesOf(mlir::Operation *Fn);
  llvm::DenseMap<int64_t, mlir::Operation *> FnAt;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Operation *, 2>>
      Callees;
};

/// A one-shot CallGraph walk from Fn.
void forEachReachableFunction(mlir::Operation *Fn,
                              llvm::function_ref<bool(mlir::Operation *)> Visit);

/// Usage of one kernel or function op, from LLVM's operand tables.
RegisterUsage computeRegisterUsage(mlir::Operation *Fn, TargetInfo &TI);

/// Usage of raw code bytes, decoded linearly (undecodable words skipped).
RegisterUsage computeRegisterUsage(llvm::ArrayRef<uint8_t> Code, TargetInfo &TI);

/// Usage of a kernel including every function it can call (PC-relative
/// targets that start a function, transitively).
RegisterUsage computeKernelRegisterUsage(amdgcn::KernelOp Kernel,
                                         TargetInfo &TI);
/// The same with a call graph shared by every kernel of the object: building
/// one per kernel indexes every function of the object each time, which
/// grows with kernels x functions.
RegisterUsage computeKernelRegisterUsage(amdgcn::KernelOp Kernel,
                                         TargetInfo &TI, CallGraph &Calls);

/// Raises a kernel's descriptor fields and metadata counts so that they
/// cover Usage; never lowers them (a pass that frees registers sets the
/// counts itself). Rules for gfx90a/gfx942 from AMDGPUUsage: VGPRs and AGPRs
/// share one file, AGPRs start at accum_offset ((field + 1) * 4), the VGPR
/// block count is ceil(total / 8) - 1, the SGPR count is the numbered SGPRs
/// plus ExtraSGPRs (numExtraSGPRs), its block count ceil(count / 8) - 1.
/// Returns whether anything changed.
bool raiseResourceCounts(const RegisterUsage &Usage, unsigned ExtraSGPRs,
                         bool HasAGPRFile, KernelDescriptor &KD,
                         mlir::DictionaryAttr &Metadata);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_RESOURCES_H
