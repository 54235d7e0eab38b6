//===- RewriteUtils.h - Shared helpers of the rewrite passes ----*- C++ -*-===//
//
// Small helpers every rewrite pass uses: which functions may be edited,
// building new instruction ops, and a per-pass summary line. Passes change
// code only through asmevo::Legality (include/asmevo/Analysis/Legality.h).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_LIB_PASSES_REWRITEUTILS_H
#define ASMEVO_LIB_PASSES_REWRITEUTILS_H

#include "asmevo/Analysis/Legality.h"
#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace asmevo::rewrite {

/// Whether passes may edit Fn: a kernel or device function, relocatable,
/// with a body, and, when it calls into its own code, modelled
/// (InternalCallModel). Why (when non-null) gets the reason otherwise.
/// The model is built in Cache, the one the pass analyses Fn with, so its
/// Legality, hazard checker and dce use that one build.
bool isEditable(mlir::Operation *Fn, InstInfoCache &Cache,
                std::string *Why = nullptr);
/// The same with a cache of its own (for callers without one).
bool isEditable(mlir::Operation *Fn, std::string *Why = nullptr);
/// The kernels and device functions of a code object that pass the checks
/// needing no analysis (kernel or function, relocatable, with a body); a
/// pass asks isEditable(Fn, Cache) of each with the cache it then uses
/// (forEachEditableFunction does both).
void candidateFunctions(amdgcn::CodeObjectOp CO,
                        llvm::SmallVectorImpl<mlir::Operation *> &Out);
/// "@name" of a kernel/function.
std::string functionName(mlir::Operation *Fn);
/// The target of Fn's code object; null after an error on Fn that names
/// Pass (the pass then signals failure).
TargetInfo *targetInfoOrError(mlir::Operation *Fn, llvm::StringRef Pass);

/// The function loop at the top of every pass: Body runs on each function
/// of CO that isEditable(Fn, Cache) accepts, with that Cache (the one its
/// internal-call model was built in: analyse Fn with it) and the code
/// object's PC-relative references, built once (give them to each
/// Legality). Fails, after an error on the function naming Pass, when a
/// candidate has no target; the pass then signals failure.
mlir::LogicalResult forEachEditableFunction(
    amdgcn::CodeObjectOp CO, llvm::StringRef Pass,
    llvm::function_ref<void(mlir::Operation *Fn, InstInfoCache &Cache,
                            const PcrelReferences &Refs)>
        Body);

/// A function's Legality, built on first use: its baseline (the whole
/// function's waits and hazards) costs more than looking for candidates,
/// and most functions have none.
class LegalityOnDemand {
public:
  LegalityOnDemand(mlir::Operation *Fn, InstInfoCache &Cache,
                   const PcrelReferences &Refs)
      : Fn(Fn), Cache(Cache), Refs(Refs) {}
  InstInfoCache &cache() { return Cache; }
  Legality &get() {
    if (!L)
      L.emplace(Fn, Cache, Refs);
    return *L;
  }

private:
  mlir::Operation *Fn;
  InstInfoCache &Cache;
  const PcrelReferences &Refs;
  std::optional<Legality> L;
};

/// A detached amdgcn.inst assembled from "mnemonic operands"; null with
/// Err set when the text does not assemble.
mlir::Operation *makeInst(mlir::OpBuilder &B, TargetInfo &TI,
                          llvm::StringRef Text, std::string &Err,
                          int64_t Id = -1);
/// A detached amdgcn.inst from encoding bytes.
mlir::Operation *makeInstFromBytes(mlir::OpBuilder &B,
                                   llvm::ArrayRef<uint8_t> Bytes,
                                   int64_t Id = -1);
/// A detached amdgcn.s_waitcnt with these counts.
mlir::Operation *makeWaitcnt(mlir::OpBuilder &B,
                             const unsigned Counts[NumCounters],
                             int64_t Id = -1);
/// A detached amdgcn.s_nop giving WaitStates (1..16) wait states.
mlir::Operation *makeNop(mlir::OpBuilder &B, unsigned WaitStates,
                         int64_t Id = -1);

/// Counters of what a pass did, printed as one line when asked.
struct Summary {
  std::string Pass;
  unsigned FunctionsChanged = 0, Refused = 0;
  llvm::SmallVector<std::pair<std::string, long>, 4> Counts;
  void add(llvm::StringRef What, long N);
  void print(llvm::raw_ostream &OS) const;
};

} // namespace asmevo::rewrite

#endif // ASMEVO_LIB_PASSES_REWRITEUTILS_H
