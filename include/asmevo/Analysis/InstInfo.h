//===- InstInfo.h - What one amdgcn op does, for the analyses ---*- C++ -*-===//
//
// One record per operation of a function: the decoded instruction, the
// register units it reads and writes (explicit and implicit, from LLVM's
// tables through TargetInfo::accesses), the memory it touches per address
// space, the wait counters it increments, whether it has side effects, how
// many wait states it provides (s_nop N gives N+1) and, for s_waitcnt, the
// counts it waits for. Every later analysis (dependence graph, wait
// counters, hazards, liveness) reads only these records.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_INSTINFO_H
#define ASMEVO_ANALYSIS_INSTINFO_H

#include "asmevo/Analysis/RegUnits.h"
#include "asmevo/IR/AMDGCN.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <string>

namespace asmevo {

class InternalCallModel;

/// Which rows of the hazard table apply: every gfx9 target has the GFX9
/// rows; gfx90a adds the MFMA rows; gfx940/941/942/gfx9-4-generic add the
/// MFMA rows with CDNA3 numbers and the CDNA3-only rows.
enum class HazardTarget : uint8_t { GFX9 = 1, GFX90A = 2, GFX942 = 4 };

/// Address spaces, as bits.
namespace MemSpace {
enum : uint8_t { Global = 1, Scratch = 2, LDS = 4, GDS = 8 };
}

/// The wait counters of gfx9.
enum class Counter : uint8_t { VM = 0, LGKM = 1, EXP = 2 };
constexpr unsigned NumCounters = 3;
inline unsigned counterBit(Counter C) { return 1u << unsigned(C); }
const char *counterName(Counter C);

enum class OpKind : uint8_t {
  Inst,        ///< amdgcn.inst
  Waitcnt,     ///< amdgcn.s_waitcnt
  Nop,         ///< amdgcn.s_nop
  Barrier,     ///< amdgcn.s_barrier
  Endpgm,      ///< amdgcn.s_endpgm
  Branch,      ///< amdgcn.s_branch
  CondBranch,  ///< amdgcn.cbranch
  Fallthrough, ///< amdgcn.fallthrough (no instruction)
  Indirect,    ///< amdgcn.indirect (s_setpc_b64 ...)
  Raw,         ///< amdgcn.raw (undecodable word)
  Unknown
};

struct InstInfo {
  mlir::Operation *Op = nullptr;
  OpKind Kind = OpKind::Unknown;
  /// The decoded instruction; for dedicated ops (waits, branches, barrier,
  /// endpgm) the decoding of their encoding template. Null for raw words,
  /// fallthrough and undecodable encodings.
  const DecodedInst *D = nullptr;
  unsigned Opcode = 0;
  llvm::StringRef Mnemonic;
  uint64_t Flags = 0; ///< LLVM TSFlags (InstFlag::*)

  /// Register units (and pseudo units for memory/order), sorted.
  UnitList Uses, Defs;
  /// The register operands in MCInst order: explicit ones (with their
  /// operand index) then implicit ones (OperandIndex = -1).
  struct RegOperand {
    llvm::MCRegister Reg;
    int OperandIndex;
    bool IsDef;
  };
  llvm::SmallVector<RegOperand, 6> Regs;
  /// Units of Regs (no pseudo units), sorted, by [IsDef][explicit only]:
  /// the hazard rules filter these for every producer/consumer pair they
  /// test, which expanding the registers each time made their main cost.
  UnitList RegUnits[2][2];
  /// Does the op write its destination shifted (SDWA dst_sel, op_sel)?
  /// Known only from the printed operands: computed on first use by the
  /// hazard rules (-1 = not yet).
  mutable int8_t PartialDst = -1;
  /// May a vector write of this op leave part of its destination unchanged
  /// (DPP, SDWA, 16-bit and d16 forms, v_writelane, LDS DMA)? Liveness then
  /// keeps the old value live. Set once per record by the mnemonic: the
  /// liveness transfer asked for every op by searching it each time.
  bool PartialVectorWrite = false;

  // Memory.
  uint8_t MemRead = 0, MemWrite = 0; ///< MemSpace bits
  bool IsAtomic = false;
  // Wait counters: the counters this op increments, and for each whether
  // it completes in order with the other in-order ops of that counter
  // (VMEM loads/stores on vmcnt, LDS on lgkmcnt, exports on expcnt) or may
  // complete out of order (SMEM, FLAT that may reach LDS or VMEM, messages).
  uint8_t Counters = 0;
  uint8_t InOrder = 0;
  /// Side effects that keep the op ordered with every other side-effecting
  /// op and every memory op (barriers, messages, cache control, ...).
  bool SideEffect = false;
  /// A point where the memory operations completed before it must stay
  /// completed (fences, stores, atomics, calls, returns, barriers).
  bool Sync = false;
  bool IsCall = false, IsReturn = false, IsTerminator = false;
  /// A call in a function marked internal_calls (into the function's own
  /// subroutines, InternalCallModel): it follows no calling convention, so
  /// the memory ops in flight stay in flight through it and it reads every
  /// register, instead of LLVM's convention (the callee waits for all).
  bool InternalCall = false;
  /// For an internal call: Uses and Defs also hold what the subroutines it
  /// may reach read and write (InstInfoCache::setInternalCallEffects), so
  /// it is not an unknownRegisters barrier; and, its subroutines being
  /// plain ALU code, it is not ordered with memory ops (no Order unit) and
  /// not Sync.
  bool CalleeEffectsKnown = false;
  /// An internal call of a modelled function (its effects known): not Sync
  /// and unordered with memory ops, for legality and the passes (the wait
  /// planner waits there only for what its subroutines read or write, and
  /// merges waits across it; amdgcn-schedule moves memory ops across it).
  bool isModelledInternalCall() const {
    return IsCall && InternalCall && CalleeEffectsKnown;
  }
  bool IsBranch = false;
  /// Wait states this op provides to hazard distances.
  unsigned WaitStates = 1;
  /// For s_waitcnt: the counts (63/15/7 = no wait).
  unsigned Wait[NumCounters] = {63, 15, 7};
  /// For MFMA/SMFMAC/DGEMM: passes (LLVM sched model latency); 0 otherwise.
  unsigned Passes = 0;
  /// Why the op has side effects (for reasons in legality answers).
  llvm::StringRef SideEffectWhy;

  // Classification helpers (LLVM's SIInstrInfo predicates).
  bool has(uint64_t F) const { return Flags & F; }
  bool isVALU() const { return has(InstFlag::VALU); }
  bool isSALU() const { return has(InstFlag::SALU); }
  bool isSMEM() const { return has(InstFlag::SMRD); }
  bool isDS() const { return has(InstFlag::DS); }
  bool isFLAT() const { return has(InstFlag::FLAT); }
  bool isVMEM() const {
    return has(InstFlag::MUBUF | InstFlag::MTBUF | InstFlag::MIMG);
  }
  bool isVMEMOrFLAT() const { return isVMEM() || isFLAT(); }
  bool isMemOrExport() const {
    return isVMEMOrFLAT() || isDS() || has(InstFlag::EXP);
  }
  bool isMAI() const { return has(InstFlag::IsMAI); }
  /// MFMA/SMFMAC/DGEMM (MAI except v_accvgpr_read/write/mov).
  bool isMFMA() const;
  bool isDGEMM() const;
  bool isTRANS() const { return has(InstFlag::TRANS); }
  bool isDPP() const { return has(InstFlag::DPP); }
  bool isSDWA() const { return has(InstFlag::SDWA); }
  bool isDOT() const { return has(InstFlag::IsDOT); }
  bool isMemOp() const { return MemRead || MemWrite; }
  bool isLoad() const { return MemRead && !MemWrite; }
  bool writesMemory() const { return MemWrite != 0; }
  bool defines(unsigned U) const { return RegUnitInfo::contains(Defs, U); }
  bool uses(unsigned U) const { return RegUnitInfo::contains(Uses, U); }
  /// Units written by explicit/implicit register operands only (no pseudo
  /// units).
  void registerDefs(const RegUnitInfo &RU, UnitList &Out) const;
};

/// Builds and caches InstInfo records. Records are computed from the op's
/// current encoding: call invalidate() after changing an op in place.
class InstInfoCache {
public:
  explicit InstInfoCache(TargetInfo &TI);
  ~InstInfoCache();
  TargetInfo &target() const { return TI; }
  const RegUnitInfo &units() const { return RU; }
  HazardTarget hazardTarget() const { return HT; }
  bool xnackEnabled() const { return Xnack; }

  const InstInfo &get(mlir::Operation *Op);
  void invalidate(mlir::Operation *Op) { Map.erase(Op); }
  void clear() { Map.clear(); }

  /// "[0x1920] v_add_u32_e32 v0, s2, v0" (or "<new> ..." without id).
  std::string describe(mlir::Operation *Op);

  /// Does Op read or write registers the analyses cannot name? Calls, raw
  /// words, M0-relative moves (s_movrel*, v_movrel*), s_set_gpr_idx_* and
  /// every op between s_set_gpr_idx_on and s_set_gpr_idx_off (its VGPR
  /// operands are offsets from M0/the index). Such ops are full barriers
  /// for ordering and keep every register live.
  bool unknownRegisters(mlir::Operation *Op);
  /// Whether the wait checks take Op to read and write every register:
  /// unknownRegisters ops, except calls that follow the calling convention
  /// (their callee waits for what it reads); internal calls do not.
  bool touchesAllRegisters(mlir::Operation *Op) {
    const InstInfo &I = get(Op);
    return (!I.IsCall || I.InternalCall) && unknownRegisters(Op);
  }
  /// Register units every call may read or write, when a client knows them
  /// for every call of the code it analyses (e.g. the union of what all the
  /// code object's device functions touch). Calls then use and define
  /// exactly these units besides their operands, and are no longer
  /// unknownRegisters barriers. Clears cached records.
  void setCallEffects(llvm::BitVector Units) {
    CallEffects = std::move(Units);
    HasCallEffects = true;
    Map.clear();
  }
  bool hasCallEffects() const { return HasCallEffects; }
  /// What an internal call reads and writes besides its operands: the
  /// registers the subroutines it may reach read or may leave changed
  /// (Uses) and may write (Defs), from InternalCallModel. Clears Call's
  /// record.
  void setInternalCallEffects(mlir::Operation *Call, UnitList Uses,
                              UnitList Defs);
  /// The model of Fn's internal calls (InternalCalls.h), built on first use
  /// from Fn as it is then and kept: the passes, legality and dce of one
  /// function share it. Building it sets the calls' effects.
  const InternalCallModel &internalCalls(mlir::Operation *Fn);

  /// Is Op between s_set_gpr_idx_on and s_set_gpr_idx_off (on some path)?
  bool inIndexedMode(mlir::Operation *Op);

  /// Does the function containing Op use AGPRs? (LLVM's hazard recognizer
  /// looks 19 instructions back then, 5 otherwise.) Cached per function.
  bool functionUsesAGPRs(mlir::Operation *Op);

private:
  void compute(mlir::Operation *Op, InstInfo &I);
  void fromMC(const DecodedInst &D, InstInfo &I);
  const DecodedInst *templateFor(llvm::StringRef Mnemonic, bool WithImm);

  TargetInfo &TI;
  const RegUnitInfo &RU;
  HazardTarget HT;
  bool Xnack = false;
  bool HasCallEffects = false;
  llvm::BitVector CallEffects;
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<InstInfo>> Map;
  llvm::DenseMap<mlir::Operation *, std::pair<UnitList, UnitList>>
      CalleeEffects; // per internal call
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<InternalCallModel>>
      CallModels; // per function
  llvm::StringMap<const DecodedInst *> Templates;
  llvm::DenseMap<mlir::Operation *, bool> UsesAGPRs;
  llvm::DenseMap<mlir::Operation *, llvm::DenseSet<mlir::Operation *>>
      Indexed; // per function
  void computeIndexed(mlir::Operation *Fn);
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_INSTINFO_H
