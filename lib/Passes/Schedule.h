//===- Schedule.h - The list scheduler behind amdgcn-schedule ---*- C++ -*-===//

#ifndef ASMEVO_LIB_PASSES_SCHEDULE_H
#define ASMEVO_LIB_PASSES_SCHEDULE_H

#include "asmevo/Analysis/DependenceGraph.h"
#include "asmevo/Analysis/Hazards.h"

#include "llvm/ADT/DenseMap.h"

namespace asmevo::sched {

/// Latency of an op in LLVM's scheduling model of the subtarget.
unsigned latencyOf(InstInfoCache &C, const InstInfo &I);

struct PipeState;

/// How listSchedule treats the wait states an order needs.
struct ListOptions {
  /// An op that needs s_nops also yields to an independent op that must
  /// wait for a latency instead (an s_nop only when no op whose sources are
  /// issued can go without one).
  bool AvoidNops = false;
  /// The s_waitcnt an op reading a load's result of the block will get
  /// counts as a wait state.
  bool CountWaits = true;
};

/// A new order for the ops of Ops (a block without its terminator and
/// without s_nops), respecting every edge of G except, when IgnoreWAR,
/// the WAR ones (the deliberately broken variant). Ops issue by critical
/// path when ready: their sources written (also those still in flight at
/// the block's entry, when Entry is given), for an MFMA the matrix unit
/// free, and no hazard of the order so far asking for wait states (an op
/// that would need s_nops yields to an independent one that fills them;
/// see ListOptions). Delayed, when given, is set when some op of the order
/// needs s_nops. HC, when given, answers the hazard questions (a memoizing
/// checker shared by the proposals and estimates of a block).
llvm::SmallVector<mlir::Operation *>
listSchedule(llvm::ArrayRef<mlir::Operation *> Ops, const DependenceGraph &G,
             InstInfoCache &C, bool IgnoreWAR = false,
             const PipeState *Entry = nullptr, ListOptions LO = {},
             bool *Delayed = nullptr, HazardChecker *HC = nullptr);

/// Predicted cycles of an order (in-order issue, one op per cycle, an op
/// waits for the latencies of what it depends on in G, for what is in
/// flight at the entry and for the matrix unit) plus the wait states of the
/// s_nops its hazards need in this order, charged in full (never hidden
/// under a latency) unless the matrix unit is busy past them (then they are
/// the MFMA pipeline's latency). NopSlots, when given, receives the wait
/// states charged; HC as for listSchedule.
unsigned estimateCycles(llvm::ArrayRef<mlir::Operation *> Order,
                        const DependenceGraph &G, InstInfoCache &C,
                        const PipeState *Entry = nullptr,
                        unsigned *NopSlots = nullptr,
                        HazardChecker *HC = nullptr);

/// What is still in flight when a block is entered, in issue slots from its
/// first op: register results not yet written, the matrix (MFMA) and vector
/// ALU units still busy, and the memory ops still counted by vmcnt and
/// lgkmcnt (their completion times, oldest first).
struct PipeState {
  llvm::DenseMap<unsigned, int> RegReady; // register unit -> ready slot
  int MfmaFree = 0, ValuFree = 0;
  llvm::SmallVector<int, 8> Vm, Lgkm;
};

/// Issue slots one wave needs for Seq (ops of one block as they stand, with
/// their s_waitcnt, s_nop and s_barrier) in a model kept close to the cost
/// model's (docs/cost-model.md): one op per slot in order (4 cycles); an op
/// waits for the registers it reads or overwrites (ALU results after their
/// latency, MFMA results after their passes, memory results when the load
/// completes), a VALU op for the VALU, an MFMA for the matrix unit (busy
/// for its passes); s_waitcnt waits for its counters, s_nop N takes N+1
/// slots, s_barrier and a taken s_branch a fixed cost (BarrierSlots,
/// BranchTakenSlots). Latencies come from LLVM's MCSchedModel (latencyOf).
/// Entry is what the block's predecessors leave in flight (may be null);
/// Exit, when given, receives what Seq leaves in flight at its end. With
/// ChargeNops, an s_nop's wait states are added to the result instead of
/// taking slots a later op may wait through anyway (amdgcn-schedule's
/// decisions: an order is not faster for s_nops hidden under a latency),
/// except while the matrix unit is busy past them.
unsigned simulate(llvm::ArrayRef<mlir::Operation *> Seq, InstInfoCache &C,
                  const PipeState *Entry = nullptr, PipeState *Exit = nullptr,
                  bool ChargeNops = false);

/// What the predecessors of B (as they stand) leave in flight at B's entry:
/// each predecessor simulated from an empty pipeline, the latest of them.
PipeState entryState(mlir::Block *B, InstInfoCache &C);

/// A barrier waits for the other waves of the workgroup, a time no
/// single-wave model knows: a fixed cost, so that long-latency ops issued
/// before it are seen to overlap the wait. About what the cost model
/// charges per barrier on the Tensile SGEMM of bench/ (30-40 cycles).
constexpr unsigned BarrierSlots = 8;
/// Slots between the completions of two vector memory ops (vmcnt, in
/// order): their data share the CU's vector memory path. The cost model
/// (docs/cost-model.md) moves a wave64 dword load's 256 bytes through the
/// L1 path in 1 slot and through a CU's share of MI300X's HBM bandwidth
/// (5.3 TB/s over 304 CUs at 2.1 GHz) in about 8; assumed in between,
/// chosen on bench/: with 1 or 2, merging three waits of the memory-bound
/// loop of l2_matmul_swish_sum_groupnorm looked faster here and was 28
/// cycles slower in the cost model; with 4, the merges that make
/// l2_matmul_scale_residual 4.7 % faster there looked no faster here.
constexpr unsigned VmemReturnSlots = 3;
/// The cost model's BranchTakenCycles (32) in slots.
constexpr unsigned BranchTakenSlots = 8;

} // namespace asmevo::sched

#endif // ASMEVO_LIB_PASSES_SCHEDULE_H
