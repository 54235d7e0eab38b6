//===- Schedule.h - The list scheduler behind amdgcn-schedule ---*- C++ -*-===//

#ifndef ASMEVO_LIB_PASSES_SCHEDULE_H
#define ASMEVO_LIB_PASSES_SCHEDULE_H

#include "asmevo/Analysis/DependenceGraph.h"

namespace asmevo::sched {

/// Latency of an op in LLVM's scheduling model of the subtarget.
unsigned latencyOf(InstInfoCache &C, const InstInfo &I);

/// A new order for the ops of Ops (a block without its terminator and
/// without s_nops), respecting every edge of G except, when IgnoreWAR,
/// the WAR ones (the deliberately broken variant).
llvm::SmallVector<mlir::Operation *>
listSchedule(llvm::ArrayRef<mlir::Operation *> Ops, const DependenceGraph &G,
             InstInfoCache &C, bool IgnoreWAR = false);

/// Predicted cycles of an order (in-order issue, one op per cycle, an op
/// waits for the latencies of what it depends on in G).
unsigned estimateCycles(llvm::ArrayRef<mlir::Operation *> Order,
                        const DependenceGraph &G, InstInfoCache &C);

} // namespace asmevo::sched

#endif // ASMEVO_LIB_PASSES_SCHEDULE_H
