//===- Legality.h - May this edit be made? Yes, or no and why ---*- C++ -*-===//
//
// The one door through which passes and external proposers change code.
// Edits are made in a Transaction (move, erase, insert, replace), then
// verified against a baseline (the function as it was after the last
// accepted edit); a transaction that breaks something is rolled back and
// the verdict says what:
//
//  * dependence: an ordering constraint of the block's dependence graph
//    (RAW/WAR/WAW with the registers, memory, side-effect order, wait
//    count, wait-before-use, control) between surviving original ops is
//    reversed;
//  * wait: an op reads or overwrites a register while a memory operation
//    that writes it may still be in flight (no s_waitcnt covers it), which
//    the baseline did not do;
//  * sync: at a fence-like op (barrier, store, atomic, message, call,
//    return, cache control) a memory operation may still be in flight that
//    the baseline had completed;
//  * hazard: a producer/consumer pair of the hazard table now has fewer
//    wait states than required (and than the baseline had), with the
//    number missing;
//  * live value: an erased op's result is still read, or a new op
//    overwrites a register that original code still reads (unless the
//    transaction also erased an op of the same block that wrote it: a
//    replacement);
//  * side effect: an erased op has side effects or writes memory and no
//    new op of the same kind replaces it;
//  * structure: edits across blocks, of terminators, or in code recovery
//    could not model (not_relocatable functions, raw words); in functions
//    that call into their own code (internal_calls), every edit where
//    InternalCallModel's assumptions fail, and edits of the subroutines
//    (but s_nops put there by a transaction that allows them).
//
// What the legality layer does not decide is whether new instructions
// compute the same values as the ones they replace: that is the
// differential oracle's job (asmevo-verify).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_LEGALITY_H
#define ASMEVO_ANALYSIS_LEGALITY_H

#include "asmevo/Analysis/DependenceGraph.h"
#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Analysis/InternalCalls.h"
#include "asmevo/Analysis/Liveness.h"
#include "asmevo/Analysis/Waitcnt.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <optional>

namespace asmevo {

struct Verdict {
  enum class Kind : uint8_t {
    None,
    Dependence,
    Wait,
    Sync,
    Hazard,
    LiveValue,
    SideEffect,
    Structure
  };
  bool Legal = true;
  Kind K = Kind::None;
  std::string Reason;

  static Verdict ok() { return Verdict(); }
  static Verdict fail(Kind K, std::string Reason) {
    Verdict V;
    V.Legal = false;
    V.K = K;
    V.Reason = std::move(Reason);
    return V;
  }
  explicit operator bool() const { return Legal; }
};
const char *verdictKindName(Verdict::Kind K);

/// Which functions of a code object name an instruction id with a
/// PC-relative literal (long branches, jump tables, address computations).
/// Built once per code object by a pass and handed to each function's
/// Legality (which otherwise builds its own: a walk of the whole object).
class PcrelReferences {
public:
  /// Op: the code object or any op inside it.
  explicit PcrelReferences(mlir::Operation *Op);
  /// A function other than Fn whose literal names Id; null when none.
  mlir::Operation *otherThan(int64_t Id, mlir::Operation *Fn) const;

private:
  llvm::DenseMap<int64_t, llvm::SmallVector<mlir::Operation *, 1>> By;
};

class Legality {
public:
  /// Legality of edits to one amdgcn.kernel or amdgcn.func. While it
  /// lives, every edit of the function goes through a Transaction: the
  /// baseline and the cached per-block liveness summaries are updated only
  /// by commits and rollbacks, so an edit made around them leaves stale
  /// answers.
  explicit Legality(mlir::Operation *Fn);
  Legality(mlir::Operation *Fn, InstInfoCache &Cache);
  /// The same with the code object's PC-relative references, built once
  /// by the pass (see setPcrelReferences).
  Legality(mlir::Operation *Fn, InstInfoCache &Cache,
           const PcrelReferences &Refs);
  ~Legality();

  mlir::Operation *function() const { return Fn; }
  InstInfoCache &cache() { return *Cache; }

  class Transaction {
  public:
    explicit Transaction(Legality &L);
    ~Transaction(); ///< rolls back what was not committed
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    /// Moves X right before / after Y (same block).
    void moveBefore(mlir::Operation *X, mlir::Operation *Y);
    void moveAfter(mlir::Operation *X, mlir::Operation *Y);
    /// Removes X (kept until commit for roll back).
    void erase(mlir::Operation *X);
    /// Removes X claiming that its results are already in place: Same is
    /// an earlier identical instruction of the block (same encoding, no
    /// side effects, not reading its own results) with nothing it reads or
    /// writes changed in between, or X itself when X copies a register to
    /// itself. The claim is checked; if it holds, X's results count as
    /// provided for the live-value check.
    void eraseRedundant(mlir::Operation *X, mlir::Operation *Same);
    /// Inserts a detached op before Y; the transaction owns it until commit.
    void insertBefore(mlir::Operation *New, mlir::Operation *Y);
    /// Replaces a contiguous range by detached new ops.
    void replace(llvm::ArrayRef<mlir::Operation *> Old,
                 llvm::ArrayRef<mlir::Operation *> New);

    /// Inserts the s_nops that hazards made worse by this transaction need
    /// (before each consumer that lacks wait states); returns the number of
    /// wait states added.
    unsigned insertNopsForHazards();

    /// Lets this transaction put s_nops into the subroutines of internal
    /// calls (only that: nothing there moves or goes), for hazards whose
    /// consumer is there; other edits of fixed code stay refused.
    void allowSubroutineNops() { SubroutineNops = true; }

    /// Checks the current state against the baseline.
    Verdict verify();
    /// verify(); keeps the edits and makes them the baseline when legal,
    /// rolls them back otherwise.
    Verdict commit();
    void rollback();
    bool empty() const { return Log.empty(); }

  private:
    friend class Legality;
    struct Entry {
      enum { Move, Erase, Insert } K;
      mlir::Operation *Op;
      mlir::Block *OldBlock;
      mlir::Operation *OldNext; // null: end of OldBlock
      bool Owned;               // Insert: destroyed on roll back
      mlir::Operation *SameAs = nullptr; // Erase: eraseRedundant's claim
    };
    void touch(mlir::Operation *Op, mlir::Block *B);
    void insert(mlir::Operation *New, mlir::Operation *Y, bool Owned);
    void replace(llvm::ArrayRef<mlir::Operation *> Old,
                 llvm::ArrayRef<mlir::Operation *> New, bool Owned);
    bool isNew(mlir::Operation *Op) const;
    bool isMoved(mlir::Operation *Op) const;
    bool isErased(mlir::Operation *Op) const;
    /// Log appends Op's entry (and Kinds its kind).
    void log(const Entry &E);
    Legality &L;
    llvm::SmallVector<Entry, 8> Log;
    /// Per op, a bit per kind of entry it has in Log: isNew, isMoved and
    /// isErased are asked per op of the function by the checks, and a
    /// scheduler's transaction moves thousands of ops.
    llvm::DenseMap<mlir::Operation *, uint8_t> Kinds;
    llvm::SetVector<mlir::Block *> Touched;
    bool MemoryTouched = false;
    bool SubroutineNops = false;
    bool Done = false;
    Verdict StructureError;
    std::unique_ptr<WaitcntAnalysis> Fresh;
  };

  // Queries: make the edit, verify, roll back. The IR is unchanged.
  Verdict canMoveBefore(mlir::Operation *X, mlir::Operation *Y);
  Verdict canMoveAfter(mlir::Operation *X, mlir::Operation *Y);
  Verdict canErase(mlir::Operation *X);
  /// New must be detached; it stays detached (and owned by the caller).
  Verdict canInsertBefore(mlir::Operation *New, mlir::Operation *Y);
  Verdict canReplace(llvm::ArrayRef<mlir::Operation *> Old,
                     llvm::ArrayRef<mlir::Operation *> New);

  // Edits: applied when legal (the verdict says why not otherwise).
  Verdict moveBefore(mlir::Operation *X, mlir::Operation *Y);
  Verdict moveAfter(mlir::Operation *X, mlir::Operation *Y);
  Verdict erase(mlir::Operation *X);
  /// Takes ownership of New (destroyed when refused).
  Verdict insertBefore(mlir::Operation *New, mlir::Operation *Y);
  Verdict replace(llvm::ArrayRef<mlir::Operation *> Old,
                  llvm::ArrayRef<mlir::Operation *> New);

  /// The PC-relative references of the whole code object (see
  /// PcrelReferences); must outlive this Legality.
  void setPcrelReferences(const PcrelReferences &R) { Refs = &R; }

  /// Blocks whose layout must not change (the kernarg-preload prologue,
  /// the subroutines of an internal_calls function): any edit touching
  /// them is refused (but s_nops in a subroutine, when the transaction
  /// allows them).
  bool isFrozen(mlir::Block *B);
  /// The model of the function's calls into its own code (internal_calls),
  /// shared through the InstInfoCache (InstInfoCache::internalCalls): made
  /// from the function before its first edit checked with this cache.
  const InternalCallModel &internalCalls();
  /// The blocks where T changes code the internal-call model keeps as it
  /// is (a subroutine): a pass that plans a whole function at once keeps
  /// its original code there and plans again.
  void blocksChangingFixedCode(const Transaction &T,
                               llvm::SmallVectorImpl<mlir::Block *> &Out);

  /// Facts of the baseline, for passes that plan edits.
  const WaitcntAnalysis &waits();
  DependenceGraph graph(mlir::Block *B, bool Hazards = true);
  /// Violations the baseline already had (tolerated, never added to).
  void baselineProblems(llvm::SmallVectorImpl<std::string> &Out);
  /// The memory ops that may be in flight at a sync op in the baseline
  /// (null entries: unknown ops); null when Op is not a sync op.
  const llvm::SmallVectorImpl<mlir::Operation *> *
  baselinePendingAt(mlir::Operation *SyncOp) const;
  /// The memory ops the baseline let Op touch while they may still be in
  /// flight (violations the input had, tolerated); null when none.
  const llvm::SmallVectorImpl<mlir::Operation *> *
  baselineUnwaitedAt(mlir::Operation *Op) const;
  /// The counters on which Pending was still counted when the baseline let
  /// Op touch its result (0: it did not), less those on which a wait (or a
  /// call) retired it on some path into Op (WaitcntAnalysis::
  /// retiredOnSomePath): that path may be the only one reaching Op, so
  /// every path must retire it there. Only these are tolerated, unless
  /// PathsKept: then all of them, as the check does when an edit leaves
  /// Op and Pending in place and, wherever Pending may be in flight, erases
  /// and moves no wait and adds, erases and moves no memory op or call
  /// (added waits only retire more): every path then retires it where the
  /// original did.
  uint8_t baselineUnwaitedCounters(mlir::Operation *Op,
                                   mlir::Operation *Pending,
                                   bool PathsKept = false) const;
  /// Whether the baseline may still have Producer in flight right before X
  /// (an op of the baseline) on some path into it.
  bool baselineMayBePendingBefore(mlir::Operation *Producer,
                                  mlir::Operation *X);

private:
  void rebuildBaseline();
  void updateBaseline(const Transaction &T);
  Verdict verify(Transaction &T);
  Verdict checkStructure(Transaction &T);
  Verdict checkOrder(Transaction &T);
  Verdict checkLiveValues(Transaction &T);
  Verdict checkWaits(Transaction &T);
  bool pathsKept(const Transaction &T, mlir::Operation *Op, mlir::Operation *P);
  Verdict checkHazards(Transaction &T);
  /// NoIndexing: the function holds no op that switches VGPR indexing.
  bool redundancyHolds(const Transaction::Entry &E, bool NoIndexing);
  void affectedConsumers(const Transaction &T,
                         llvm::SmallVectorImpl<mlir::Operation *> &Out);
  void recordHazards(llvm::ArrayRef<mlir::Operation *> Consumers);
  /// Only (when given): record these ops alone.
  void
  recordWaits(const WaitcntAnalysis &W, llvm::ArrayRef<mlir::Block *> Blocks,
              const llvm::SmallPtrSetImpl<mlir::Operation *> *Only = nullptr);
  /// The new and moved ops of T (still in a block): with no memory op, wait
  /// or call edited, the only ops whose ops in flight may differ from the
  /// baseline's.
  static void newOrMoved(const Transaction &T,
                         llvm::SmallPtrSetImpl<mlir::Operation *> &Out);
  /// The moved ops of T.
  static void movedOps(const Transaction &T,
                       llvm::SmallPtrSetImpl<mlir::Operation *> &Out);
  /// Whether the baseline's B holds no raw word and no terminator but its
  /// last op (computed once, kept by updateBaseline).
  bool baseClean(mlir::Block *B);
  /// Makes L, B's baseline order before T, B's order after T.
  void updateOrder(const Transaction &T, mlir::Block *B,
                   llvm::SmallVectorImpl<mlir::Operation *> &L);
  /// B's first op that writes EXEC as T leaves it (null: none).
  mlir::Operation *firstExecDef(const Transaction &T, mlir::Block *B);
  /// Does Op read or write register unit U (or registers it cannot name)?
  bool touchesUnit(mlir::Operation *Op, uint16_t U);
  /// A baseline op of B before which no baseline op touches U (null: none
  /// does), from BaseFirstTouch or a walk of the baseline order that stops
  /// at the first op the open transaction erased or moved (Moved).
  mlir::Operation *
  baseFirstTouch(mlir::Block *B, uint16_t U,
                 const llvm::SmallPtrSetImpl<mlir::Operation *> &Moved);
  /// An op of B as T leaves it before which no op touches U (null: no op
  /// of B does), for Liveness::Editing::From; nullopt when unknown (walk
  /// from the start).
  std::optional<mlir::Operation *>
  walkStart(const Transaction &T, mlir::Block *B, uint16_t U,
            const llvm::SmallPtrSetImpl<mlir::Operation *> &Moved);
  /// Whether T edits an op that switches VGPR indexing (which changes
  /// whether the ops after it name their registers).
  bool editsIndexing(const Transaction &T);
  /// The pending state right before Op (in a block whose memory ops, waits
  /// and calls are the baseline's), from checkpoints of the block's memory
  /// ops instead of a replay from the block's start.
  PendingState baseStateBefore(mlir::Operation *Op);
  void forgetUnwaited(mlir::Operation *Op);

  mlir::Operation *Fn;
  std::unique_ptr<InstInfoCache> OwnedCache;
  InstInfoCache *Cache;
  Transaction *Active = nullptr;

  // Baseline.
  llvm::DenseMap<mlir::Block *, llvm::SmallVector<mlir::Operation *, 16>>
      BaseOrder;
  const PcrelReferences *Refs = nullptr;
  /// Depends only on the CFG and on ops no edit may change (calls,
  /// subroutine blocks), so it outlives commits.
  std::unique_ptr<PcrelReferences> OwnedRefs;
  llvm::DenseSet<int64_t> PcrelTargets; // ids named by this function's
                                        // PC-relative literals
  std::unique_ptr<WaitcntAnalysis> BaseWaits;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Operation *, 2>>
      BaseUnwaited;
  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Operation *>, uint8_t>
      BaseUnwaitedCounters;
  /// The same with the counters some path retired it on.
  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Operation *>, uint8_t>
      BaseUnwaitedAsIs;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Operation *, 4>>
      BaseSyncPending;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<HazardPair, 1>>
      BaseHazards;
  /// BaseHazards holds every op's pairs. They are recorded when the first
  /// transaction opens (before any edit), not with the rest of the
  /// baseline: a pass that gives up on a function before editing it (its
  /// wait budget, say) never needs them.
  bool HazardsRecorded = false;
  void recordAllHazards();
  /// Liveness summaries of the blocks no transaction has touched since
  /// they were made (a transaction's blocks are dropped when it commits or
  /// rolls back).
  LivenessSummaries LiveSummaries;
  /// Each block's first op that writes EXEC in the baseline (null: none),
  /// where known.
  llvm::DenseMap<mlir::Block *, mlir::Operation *> BaseFirstExecDef;
  /// checkStructure's per-block facts of the baseline: baseClean(), and
  /// true when no function but this one names an op of the block but its
  /// first (a PC-relative reference into its middle).
  llvm::DenseMap<mlir::Block *, bool> BaseClean, BaseUnreferenced;
  /// Per block and register unit, an op of the baseline before which no op
  /// touches the unit (null: no op of the block does); kept across commits
  /// (updateBaseline moves it past what a commit changed).
  llvm::DenseMap<mlir::Block *, llvm::DenseMap<uint16_t, mlir::Operation *>>
      BaseFirstTouch;
  /// BaseWaits' pending states at every WaitMarkStride-th memory op (wait,
  /// memory op or call) of a block: valid until a commit edits a memory op,
  /// wait or call (which replaces BaseWaits).
  struct WaitMarks {
    llvm::DenseMap<mlir::Operation *, unsigned> Index;
    llvm::SmallVector<mlir::Operation *, 0> Events;
    std::vector<PendingState> States; ///< before Events[K * stride]
  };
  llvm::DenseMap<mlir::Block *, WaitMarks> BaseWaitMarks;
  /// Whether the baseline may hold an op that switches VGPR indexing
  /// (s_set_gpr_idx_*); false only when none has been seen.
  bool MayIndex = true;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_LEGALITY_H
