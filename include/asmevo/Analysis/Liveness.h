//===- Liveness.h - Live registers and register pressure --------*- C++ -*-===//
//
// Backward liveness over a function's CFG in register units.
//
// Two modes, because a VALU write only writes the lanes enabled in EXEC:
//  * Conservative (for deleting code): a write kills a register only when
//    it writes every lane that can matter: scalar writes; VALU writes of
//    SGPRs (lane masks are written whole); vector writes in a kernel while
//    EXEC still holds its launch value (lanes outside it never run) and
//    that are not partial (SDWA/DPP/op_sel/d16). Every other vector write
//    leaves the old value live in the inactive lanes.
//  * Dense (for register pressure): every write kills, as a register
//    allocator sees it.
//
// At exits: s_endpgm keeps nothing live (memory is the only result of a
// kernel); s_setpc_b64 (return, jump table), s_swappc_b64 (call) and a run
// off the end keep every register live (a superset of the calling
// convention's return and callee-saved registers).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_LIVENESS_H
#define ASMEVO_ANALYSIS_LIVENESS_H

#include "asmevo/Analysis/InstInfo.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <unordered_map>

namespace asmevo {

struct RegPressure {
  unsigned SGPR = 0, VGPR = 0, AGPR = 0;
};

/// Per-block summaries of the backward transfer (the units a block reads
/// before writing them, the units it kills) and its first EXEC write, kept
/// across Liveness computations of one function whose blocks change a few
/// at a time: the legality layer computes liveness for every transaction,
/// and walking every op of a 30,000-op function each time made that
/// quadratic. The blocks are solved on the summaries (the same least
/// fixpoint as op by op); only blocks without an entry are walked. The
/// owner must invalidate every block whose ops change, before the next
/// computation.
class LivenessSummaries {
public:
  void invalidate(mlir::Block *B) { Map.erase(B); }
  void clear() { Map.clear(); }

private:
  friend class Liveness;
  struct Entry {
    mlir::Operation *FirstExecDef = nullptr;
    /// Gen/Kill valid, computed with this ExecChangedIn value of the block.
    bool HasTransfer = false;
    bool ExecChanged = false;
    llvm::BitVector Gen, Kill;
  };
  llvm::DenseMap<mlir::Block *, Entry> Map;
  int M = -1; ///< Liveness::Mode of the entries
};

class Liveness {
public:
  enum class Mode { Conservative, Dense };
  /// Blocks an edit is changing (a legality check): their summaries would
  /// be dropped right after, so none is kept for them; with a Focus only
  /// the focus units' transfer is computed, walking forward from the
  /// block's start until each unit is read or overwritten (not every op
  /// of a long block each time). FirstExecDef: their first EXEC write
  /// (null: none) where the owner knows it.
  struct Editing {
    llvm::SmallPtrSet<mlir::Block *, 4> Blocks;
    llvm::DenseMap<mlir::Block *, mlir::Operation *> FirstExecDef;
    /// Where the forward walk of a block for a unit starts: no op before
    /// it reads or writes the unit (null: no op of the block does). Units
    /// without an entry are walked from the block's start; the owner knows
    /// where a unit's first access lies after edits far from the start
    /// (fusing away a register's early writes otherwise pushes it further
    /// into the block at each edit).
    llvm::DenseMap<std::pair<mlir::Block *, uint16_t>, mlir::Operation *> From;
  };
  /// Uses by ops in IgnoreUses do not make registers live (legality: which
  /// registers does *original* code still read?). Summaries, when given,
  /// are reused for blocks that hold no op of IgnoreUses, and filled.
  /// With Focus (at most 64 units), only those units are solved (units are
  /// independent of each other): every answer is exact for them, and says
  /// nothing about other units. The legality check asks about a few units per
  /// transaction; solving those in one word per block is what makes it
  /// cheap on functions with thousands of blocks.
  Liveness(mlir::Operation *Fn, InstInfoCache &Cache,
           Mode M = Mode::Conservative,
           const llvm::DenseSet<mlir::Operation *> *IgnoreUses = nullptr,
           LivenessSummaries *Summaries = nullptr,
           llvm::ArrayRef<uint16_t> Focus = {}, const Editing *Edits = nullptr);
  /// Whether I writes EXEC (vector writes after it may be partial).
  static bool definesExec(const InstInfo &I, const RegUnitInfo &RU);

  const llvm::BitVector &liveIn(mlir::Block *B) const;
  const llvm::BitVector &liveOut(mlir::Block *B) const;
  /// Registers live just after Op (recomputed by walking its block).
  llvm::BitVector liveAfter(mlir::Operation *Op) const;
  llvm::BitVector liveBefore(mlir::Operation *Op) const;
  /// Which of Units are live just before Op (just after it when After):
  /// the answer of liveBefore/liveAfter for these units, found by walking
  /// forward from Op until each is read or overwritten (the block's
  /// live-out for the others) instead of backward from the block's end.
  llvm::BitVector liveUnitsAt(mlir::Operation *Op, bool After,
                              llvm::ArrayRef<uint16_t> Units) const;
  /// Does Op's vector write replace the old value in every lane that
  /// matters? (Scalar writes always do.)
  bool kills(mlir::Operation *Op) const;
  /// Walks B backwards; F sees each op with the registers live after it.
  void walkBackward(mlir::Block *B,
                    llvm::function_ref<void(mlir::Operation *,
                                            const llvm::BitVector &)>
                        F) const;

  /// Live 32-bit registers per file in a live set.
  RegPressure pressure(const llvm::BitVector &Live) const;
  /// Maximum pressure over all program points.
  RegPressure maxPressure() const;

  /// Units live at an exit of this kind (empty or every register).
  llvm::BitVector exitLive(const InstInfo &Terminator) const;

private:
  /// Kill, when given, collects the units the op overwrites whole.
  void transferBackward(mlir::Operation *Op, llvm::BitVector &Live,
                        llvm::BitVector *Kill = nullptr) const;
  bool killsFor(const InstInfo &I) const;

  mlir::Operation *Fn;
  InstInfoCache &Cache;
  Mode M;
  const llvm::DenseSet<mlir::Operation *> *IgnoreUses;
  unsigned NumUnits;
  llvm::DenseMap<mlir::Block *, llvm::BitVector> In, Out;
  /// Focused solution: one bit per Focus unit per block, expanded into
  /// FocusIn/FocusOut on demand (unordered_map: references stay valid).
  void solveFocused(
      llvm::function_ref<const llvm::BitVector *(mlir::Block *, bool)> Tr,
      llvm::ArrayRef<uint16_t> Focus, const Editing *Edits);
  /// The focus units' transfer of B (Gen, Kill words) by a forward walk.
  std::pair<uint64_t, uint64_t> focusedTransfer(mlir::Block *B,
                                                const Editing *Edits) const;
  /// Walks forward from From until each unit of Open is read or overwritten.
  void walkFocused(mlir::Operation *From, uint64_t Open, uint64_t &Gen,
                   uint64_t &Kill) const;
  llvm::SmallVector<uint16_t, 8> FocusUnits;
  llvm::DenseMap<mlir::Block *, std::pair<uint64_t, uint64_t>> FocusWords;
  mutable std::unordered_map<mlir::Block *, llvm::BitVector> FocusIn, FocusOut;
  bool Focused = false;
  /// Blocks where EXEC may differ from its value at kernel launch.
  llvm::DenseMap<mlir::Block *, bool> ExecChangedIn;
  llvm::DenseMap<mlir::Block *, mlir::Operation *> FirstExecDef;
  llvm::BitVector Empty;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_LIVENESS_H
