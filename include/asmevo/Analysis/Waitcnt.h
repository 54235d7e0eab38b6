//===- Waitcnt.h - Memory operations in flight and s_waitcnt ----*- C++ -*-===//
//
// The semantics of the gfx9 wait counters, as a forward dataflow over a
// function's CFG:
//
//  * Every VMEM load/store/atomic increments vmcnt; they complete in issue
//    order (gfx9 has no separate store counter), so `s_waitcnt vmcnt(N)`
//    guarantees an op complete once at least N in-order vmcnt ops were
//    issued after it.
//  * LDS ops increment lgkmcnt and complete in order among themselves; SMEM
//    loads, messages and GDS also count on lgkmcnt but may complete out of
//    order, so only lgkmcnt(0) guarantees them. (An LDS op is complete after
//    lgkmcnt(N) when at least N younger *LDS* ops exist: younger SMEM ops may
//    already be done.)
//  * FLAT ops that may reach either LDS or memory (flat_*, LDS DMA) count on
//    both counters and may complete out of order on both: only vmcnt(0) and
//    lgkmcnt(0) together guarantee them.
//  * Exports count on expcnt, in order.
//
// The state at a point is the set of operations that may still be in
// flight on some path, each with the fewest younger in-order ops seen on any
// path (a conservative merge). A kernel starts with nothing in flight; a
// device function starts with "unknown" operations in flight on every
// counter that may write any register (LLVM's callee waits on entry). After
// a call nothing is in flight (LLVM's callees wait for everything before
// returning), except after an internal call (InstInfo::InternalCall): its
// subroutine issues and waits for nothing, so what was in flight stays.
//
// The joined state loses which path a wait retired an op on: with 1 younger
// load on one path into a block and 4 on another, vmcnt(4) retires the op
// on the second only, and a use after it looks unwaited. Where the input's
// branches are correlated (only the second path reaches the use: Tensile's
// direct-to-VGPR loads), the use is safe. retiredOnSomePath tracks, per
// producer and only when asked, the fewest and most younger ops over the
// paths and the counters some path retired it on, so that such a use is
// not taken for an unwaited one the input already had (Legality).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_WAITCNT_H
#define ASMEVO_ANALYSIS_WAITCNT_H

#include "asmevo/Analysis/InstInfo.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace asmevo {

struct PendingOp {
  /// The memory operation; null for an unknown operation (function entry).
  mlir::Operation *Op = nullptr;
  /// counterBit()s it is still counted on (a wait that covers one counter
  /// of several clears it)
  uint8_t Counters = 0;
  uint8_t InOrder = 0;  ///< counterBit()s on which it completes in order
  /// Fewest in-order ops of each counter issued after it on any path.
  uint8_t Younger[NumCounters] = {0, 0, 0};
  /// The register units it will write when it completes; null = every
  /// register (unknown operation).
  const UnitList *Defs = nullptr;
  /// The first and last unit of Defs, set by PendingState::issue:
  /// writesAny decides most questions from them without reading the list,
  /// which lives in the producer's record (the defaults exclude nothing).
  uint16_t DefsLo = 0, DefsHi = UINT16_MAX;
  /// A vector memory op that writes LDS (buffer/global load with lds):
  /// LDS ops must wait for it.
  bool LdsDma = false;

  bool writesAny(llvm::ArrayRef<uint16_t> Units) const;
  /// Completed after an s_waitcnt with these counts?
  bool coveredBy(const unsigned Counts[NumCounters]) const;
  /// The counters of Counters that an s_waitcnt with these counts covers.
  uint8_t countersCoveredBy(const unsigned Counts[NumCounters]) const;
  /// Loosest counts that guarantee this op complete (others at maximum).
  void requiredCounts(unsigned Counts[NumCounters]) const;
};

class PendingState {
public:
  llvm::SmallVector<PendingOp, 8> Ops;

  /// Union with O (fewest younger counts): returns true when this changed.
  bool merge(const PendingState &O);
  /// A new memory operation is issued.
  void issue(const InstInfo &I);
  /// An s_waitcnt with these counts; covered ops are appended to Covered.
  void wait(const unsigned Counts[NumCounters],
            llvm::SmallVectorImpl<PendingOp> *Covered = nullptr);
  /// Unknown operations on every counter (a device function's entry).
  void addUnknown();
  const PendingOp *find(mlir::Operation *Op) const;
  bool empty() const { return Ops.empty(); }
};

/// Maximum counts (no wait).
void maxCounts(unsigned Counts[NumCounters]);
bool isNoWait(const unsigned Counts[NumCounters]);

class WaitcntAnalysis {
public:
  WaitcntAnalysis(mlir::Operation *Fn, InstInfoCache &Cache);

  /// Applies one op to a state (a wait removes covered ops, a memory op is
  /// issued, a call drains everything unless it is an internal call).
  static void transfer(PendingState &S, const InstInfo &I);

  mlir::Operation *function() const { return Fn; }
  const PendingState &in(mlir::Block *B) const;
  /// Replays B from its entry state; F sees each op with the state just
  /// before it.
  void replay(mlir::Block *B,
              llvm::function_ref<void(mlir::Operation *, const PendingState &)>
                  F) const;

  /// A use or overwrite of a register while a memory operation that writes
  /// it may still be in flight (no wait covers it).
  struct Unwaited {
    mlir::Operation *User = nullptr;
    mlir::Operation *Producer = nullptr; ///< null: unknown (function entry)
    UnitList Units;
  };
  void findUnwaited(llvm::SmallVectorImpl<Unwaited> &Out) const;
  /// The in-flight ops whose pending writes an op touches (all of them
  /// that write registers when the op's registers are unknown: see
  /// InstInfoCache::unknownRegisters).
  static void touching(const PendingState &S, const InstInfo &I,
                       const RegUnitInfo &RU,
                       llvm::SmallVectorImpl<const PendingOp *> &Out,
                       bool UnknownRegisters = false);

  /// The counters on which some path into Op retired Producer (by an
  /// s_waitcnt or a call) after that path's latest issue of it. The joined
  /// state (in()) keeps the fewest younger ops of any path, so it loses
  /// these: a use that looks unwaited may be waited for on the one path
  /// that reaches it (a branch correlation the analysis cannot see).
  uint8_t retiredOnSomePath(mlir::Operation *Producer,
                            mlir::Operation *Op) const;
  /// Whether Producer may still be in flight on some path right before
  /// Ops[Index], Ops being the ops of B when this analysis was made (they
  /// are replayed from B's entry state).
  bool mayBePendingBefore(mlir::Operation *Producer, mlir::Block *B,
                          llvm::ArrayRef<mlir::Operation *> Ops,
                          unsigned Index) const;
  /// ... right before or after any op of Ops.
  bool mayBePendingIn(mlir::Operation *Producer, mlir::Block *B,
                      llvm::ArrayRef<mlir::Operation *> Ops) const;

private:
  /// One producer along the paths into a point: the counters it may still
  /// be counted on, the fewest and most in-order younger ops of the paths
  /// on which it is, and the counters some path retired it on.
  struct Track {
    uint8_t Pending = 0, Retired = 0;
    uint8_t Min[NumCounters] = {0, 0, 0}, Max[NumCounters] = {0, 0, 0};
    bool merge(const Track &O);
    bool operator==(const Track &O) const;
  };
  using Tracks = llvm::DenseMap<mlir::Block *, Track>;
  void transfer(Track &T, mlir::Operation *Producer, mlir::Operation *Op,
                const InstInfo &P) const;
  const Tracks &tracksOf(mlir::Operation *Producer) const;
  /// Producer's track at B's entry; null when no path reaches B.
  const Track *entryTrack(mlir::Operation *Producer, mlir::Block *B) const;

  mlir::Operation *Fn;
  InstInfoCache &Cache;
  llvm::DenseMap<mlir::Block *, PendingState> In;
  PendingState Empty;
  /// retiredOnSomePath's entry states per producer, made when first asked.
  mutable llvm::DenseMap<mlir::Operation *, Tracks> RetiredIn;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_WAITCNT_H
