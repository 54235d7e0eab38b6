//===- Hazards.h - Wait states the hardware does not insert -----*- C++ -*-===//
//
// gfx90a and gfx942 do not interlock some register dependences: the program
// must put enough independent instructions or `s_nop`s ("wait states")
// between a producer and a consumer. The rules are a table (hazardRules()),
// one row per hazard with the targets it applies to and its source: the
// "Manually Inserted Wait States" table of AMD's ISA documents and LLVM's
// GCNHazardRecognizer.cpp (read, not copied; the numbers are the hardware's,
// the code is ours).
//
// Distances are counted like LLVM counts them: the wait states of every
// instruction strictly between producer and consumer (1 per instruction,
// N+1 for s_nop N), along every CFG path backwards (the minimum over
// paths). A function's entry has no producers before it.
//
// gfx942 XDL classification: LLVM keeps "is this MFMA an XDL op on gfx940"
// in a table that libLLVM does not export. MFMAs with f16/bf16/i8/fp8/xf32
// inputs and SMFMAC are XDL; the fp32-input MFMAs (v_mfma_f32_*_f32) are
// not: LLVM 22 pads v_mfma_f32_32x32x2_f32 (16 passes) -> VALU read with
// 18 wait states (passes + 2, the non-XDL row), as the in-tree mfma kernel
// shows. The checker can also take the larger of both rows (Xdl::Unsure).
//
// Not modelled (not needed by compiled gfx90a/gfx942 code, or for other
// generations): s_setreg MODE.vskip -> vector ops, VALU writes VCC/EXEC ->
// VALU reading execz/vccz as a data source, mixed VCC-alias use, s_setreg
// TRAPSTS -> s_rfe (trap handlers), the gfx908 AccVGPR rows, MFMA padding
// for performance, and every gfx10+ hazard of LLVM's recognizer.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_HAZARDS_H
#define ASMEVO_ANALYSIS_HAZARDS_H

#include "asmevo/Analysis/InstInfo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace asmevo {

/// What the backward walk knows about the instructions strictly between a
/// producer and the consumer.
struct HazardContext {
  InstInfoCache &Cache;
  HazardTarget Target;
  bool DGEMMBetween = false;   ///< a DGEMM lies between (gfx90a rule)
  bool OnlySMEMBetween = true; ///< every op between is SMEM (soft clause)
  bool OnlyVMEMBetween = true; ///< every op between is VMEM/FLAT
  /// A hypothetical order (HazardChecker::missingAfter): the ops before the
  /// consumer, oldest first, instead of the IR's; SeqGap[i] wait states
  /// (s_nops) come right before Seq[i]. A rule whose Check reads Seq,
  /// SeqGap or the *Between flags sets HazardRule::ReadsOrder.
  llvm::ArrayRef<mlir::Operation *> Seq;
  llvm::ArrayRef<int> SeqGap;
};

struct HazardRule {
  const char *Id;   ///< stable name, e.g. "valu-sgpr-vmem"
  const char *Text; ///< "VALU writes SGPR -> VMEM reads that SGPR"
  unsigned Targets; ///< HazardTarget bits
  bool (*IsConsumer)(const HazardContext &, const InstInfo &C);
  /// Wait states required between producer P and consumer C, 0 when P is
  /// not a producer for C; Units receives the registers involved.
  int (*Check)(const HazardContext &, const InstInfo &P, const InstInfo &C,
               UnitList &Units);
  const char *Source; ///< where the numbers come from
  /// Check reads what lies between producer and consumer (HazardContext's
  /// Seq, SeqGap, *Between), not only the two ops: a memoizing checker
  /// asks it every time.
  bool ReadsOrder = false;
};

/// The table. Ordered by the ISA table's rows, MFMA rules last.
llvm::ArrayRef<HazardRule> hazardRules();
/// No rule needs more than this many wait states.
constexpr int MaxHazardWaitStates = 19;

struct HazardPair {
  const HazardRule *Rule = nullptr;
  mlir::Operation *Producer = nullptr;
  mlir::Operation *Consumer = nullptr;
  UnitList Units;
  int Required = 0; ///< wait states needed
  int Have = 0;     ///< wait states present (minimum over paths)
  bool violated() const { return Have < Required; }
  /// "hazard valu-sgpr-vmem (VALU writes SGPR -> VMEM reads that SGPR;
  /// LLVM ...): s4 written by [0x10] v_readfirstlane_b32 s4, v1, read by
  /// [0x18] global_load_dword ...: needs 5 wait states, has 1 (1 missing
  /// is 4)"
  std::string message(InstInfoCache &C) const;
};

class HazardChecker {
public:
  /// With MemoizePairs, missingAfter remembers the rules that apply to each
  /// consumer and what each (producer, consumer) pair needs under the rules
  /// that do not read the order (HazardRule::ReadsOrder): a scheduler asks
  /// about the same pairs in every order it tries; and pairsFor remembers
  /// what lies back from each internal call and subroutine entry (reach).
  /// The ops it is asked about must then not change (in
  /// place, erased or inserted) while it lives.
  explicit HazardChecker(InstInfoCache &Cache, bool MemoizePairs = false);

  /// Every (producer, rule) pair for Consumer within the lookback, with the
  /// required and present wait states (satisfied ones too when All).
  void pairsFor(mlir::Operation *Consumer,
                llvm::SmallVectorImpl<HazardPair> &Out, bool All = false);
  /// Wait states missing before Consumer (0 when no hazard is violated).
  int missingBefore(mlir::Operation *Consumer);
  /// Wait states missing before Consumer if it were issued right after
  /// Prior (a hypothetical order of ops, oldest first; GapBefore[i] wait
  /// states of s_nops come right before Prior[i]). Only Prior is looked at,
  /// not the IR around it: a scheduler asks this before it commits to an
  /// order.
  int missingAfter(llvm::ArrayRef<mlir::Operation *> Prior,
                   llvm::ArrayRef<int> GapBefore, mlir::Operation *Consumer);
  /// Every violated pair in a function.
  void checkFunction(mlir::Operation *Fn,
                     llvm::SmallVectorImpl<HazardPair> &Out);

  /// Forgets what it memoized (MemoizePairs): ops were inserted, moved or
  /// erased since.
  void forget() {
    MemoRules.clear();
    Reaches.clear();
  }

  InstInfoCache &cache() { return Cache; }

private:
  friend class HazardOrder;
  /// The rules for a consumer, split by whether they read the order.
  struct ConsumerRules {
    llvm::SmallVector<const HazardRule *, 8> Pair, Order;
    /// What each producer asked about needs under Pair. Kept per consumer,
    /// not in one map of pairs: a consumer's walks ask about the same few
    /// producers, and one large map missed the cache at every lookup.
    llvm::DenseMap<mlir::Operation *, int> Need;
  };
  void rulesFor(const InstInfo &C, const HazardContext &Ctx,
                ConsumerRules &Out);
  /// The consumer's rules (memoized), or null when none applies.
  ConsumerRules *memoRules(const InstInfo &C);
  /// What P needs before C under R.Pair (memoized in R.Need).
  int pairNeed(const HazardContext &Ctx, const InstInfo &P, const InstInfo &C,
               ConsumerRules &R);
  /// An op pairsFor's walk reaches, and the fewest wait states between it
  /// and where the walk started.
  using Reached = std::pair<const InstInfo *, int>;
  /// Every op pairsFor's walk reaches back from an internal call (Call:
  /// reached from the op after it, through the subroutines' returns) or
  /// from a subroutine's entry (Entry: with no call to return to, through
  /// every call that may enter it), each once at its fewest wait states,
  /// fewest first: what a consumer's walk arriving there would visit, less
  /// the wait states it has counted. Memoized: every consumer after a call
  /// would walk back through every return of its subroutines, and every
  /// consumer near a subroutine's entry back from every call site.
  llvm::ArrayRef<Reached> reach(mlir::Operation *Call, mlir::Block *Entry,
                                const InternalCallModel &Calls);

  InstInfoCache &Cache;
  bool Memoize;
  llvm::DenseMap<mlir::Operation *, ConsumerRules> MemoRules;
  llvm::DenseMap<void *, llvm::SmallVector<Reached, 0>> Reaches;
};

/// HazardChecker::missingAfter over one order that only grows (a list
/// scheduler's): asked about the same consumer again, it walks only the ops
/// appended since, not the whole window: what the earlier ops need is what
/// they needed then, less the wait states appended after them (consumers
/// with rules that read the order are asked the checker's way).
class HazardOrder {
public:
  /// HC must memoize pairs (its ops must not change while this lives).
  explicit HazardOrder(HazardChecker &HC);
  /// Appends Op, GapBefore wait states (s_nops) before it.
  void push(mlir::Operation *Op, int GapBefore);
  /// HC.missingAfter(ops(), gaps(), Consumer).
  int missing(mlir::Operation *Consumer);
  llvm::ArrayRef<mlir::Operation *> ops() const { return Ops; }
  llvm::ArrayRef<int> gaps() const { return Gaps; }

private:
  HazardChecker &HC;
  llvm::SmallVector<mlir::Operation *> Ops;
  llvm::SmallVector<int> Gaps;
  llvm::SmallVector<const InstInfo *> Infos;
  /// Per consumer: what it missed after the first Len ops.
  struct Answer {
    int Missing = 0;
    unsigned Len = 0;
  };
  llvm::DenseMap<mlir::Operation *, Answer> Answers;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_HAZARDS_H
