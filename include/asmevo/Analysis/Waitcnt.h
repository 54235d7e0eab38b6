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
// returning).
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
  /// issued, a call drains everything).
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

private:
  mlir::Operation *Fn;
  InstInfoCache &Cache;
  llvm::DenseMap<mlir::Block *, PendingState> In;
  PendingState Empty;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_WAITCNT_H
