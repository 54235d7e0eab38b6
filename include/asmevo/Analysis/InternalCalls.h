//===- InternalCalls.h - Subroutines in a function's own code -*- C++ -*-===//
//
// A kernel marked internal_calls (Tensile's activation functions) calls
// subroutines in its own code with s_swappc_b64; they return with
// s_setpc_b64. The analyses see the call as an op in the middle of a block
// and the subroutines as blocks without predecessors. This model decides
// when edits around the calls are safe, treating each call site and every
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
//    dependence graph, liveness and the wait check (a function with more
//    than 62 subroutines is not modelled);
//  * the hazard checker follows the instructions as they run, across each
//    call into the subroutines it may reach and across their returns
//    (HazardChecker), so the code around the calls is edited like any
//    other; the calls and the subroutines stay as they are (but for the
//    s_nops amdgcn-hazard puts before a subroutine's consumers).
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
  /// How many models of internal_calls functions this process has built
  /// (each walks and analyses the whole function): tests check that the
  /// passes share one per function.
  static unsigned long builds();
  const std::string &reason() const { return Reason; }

  /// Blocks the entry does not reach (the subroutines and dead code):
  /// never edited.
  bool isFixedBlock(mlir::Block *B) const { return Fixed.contains(B); }
  /// Blocks of the subroutines (the fixed blocks a call reaches; the
  /// others are dead code). Legality lets s_nops be put there: they run on
  /// every call and only add wait states.
  bool isSubroutineBlock(mlir::Block *B) const { return SubBlocks.contains(B); }
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
  /// The calls that may reach the subroutine entered at Entry.
  llvm::ArrayRef<mlir::Operation *> callersOf(mlir::Block *Entry) const {
    auto It = Callers.find(Entry);
    return It == Callers.end() ? llvm::ArrayRef<mlir::Operation *>()
                               : llvm::ArrayRef<mlir::Operation *>(It->second);
  }
  /// Whether Op stays as it is: Op is in a fixed block or is a call (the
  /// passes leave it alone; amdgcn-hazard does not pad before a call).
  bool isFixedOp(mlir::Operation *Op) const {
    return FixedOps.contains(Op) ||
           (Op->getBlock() && Fixed.contains(Op->getBlock()));
  }

private:
  void check(mlir::Operation *Fn);
  void computeSubroutine(mlir::Block *Entry, Subroutine &Out);
  void setCallEffects();
  void fail(std::string Why) {
    if (Reason.empty())
      Reason = std::move(Why);
  }

  InstInfoCache &Cache;
  std::string Reason;
  llvm::DenseSet<mlir::Block *> Fixed;
  llvm::DenseSet<mlir::Block *> SubBlocks;
  llvm::SmallVector<mlir::Operation *, 8> Calls;
  llvm::DenseSet<mlir::Operation *> FixedOps; // the calls
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Block *, 4>>
      CallTargets;
  llvm::DenseMap<mlir::Block *, Subroutine> Subs;
  llvm::DenseMap<mlir::Block *, llvm::SmallVector<mlir::Operation *, 4>>
      Callers;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_INTERNALCALLS_H
