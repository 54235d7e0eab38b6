//===- WaitPlanner.h - Where s_waitcnt must go, and with what counts ------===//
//
// The planning half of amdgcn-waitcnt-relax, shared with amdgcn-schedule
// (which drops the waits of the blocks it reorders and plans them again).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_LIB_PASSES_WAITPLANNER_H
#define ASMEVO_LIB_PASSES_WAITPLANNER_H

#include "asmevo/Analysis/Legality.h"

#include <array>

namespace asmevo::waits {

using Counts = std::array<unsigned, NumCounters>;

/// Waits written as plain counts (no bits outside the three counters).
bool isRelaxable(mlir::Operation *Op);
/// ... and outside blocks whose layout is frozen.
bool isRelaxable(Legality &L, mlir::Operation *Op);

using OpSet = llvm::DenseSet<mlir::Operation *>;
using BlockCounts = llvm::DenseMap<mlir::Block *, unsigned>;

/// For each op of Fn's current IR, the loosest counts that must be waited
/// for right before it: the memory ops in flight whose results it reads or
/// overwrites, and at fences (sync ops) every op the baseline of L had
/// completed there. Relaxable waits are ignored (they are to be replaced)
/// unless Pinned holds them; other waits count as written.
/// With PathsKept, the caller keeps every path's waits from the producer
/// to a read the original waited for on some path only (pinPathWaits): the
/// read is tolerated as the original made it (Legality::
/// baselineUnwaitedCounters); otherwise it waits on every path.
llvm::DenseMap<mlir::Operation *, Counts> plan(Legality &L, mlir::Operation *Fn,
                                               const OpSet *Pinned = nullptr,
                                               bool PathsKept = false);

/// Adds to Pinned the relaxable waits of Fn before which the producer of a
/// read may be in flight in the baseline, for every read that the
/// baseline's waits make safe on some path into it but not on others (a
/// branch correlation the joined analysis cannot see, e.g. Tensile's
/// direct-to-VGPR loads). With them in place every path retires the
/// producer where the original did, so plan(..., PathsKept) may tolerate
/// the read as the original made it. Returns the number of such reads.
unsigned pinPathWaits(Legality &L, mlir::Operation *Fn, OpSet &Pinned);

/// Relaxable waits per block of Fn's current IR: the budget of
/// planWithinBudget.
BlockCounts countRelaxable(Legality &L, mlir::Operation *Fn);

struct Stats {
  unsigned Before = 0, Kept = 0, Inserted = 0;
};
/// Merges planned waits that follow each other closely: a wait needed
/// before op U moves up into the wait planned before an earlier op P of the
/// same block (which then waits for the stronger counts) when fewer than
/// Within ops lie between P and U (0: never merge) and none of them issues a
/// memory op or is a call but a modelled internal call (so the counts mean the
/// same there), unless the wait before U also gives a hazard at U a wait state
/// it needs (an s_nop would take its place). Saves s_waitcnt instructions at
/// the price of waiting a little earlier.
void mergeClose(llvm::DenseMap<mlir::Operation *, Counts> &Need,
                mlir::Operation *Fn, InstInfoCache &C, unsigned Within);

/// Merges the planned waits of each block until the block holds no more
/// waits (planned plus Pinned) than Budget gives it, so that no path
/// executes more s_waitcnt than before. A wait planned before op U moves
/// into the previous planned wait P of the block with its counts lowered
/// by the memory ops issued from P up to U (waiting for counter <= c - n
/// at P keeps counter <= c at U); pairs closest together merge first.
/// Impossible when U waits for fewer than the ops issued since P, or a call
/// lies between (but a modelled internal call, which issues and retires no
/// memory op). A block whose only predecessor P stays within its budget
/// may also use the waits P saved (it runs at most once per run of P).
/// Blocks still over their budget are appended to Over.
void fitBudget(llvm::DenseMap<mlir::Operation *, Counts> &Need,
               mlir::Operation *Fn, InstInfoCache &C, const BlockCounts &Budget,
               const OpSet &Pinned, llvm::SmallVectorImpl<mlir::Block *> &Over);

/// plan + mergeClose + fitBudget; the relaxable waits of blocks that stay
/// over budget (then of their predecessors, whose relaxed waits leave more
/// in flight) are added to Pinned and the plan made again. False when
/// nothing is left to pin (Over then holds the blocks over budget).
bool planWithinBudget(Legality &L, mlir::Operation *Fn,
                      const BlockCounts &Budget, unsigned MergeWithin,
                      OpSet &Pinned,
                      llvm::DenseMap<mlir::Operation *, Counts> &Need,
                      llvm::SmallVectorImpl<mlir::Block *> &Over,
                      bool PathsKept = false);

/// Visits the blocks of Start, then their predecessors, one level further
/// up at a time, each block once: the first MinLevels levels always, the
/// next ones while More() holds. What planWithinBudget pins and
/// amdgcn-schedule keeps in order when blocks are over their budget (a read
/// at a join may be covered by a wait several blocks up one path).
void visitUpward(llvm::ArrayRef<mlir::Block *> Start, unsigned MinLevels,
                 llvm::function_ref<bool()> More,
                 llvm::function_ref<void(mlir::Block *)> Visit);

/// Stages the plan in T: relaxable waits still in Fn are erased unless
/// Pinned holds them or one sits right before an op that needs exactly its
/// counts; planned waits are inserted right before their ops.
Stats materialize(Legality::Transaction &T, Legality &L, mlir::Operation *Fn,
                  const llvm::DenseMap<mlir::Operation *, Counts> &Need,
                  bool Verbose, const OpSet *Pinned = nullptr);

} // namespace asmevo::waits

#endif // ASMEVO_LIB_PASSES_WAITPLANNER_H
