//===- InternalCalls.h - Subroutines in a function's own code -*- C++ -*-===//
//
// A kernel marked internal_calls (Tensile's activation functions) calls
// subroutines in its own code with s_swappc_b64; they return with
// s_setpc_b64. The analyses see the call as an op in the middle of a block
// and the subroutines as blocks without predecessors. This model decides
// when edits between the calls are safe, treating each call site and every
// subroutine as fixed code:
//
//  * the subroutines (the blocks the entry does not reach) are plain ALU
//    code: no memory op, no s_waitcnt, no call, no side effect, no MFMA;
//    so the memory ops in flight pass through a call unchanged (the wait
//    analysis keeps them: WaitcntAnalysis::transfer);
//  * every call's target pair is written only by address computations
//    (s_getpc_b64 + PC-relative literal) that name a subroutine, on every
//    path from the entry, so no call reaches other code; the subroutines a
//    call may reach are those the address computations reaching it name;
//  * every subroutine returns with s_setpc_b64 of the pair its calls write
//    and never writes that pair, so it returns right after the call;
//  * a call then reads what the subroutines it may reach read before
//    writing it, and writes what they may write (registers they may leave
//    unchanged count as read too, so liveness keeps them): its Uses and
//    Defs in InstInfoCache (setInternalCallEffects), used by the
//    dependence graph, liveness and the wait check (a call that may reach
//    more than 63 subroutines keeps reading and writing every register);
//  * hazards across the call and the return are not modelled: the ops
//    within MaxHazardWaitStates wait states before and after each call
//    (following the CFG into other blocks) must stay exactly as they are
//    (callWindows()), so every producer/consumer pair that spans a
//    boundary keeps its distance.
//
// Anything else keeps the function unedited, with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_INTERNALCALLS_H
#define ASMEVO_ANALYSIS_INTERNALCALLS_H

#include "asmevo/Analysis/InstInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace asmevo {

class InternalCallModel {
public:
  /// Fn: an amdgcn.kernel or amdgcn.func; a function without the
  /// internal_calls attribute has no subroutines and is modelled. When
  /// modelled, sets the calls' effects in Cache. Shared through
  /// InstInfoCache::internalCalls.
  InternalCallModel(mlir::Operation *Fn, InstInfoCache &Cache);

  /// Whether edits outside the fixed parts are safe; else reason() says
  /// which assumption fails.
  bool modelled() const { return Reason.empty(); }
  const std::string &reason() const { return Reason; }

  /// Blocks the entry does not reach (the subroutines and dead code):
  /// never edited.
  bool isFixedBlock(mlir::Block *B) const { return Fixed.contains(B); }
  llvm::ArrayRef<mlir::Operation *> callSites() const { return Calls; }
  /// The subroutine entries Call may reach (empty for other ops).
  llvm::ArrayRef<mlir::Block *> targetsOf(mlir::Operation *Call) const {
    auto It = CallTargets.find(Call);
    return It == CallTargets.end() ? llvm::ArrayRef<mlir::Block *>()
                                   : llvm::ArrayRef<mlir::Block *>(It->second);
  }
  /// What the subroutine entered at Entry reads before writing it
  /// (ExposedUses), may write (MayDefs) and writes on every path to every
  /// return (MustDefs; vector registers only where written whole and the
  /// subroutine keeps EXEC); its returns (s_setpc_b64).
  struct Subroutine {
    UnitList ExposedUses, MayDefs, MustDefs;
    llvm::SmallVector<mlir::Operation *, 2> Returns;
  };
  const Subroutine *subroutine(mlir::Block *Entry) const {
    auto It = Subs.find(Entry);
    return It == Subs.end() ? nullptr : &It->second;
  }
  /// Whether an edit of Op, or an op put right before it, would change code
  /// that stays as it is: Op is in a fixed block, is a call or lies within
  /// hazard distance of one (in a callWindows() run).
  bool isFixedOp(mlir::Operation *Op) const {
    return FixedOps.contains(Op) ||
           (Op->getBlock() && Fixed.contains(Op->getBlock()));
  }

  /// The ops that must keep their place around the call sites, as runs of
  /// consecutive ops of one block: for each run, the block, the op the run
  /// is anchored at (a call, or null for the block's start/end) and the ops
  /// (in block order). Checking a run again on the edited IR (windowOf)
  /// and comparing the op lists tells whether the edit changed it.
  struct Window {
    mlir::Block *B = nullptr;
    mlir::Operation *Anchor = nullptr; ///< the call; null: block boundary
    bool Before = false; ///< the run ends at Anchor (or the block's end)
    int WaitStates = 0;  ///< what the run must cover
    mlir::Operation *Call = nullptr; ///< the call that needs it
    llvm::SmallVector<mlir::Operation *, 8> Ops;
  };
  llvm::ArrayRef<Window> callWindows() const { return Windows; }
  /// The run W describes, computed on B as it is now.
  void windowOf(const Window &W,
                llvm::SmallVectorImpl<mlir::Operation *> &Out) const;

private:
  void check(mlir::Operation *Fn);
  void computeSubroutine(mlir::Block *Entry, Subroutine &Out);
  void setCallEffects();
  void buildWindows(mlir::Operation *Fn);
  void fail(std::string Why) {
    if (Reason.empty())
      Reason = std::move(Why);
  }

  InstInfoCache &Cache;
  std::string Reason;
  llvm::DenseSet<mlir::Block *> Fixed;
  llvm::SmallVector<mlir::Operation *, 8> Calls;
  llvm::SmallVector<Window, 16> Windows;
  llvm::DenseSet<mlir::Operation *> FixedOps; // calls and window ops
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Block *, 4>>
      CallTargets; // empty: more targets than the dataflow tells apart
  llvm::DenseMap<mlir::Block *, Subroutine> Subs;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_INTERNALCALLS_H
