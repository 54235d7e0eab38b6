//===- InternalCallsTest.cpp - Legality in functions with internal calls --===//
//
// Kernels that call subroutines in their own code (Tensile's activation
// functions, InternalCallModel): edits around the calls are checked with
// the calls' real effects (what is in flight stays in flight through a
// call; a call reads and writes what its subroutines do; hazards are
// followed across the call and the return), the calls and subroutines
// stay as they are, and kernels outside the model are refused with the
// reason.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"
#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace asmevo;
using namespace asmevo::test;

namespace {

std::unique_ptr<Function> parseCalls(llvm::StringRef Body) {
  auto F = parseFunction(Body);
  if (F->Fn)
    F->Fn->setAttr("internal_calls",
                   mlir::StringAttr::get(&F->Ctx, "test: calls its own code"));
  return F;
}

// A load in flight through the call (v6: the subroutine does not read it),
// a load the subroutine reads (v4, waited for before the call), the
// address computation of Tensile's form, the subroutine after the end.
// Three s_nop 7 (24 wait states) on either side of the call keep the
// waits out of the 19 wait states around it that stay as they are.
const char *Kernel = R"(
    amdgcn.inst [0x0] global_load_dword "v4, v[2:3], off"
    amdgcn.inst [0x8] global_load_dword "v6, v[2:3], off offset:16"
    amdgcn.inst [0x10] v_mov_b32_e32 "v20, 1"
    amdgcn.inst [0x14] v_mov_b32_e32 "v21, 2"
    amdgcn.inst [0x18] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x1c] s_add_i32 "s9, 0x100, 4" pcrel(add, 0x200 from 0x18, bias 4)
    amdgcn.inst [0x24] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x28] s_addc_u32 "s11, s11, 0"
    amdgcn.s_waitcnt [0x2c] vmcnt(1)
    amdgcn.s_nop [0x30] 7
    amdgcn.s_nop [0x34] 7
    amdgcn.s_nop [0x38] 7
    amdgcn.inst [0x3c] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.s_nop [0x40] 7
    amdgcn.s_nop [0x44] 7
    amdgcn.s_nop [0x48] 7
    amdgcn.s_waitcnt [0x4c] vmcnt(0)
    amdgcn.inst [0x50] v_add_u32_e32 "v7, v6, v4"
    amdgcn.inst [0x54] v_mov_b32_e32 "v22, 3"
    amdgcn.inst [0x58] global_store_dword "v[2:3], v7, off"
    amdgcn.s_endpgm [0x60]
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_add_u32_e32 "v4, 7, v4"
    amdgcn.indirect [0x204] s_setpc_b64 "s[30:31]")";

TEST(InternalCalls, ModelledKernel) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  const InternalCallModel &M = L.internalCalls();
  EXPECT_TRUE(M.modelled()) << M.reason();
  ASSERT_EQ(M.callSites().size(), 1u);
  EXPECT_EQ(M.callSites()[0], F->byId(0x3c));
  EXPECT_TRUE(M.isFixedBlock(F->byId(0x200)->getBlock()));
  EXPECT_FALSE(M.isFixedBlock(F->byId(0x0)->getBlock()));
  EXPECT_TRUE(L.isFrozen(F->byId(0x200)->getBlock()));
  // Edits away from the calls are made: two independent moves far from
  // the call, on both sides.
  Verdict V = L.moveBefore(F->byId(0x14), F->byId(0x10));
  EXPECT_TRUE(V) << V.Reason;
  V = L.moveBefore(F->byId(0x54), F->byId(0x50));
  EXPECT_TRUE(V) << V.Reason;
}

TEST(InternalCalls, MemoryOpAcrossCall) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  // The store after the call, moved before it (dependence: it reads v7,
  // computed after the call).
  Verdict V = L.canMoveBefore(F->byId(0x58), F->byId(0x30));
  EXPECT_FALSE(V);
  EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
  EXPECT_EQ(V.Reason,
            "moving [0x58] global_store_dword v[2:3], v7, off before [0x30] "
            "s_nop 7: dependence reversed: RAW on v7: [0x50] v_add_u32_e32 "
            "v7, v6, v4 must stay before [0x58] global_store_dword v[2:3], "
            "v7, off");
  // A load moved from before the call to after it: the subroutine does not
  // touch v6, but memory ops keep their order with side effects (the
  // s_getpc_b64 on the way; not the call, whose subroutines hold no
  // memory op).
  V = L.canMoveBefore(F->byId(0x8), F->byId(0x54));
  EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
}

TEST(InternalCalls, WaitBeforeCallWhoseCalleeReadsTheLoad) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  // The subroutine reads v4: the load must be complete at the call.
  Verdict V = L.canErase(F->byId(0x2c));
  EXPECT_EQ(V.K, Verdict::Kind::Wait) << V.Reason;
  EXPECT_EQ(V.Reason,
            "erasing [0x2c] s_waitcnt vmcnt(1): [0x3c] s_swappc_b64 "
            "s[30:31], s[10:11] touches v4 while [0x0] "
            "global_load_dword v4, v[2:3], off may still be in flight: no "
            "s_waitcnt covers it (needs vmcnt(1) before it)");
}

// A wait moved across a call: refused when a subroutine the call may reach
// reads the load's result, accepted when none does (the subroutines hold
// no memory op and no wait, so the call orders no memory op and is no
// sync point).
TEST(InternalCalls, WaitMovedAcrossACall) {
  {
    auto F = parseCalls(Kernel);
    Legality L(F->Fn);
    Verdict V = L.canMoveBefore(F->byId(0x2c), F->byId(0x40));
    EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
    EXPECT_EQ(V.Reason,
              "moving [0x2c] s_waitcnt vmcnt(1) before [0x40] s_nop 7: "
              "dependence reversed: wait before use on v4: [0x2c] s_waitcnt "
              "vmcnt(1) must stay before [0x3c] s_swappc_b64 s[30:31], "
              "s[10:11] (the wait completes [0x0] global_load_dword v4, "
              "v[2:3], off)");
  }
  std::string K = Kernel;
  K.replace(K.find("v_add_u32_e32 \"v4, 7, v4\""),
            strlen("v_add_u32_e32 \"v4, 7, v4\""),
            "v_add_u32_e32 \"v5, 7, v5\"");
  auto F = parseCalls(K);
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  Verdict V = L.moveBefore(F->byId(0x2c), F->byId(0x4c));
  EXPECT_TRUE(V) << V.Reason;
}

TEST(InternalCalls, WaitAfterReturnForALoadInFlightThroughTheCall) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  // v6's load is still in flight after the return (the subroutine waits
  // for nothing): the wait after the call stays. (LLVM's convention would
  // drain it at the call and allow this.)
  Verdict V = L.canErase(F->byId(0x4c));
  EXPECT_FALSE(V);
  EXPECT_EQ(V.K, Verdict::Kind::Wait) << V.Reason;
  EXPECT_EQ(V.Reason,
            "erasing [0x4c] s_waitcnt vmcnt(0): [0x50] v_add_u32_e32 v7, v6, "
            "v4 touches v6 while [0x8] global_load_dword v6, v[2:3], off "
            "offset:16 may still be in flight: no s_waitcnt covers it (needs "
            "vmcnt(0) before it)");
  // Loosened to vmcnt(1) instead: the same (v6 is the younger load).
  mlir::OpBuilder B(&F->Ctx);
  // vmcnt(1): simm16 vmcnt[3:0], expcnt[6:4] = 7, lgkmcnt[11:8] = 15.
  auto *W =
      amdgcn::WaitcntOp::create(B, B.getUnknownLoc(), -1, 0xf71).getOperation();
  V = L.canReplace({F->byId(0x4c)}, {W});
  EXPECT_EQ(V.K, Verdict::Kind::Wait) << V.Reason;
  W->destroy();
}

TEST(InternalCalls, EditsNextToCallAndReturn) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  // Right after the return and right before the call: no hazard spans
  // them here, so the s_nops there go like any other.
  Verdict V = L.canErase(F->byId(0x40));
  EXPECT_TRUE(V) << V.Reason;
  V = L.canErase(F->byId(0x38));
  EXPECT_TRUE(V) << V.Reason;
  // A consumer of the subroutine's v4 moved right after the return.
  // (Refused for what it reads: the wait for v6 stays before it.)
  V = L.canMoveBefore(F->byId(0x50), F->byId(0x40));
  EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
}

// Hazards across a call (the VALU write of s12 before it, the
// subroutine's v_readlane selecting the lane with s12: 4 wait states) and
// across the return (the subroutine's VALU write of s14, the VMEM load
// after the return reading s[14:15]: 5 wait states). Padded exactly:
// s_nop 2 + the call, s_nop 3 + the return.
const char *HazardKernel = R"(
    amdgcn.inst [0x0] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x4] s_add_i32 "s9, 0x1f8, 4" pcrel(add, 0x200 from 0x0, bias 4)
    amdgcn.inst [0xc] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x10] s_addc_u32 "s11, s11, 0"
    amdgcn.inst [0x14] v_readfirstlane_b32 "s12, v1"
    amdgcn.s_nop [0x18] 2
    amdgcn.inst [0x1c] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.s_nop [0x20] 3
    amdgcn.inst [0x24] global_load_dword "v5, v2, s[14:15]"
    amdgcn.s_endpgm [0x2c]
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_readlane_b32 "s13, v4, s12"
    amdgcn.inst [0x204] v_readfirstlane_b32 "s14, v4"
    amdgcn.indirect [0x208] s_setpc_b64 "s[30:31]")";

TEST(InternalCalls, HazardPairsAcrossCallAndReturn) {
  auto F = parseCalls(HazardKernel);
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  HazardChecker HC(L.cache());
  // Across the call: the producer before it, 3 + 1 (the call) wait states
  // (also a VALU reader of an SGPR a VALU wrote: 2 needed).
  llvm::SmallVector<HazardPair, 2> Pairs;
  HC.pairsFor(F->byId(0x200), Pairs, /*All=*/true);
  ASSERT_EQ(Pairs.size(), 2u);
  EXPECT_STREQ(Pairs[0].Rule->Id, "rwlane-lane-select");
  EXPECT_EQ(Pairs[0].Producer, F->byId(0x14));
  EXPECT_EQ(Pairs[0].Required, 4);
  EXPECT_EQ(Pairs[0].Have, 4);
  EXPECT_STREQ(Pairs[1].Rule->Id, "valu-sgpr-valu");
  EXPECT_EQ(Pairs[1].Have, 4);
  // Across the return: 1 (s_setpc_b64) + 4.
  Pairs.clear();
  HC.pairsFor(F->byId(0x24), Pairs, /*All=*/true);
  ASSERT_EQ(Pairs.size(), 1u);
  EXPECT_STREQ(Pairs[0].Rule->Id, "valu-sgpr-vmem");
  EXPECT_EQ(Pairs[0].Producer, F->byId(0x204));
  EXPECT_EQ(Pairs[0].Required, 5);
  EXPECT_EQ(Pairs[0].Have, 5);
}

TEST(InternalCalls, HazardAcrossTheCall) {
  auto F = parseCalls(HazardKernel);
  Legality L(F->Fn);
  Verdict V = L.canErase(F->byId(0x18));
  EXPECT_EQ(V.K, Verdict::Kind::Hazard) << V.Reason;
  EXPECT_EQ(V.Reason,
            "erasing [0x18] s_nop 2: hazard rwlane-lane-select (VALU writes "
            "SGPR -> v_readlane/v_writelane uses it as lane select; ISA table "
            "'VALU writes SGPR/VCC -> V_{READ,WRITE}LANE using that SGPR as "
            "lane select' (4); LLVM checkRWLaneHazards): s12 written by "
            "[0x14] v_readfirstlane_b32 s12, v1, then [0x200] v_readlane_b32 "
            "s13, v4, s12: needs 4 wait states between them, has 1 (3 "
            "missing)");
  // s_nop 1 instead: one wait state short.
  mlir::OpBuilder B(&F->Ctx);
  auto *N1 = amdgcn::NopOp::create(B, B.getUnknownLoc(), -1, 1).getOperation();
  V = L.canReplace({F->byId(0x18)}, {N1});
  EXPECT_EQ(V.K, Verdict::Kind::Hazard) << V.Reason;
  N1->destroy();
  // The producer moved up by one op: enough.
  V = L.canMoveBefore(F->byId(0x14), F->byId(0x10));
  EXPECT_TRUE(V) << V.Reason;
}

TEST(InternalCalls, HazardAcrossTheReturn) {
  auto F = parseCalls(HazardKernel);
  Legality L(F->Fn);
  Verdict V = L.canErase(F->byId(0x20));
  EXPECT_EQ(V.K, Verdict::Kind::Hazard) << V.Reason;
  EXPECT_EQ(V.Reason,
            "erasing [0x20] s_nop 3: hazard valu-sgpr-vmem (VALU writes "
            "SGPR/VCC/EXEC -> VMEM/FLAT reads it; ISA table 'VALU writes "
            "SGPR -> VMEM reads that SGPR' (5); LLVM "
            "GCNHazardRecognizer::checkVMEMHazards): s14 written by [0x204] "
            "v_readfirstlane_b32 s14, v4, then [0x24] global_load_dword v5, "
            "v2, s[14:15]: needs 5 wait states between them, has 1 (4 "
            "missing)");
}

// amdgcn-schedule's estimate (missingAfter over a block's order) does not
// follow calls: it sees neither the subroutine's write of s14 before the
// load after the return nor the subroutine's consumer of s12. Legality
// backs it: the scheduler's transaction (s_nops dropped, then
// insertNopsForHazards) pads the load in the caller, and the pair into the
// subroutine would need an s_nop there, which only amdgcn-hazard's
// transaction may add.
TEST(InternalCalls, ScheduleEstimateBackedByLegality) {
  auto F = parseCalls(HazardKernel);
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  HazardChecker Estimate(L.cache(), /*MemoizePairs=*/true);
  llvm::SmallVector<mlir::Operation *> Prior;
  for (int64_t Id : {0x0, 0x4, 0xc, 0x10, 0x14, 0x1c})
    Prior.push_back(F->byId(Id));
  llvm::SmallVector<int> Gaps(Prior.size(), 0);
  EXPECT_EQ(Estimate.missingAfter(Prior, Gaps, F->byId(0x24)), 0);
  // Without the s_nop after the call: 4 wait states missing across the
  // return, put back before the load.
  {
    Legality::Transaction T(L);
    T.erase(F->byId(0x20));
    EXPECT_EQ(T.insertNopsForHazards(), 4u);
    EXPECT_EQ(F->byId(0x24)->getPrevNode()->getName().getStringRef(),
              "amdgcn.s_nop");
    Verdict V = T.verify();
    EXPECT_TRUE(V) << V.Reason;
  }
  // Without the s_nop before the call: the s_nops would go into the
  // subroutine, refused.
  {
    Legality::Transaction T(L);
    T.erase(F->byId(0x18));
    EXPECT_EQ(T.insertNopsForHazards(), 3u);
    Verdict V = T.verify();
    EXPECT_EQ(V.K, Verdict::Kind::Structure) << V.Reason;
  }
}

TEST(InternalCalls, HazardFromEveryCallSite) {
  // Two calls reach the subroutine: its consumer's pair has the fewer wait
  // states of the two paths (the second call's, 1).
  auto F = parseCalls(R"(
    amdgcn.inst [0x0] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x4] s_add_i32 "s9, 0x1f8, 4" pcrel(add, 0x200 from 0x0, bias 4)
    amdgcn.inst [0xc] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x10] s_addc_u32 "s11, s11, 0"
    amdgcn.inst [0x14] v_readfirstlane_b32 "s12, v1"
    amdgcn.s_nop [0x18] 7
    amdgcn.inst [0x1c] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x20] v_readfirstlane_b32 "s12, v2"
    amdgcn.inst [0x24] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.s_endpgm [0x28]
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_readlane_b32 "s13, v4, s12"
    amdgcn.indirect [0x204] s_setpc_b64 "s[30:31]")");
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  HazardChecker HC(L.cache());
  llvm::SmallVector<HazardPair, 2> Pairs;
  HC.pairsFor(F->byId(0x200), Pairs, /*All=*/true);
  ASSERT_EQ(Pairs.size(), 4u); // (and valu-sgpr-valu for each)
  EXPECT_STREQ(Pairs[0].Rule->Id, "rwlane-lane-select");
  EXPECT_EQ(Pairs[0].Producer, F->byId(0x20));
  EXPECT_EQ(Pairs[0].Have, 1);
  EXPECT_STREQ(Pairs[1].Rule->Id, "rwlane-lane-select");
  EXPECT_EQ(Pairs[1].Producer, F->byId(0x14));
  EXPECT_EQ(Pairs[1].Have, 9);
}

// Three calls reach one subroutine (two returns): the walks of a
// memoizing checker (what lies back from each call and from the entry,
// HazardChecker::reach) must find what the plain walk finds. s13 is written
// only before the second call, so the subroutine's readers of s13 find it
// only through that call site; the MFMA's result v[16:31] (18 wait states
// for a VALU reader) is found by consumers after the second call only
// beyond the first call's return (back through the subroutine twice).
// The walk back from a call reaches the entry block first through the
// longer of the two returns, then through the shorter (it keeps the
// fewer wait states).
const char *ThreeCalls = R"(
    amdgcn.inst [0x0] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x4] s_add_i32 "s9, 0x1f8, 4" pcrel(add, 0x200 from 0x0, bias 4)
    amdgcn.inst [0xc] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x10] s_addc_u32 "s11, s11, 0"
    amdgcn.inst [0x14] v_mfma_f32_32x32x8_f16 "v[16:31], v[0:1], v[2:3], v[16:31]"
    amdgcn.inst [0x1c] v_readfirstlane_b32 "s12, v1"
    amdgcn.inst [0x20] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x24] v_readfirstlane_b32 "s13, v2"
    amdgcn.inst [0x28] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x2c] v_readlane_b32 "s14, v5, s13"
    amdgcn.inst [0x30] v_add_f32_e32 "v40, v16, v17"
    amdgcn.inst [0x34] v_readlane_b32 "s17, v5, s12"
    amdgcn.s_nop [0x38] 1
    amdgcn.inst [0x3c] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x40] v_add_f32_e32 "v42, v18, v17"
    amdgcn.s_endpgm [0x44]
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_readlane_b32 "s15, v4, s12"
    amdgcn.inst [0x204] v_add_f32_e32 "v41, v16, v4"
    amdgcn.inst [0x208] s_cmp_eq_u32 "s0, 0"
    amdgcn.cbranch [0x20c] s_cbranch_scc1 ^bb3, ^bb2
  ^bb2:
    amdgcn.inst [0x210] v_readlane_b32 "s16, v4, s13"
    amdgcn.s_nop [0x214] 1
    amdgcn.indirect [0x218] s_setpc_b64 "s[30:31]"
  ^bb3:
    amdgcn.inst [0x21c] v_add_f32_e32 "v43, v19, v4"
    amdgcn.indirect [0x220] s_setpc_b64 "s[30:31]")";

/// Every pair of every consumer of F, as text (order-free).
static std::vector<std::string> allPairs(Function &F, HazardChecker &HC) {
  std::vector<std::string> Out;
  for (mlir::Block &B : F.Fn->getRegion(0))
    for (mlir::Operation &Op : B) {
      llvm::SmallVector<HazardPair, 4> Pairs;
      HC.pairsFor(&Op, Pairs, /*All=*/true);
      for (const HazardPair &P : Pairs)
        Out.push_back(P.message(HC.cache()));
    }
  llvm::sort(Out);
  return Out;
}

TEST(InternalCalls, MemoizedWalkAcrossCalls) {
  auto F = parseCalls(ThreeCalls);
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  HazardChecker Plain(L.cache()), Memo(L.cache(), /*MemoizePairs=*/true);
  auto Has = [&](HazardChecker &HC, int64_t C, int64_t P, const char *Rule,
                 int Have) {
    llvm::SmallVector<HazardPair, 4> Pairs;
    HC.pairsFor(F->byId(C), Pairs, /*All=*/true);
    return llvm::any_of(Pairs, [&](const HazardPair &X) {
      return X.Producer == F->byId(P) && llvm::StringRef(X.Rule->Id) == Rule &&
             X.Have == Have;
    });
  };
  for (HazardChecker *HC : {&Plain, &Memo}) {
    // Only through the second call: 0x24, the call, 0x200 to the branch.
    EXPECT_TRUE(Has(*HC, 0x210, 0x24, "rwlane-lane-select", 5));
    // Through the first call's site, not the others'.
    EXPECT_TRUE(Has(*HC, 0x200, 0x1c, "rwlane-lane-select", 1));
    EXPECT_TRUE(Has(*HC, 0x204, 0x14, "mfma-valu-read", 3));
    // Beyond the first call's return: back from 0x30 through the second
    // call's subroutine (from the shorter return to the entry, 6), the
    // call, 0x24, the first call's subroutine (6), the call and 0x1c.
    EXPECT_TRUE(Has(*HC, 0x30, 0x14, "mfma-valu-read", 17));
    EXPECT_TRUE(Has(*HC, 0x34, 0x1c, "rwlane-lane-select", 17));
  }
  std::vector<std::string> Expected = allPairs(*F, Plain);
  EXPECT_EQ(allPairs(*F, Memo), Expected);
  // Asked again (memoized now), and in reverse order of the ops.
  EXPECT_EQ(allPairs(*F, Memo), Expected);
  HazardChecker Reverse(L.cache(), /*MemoizePairs=*/true);
  std::vector<mlir::Operation *> Ops;
  for (mlir::Block &B : F->Fn->getRegion(0))
    for (mlir::Operation &Op : B)
      Ops.push_back(&Op);
  std::vector<std::string> Got;
  for (auto It = Ops.rbegin(); It != Ops.rend(); ++It) {
    llvm::SmallVector<HazardPair, 4> Pairs;
    Reverse.pairsFor(*It, Pairs, /*All=*/true);
    for (const HazardPair &P : Pairs)
      Got.push_back(P.message(L.cache()));
  }
  llvm::sort(Got);
  EXPECT_EQ(Got, Expected);
}

TEST(InternalCalls, MemoizedWalkForgetsEdits) {
  // An s_nop put before the second call moves what lies back from it:
  // after forget(), the memoizing checker answers like a plain one.
  auto F = parseCalls(ThreeCalls);
  Legality L(F->Fn);
  ASSERT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  HazardChecker Memo(L.cache(), /*MemoizePairs=*/true);
  std::vector<std::string> Before = allPairs(*F, Memo);
  mlir::OpBuilder B(&F->Ctx);
  B.setInsertionPoint(F->byId(0x28));
  amdgcn::NopOp::create(B, B.getUnknownLoc(), -1, 2);
  HazardChecker Plain(L.cache());
  std::vector<std::string> After = allPairs(*F, Plain);
  ASSERT_NE(After, Before);
  Memo.forget();
  EXPECT_EQ(allPairs(*F, Memo), After);
}

// Registers of the subroutines: v4 read and written, v8 written (a
// temporary), v9 read; v10, v20 and v21 untouched. The call may reach
// both subroutines (the address computed on two paths).
const char *TwoTargets = R"(
    amdgcn.inst [0x0] s_cmp_eq_u32 "s0, 0"
    amdgcn.cbranch [0x4] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.inst [0x8] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0xc] s_add_i32 "s9, 0x1f4, 4" pcrel(add, 0x200 from 0x8, bias 4)
    amdgcn.inst [0x14] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x18] s_addc_u32 "s11, s11, 0"
    amdgcn.s_branch [0x1c] ^bb3
  ^bb2:
    amdgcn.inst [0x20] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x24] s_add_i32 "s9, 0x1ec, 4" pcrel(add, 0x210 from 0x20, bias 4)
    amdgcn.inst [0x2c] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x30] s_addc_u32 "s11, s11, 0"
    amdgcn.fallthrough ^bb3
  ^bb3:
    amdgcn.inst [0x34] v_mov_b32_e32 "v20, 1"
    amdgcn.inst [0x38] v_mov_b32_e32 "v8, 5"
    amdgcn.inst [0x3c] v_mov_b32_e32 "v9, 6"
    amdgcn.inst [0x40] v_mov_b32_e32 "v10, 7"
    amdgcn.s_nop [0x44] 7
    amdgcn.s_nop [0x48] 7
    amdgcn.s_nop [0x4c] 7
    amdgcn.inst [0x50] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.s_nop [0x54] 7
    amdgcn.s_nop [0x58] 7
    amdgcn.s_nop [0x5c] 7
    amdgcn.inst [0x60] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x64] v_mov_b32_e32 "v10, 0"
    amdgcn.inst [0x68] v_mov_b32_e32 "v21, 0"
    amdgcn.inst [0x6c] global_store_dword "v[2:3], v4, off"
    amdgcn.inst [0x74] global_store_dword "v[2:3], v10, off"
    amdgcn.inst [0x7c] global_store_dword "v[2:3], v9, off"
    amdgcn.inst [0x84] global_store_dword "v[2:3], v20, off"
    amdgcn.inst [0x8c] global_store_dword "v[2:3], v8, off"
    amdgcn.inst [0x94] global_store_dword "v[2:3], v21, off"
    amdgcn.s_endpgm [0x9c]
  ^bb4:  // no predecessors
    amdgcn.inst [0x200] v_mul_f32_e32 "v8, v9, v4"
    amdgcn.inst [0x204] v_add_f32_e32 "v4, v8, v4"
    amdgcn.indirect [0x208] s_setpc_b64 "s[30:31]"
  ^bb5:  // no predecessors
    amdgcn.inst [0x210] v_max_f32_e64 "v4, v4, 0"
    amdgcn.indirect [0x218] s_setpc_b64 "s[30:31]")";

TEST(InternalCalls, CallEffectsFromSubroutines) {
  auto F = parseCalls(TwoTargets);
  Legality L(F->Fn);
  const InternalCallModel &M = L.internalCalls();
  ASSERT_TRUE(M.modelled()) << M.reason();
  mlir::Operation *Call = F->byId(0x50);
  ASSERT_EQ(M.targetsOf(Call).size(), 2u);
  const InternalCallModel::Subroutine *S =
      M.subroutine(F->byId(0x200)->getBlock());
  ASSERT_TRUE(S);
  const RegUnitInfo &RU = L.cache().units();
  EXPECT_EQ(RU.describe(S->ExposedUses), "v4, v9, s[30:31], exec, mode");
  EXPECT_EQ(RU.describe(S->MayDefs), "v4, v8");
  EXPECT_EQ(RU.describe(S->MustDefs), "v4, v8");
  // The call: what either subroutine reads, or may leave unchanged (v8:
  // the second does not write it); writes v4 and v8 and its return pair.
  const InstInfo &I = L.cache().get(Call);
  EXPECT_TRUE(I.CalleeEffectsKnown);
  EXPECT_FALSE(L.cache().unknownRegisters(Call));
  UnitList Uses, Defs;
  for (uint16_t U : I.Uses)
    if (!RU.isPseudo(U))
      Uses.push_back(U);
  I.registerDefs(RU, Defs);
  EXPECT_EQ(RU.describe(Uses), "v4, v[8:9], s[10:11], exec, mode");
  EXPECT_EQ(RU.describe(Defs), "v4, v8, s[30:31]");
}

TEST(InternalCalls, MovesAcrossACallByItsSubroutinesRegisters) {
  auto F = parseCalls(TwoTargets);
  Legality L(F->Fn);
  // Out of the 19 wait states around the call, across it: v20's write
  // (nothing of the subroutines) after the return, v21's before the call.
  Verdict V = L.canMoveBefore(F->byId(0x34), F->byId(0x60));
  EXPECT_TRUE(V) << V.Reason;
  V = L.canMoveBefore(F->byId(0x68), F->byId(0x44));
  EXPECT_TRUE(V) << V.Reason;
  // A subroutine may write v8 (and the other passes it through, so the
  // call reads it too): its write stays before the call.
  V = L.canMoveBefore(F->byId(0x38), F->byId(0x60));
  EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
  EXPECT_EQ(V.Reason,
            "moving [0x38] v_mov_b32_e32 v8, 5 before [0x60] v_mov_b32_e32 "
            "v9, 0: dependence reversed: RAW on v8: [0x38] v_mov_b32_e32 v8, "
            "5 must stay before [0x50] s_swappc_b64 s[30:31], s[10:11]");
  // A subroutine reads v9: the write after the return stays after.
  V = L.canMoveBefore(F->byId(0x60), F->byId(0x44));
  EXPECT_EQ(V.K, Verdict::Kind::Dependence) << V.Reason;
  EXPECT_EQ(V.Reason,
            "moving [0x60] v_mov_b32_e32 v9, 0 before [0x44] s_nop 7: "
            "dependence reversed: WAR on v9: [0x50] s_swappc_b64 s[30:31], "
            "s[10:11] must stay before [0x60] v_mov_b32_e32 v9, 0");
}

TEST(InternalCalls, DeadWritesBeforeACall) {
  auto F = parseCalls(TwoTargets);
  Legality L(F->Fn);
  // v10 = 7: no subroutine reads it and the code after the return
  // overwrites it: dead.
  Verdict V = L.canErase(F->byId(0x40));
  EXPECT_TRUE(V) << V.Reason;
  // v9 = 6: overwritten after the return too, but a subroutine reads it.
  V = L.canErase(F->byId(0x3c));
  EXPECT_EQ(V.K, Verdict::Kind::LiveValue) << V.Reason;
  // v8 = 5: the second subroutine leaves it as it is for the store.
  V = L.canErase(F->byId(0x38));
  EXPECT_EQ(V.K, Verdict::Kind::LiveValue) << V.Reason;
}

TEST(InternalCalls, SubroutineKept) {
  auto F = parseCalls(Kernel);
  Legality L(F->Fn);
  Verdict V = L.canErase(F->byId(0x200));
  EXPECT_EQ(V.K, Verdict::Kind::Structure) << V.Reason;
  EXPECT_EQ(V.Reason,
            "erasing [0x200] v_add_u32_e32 v4, 7, v4: the block of [0x200] "
            "v_add_u32_e32 v4, 7, v4 is not reached from the entry (a "
            "subroutine called with s_swappc_b64, or dead code): it is kept "
            "as it is");
}

// amdgcn-hazard's transaction may put s_nops into a subroutine (for the
// pairs whose consumer is there); nothing else changes a subroutine, and
// dead code and other transactions stay refused.
TEST(InternalCalls, SubroutineNopsOnly) {
  std::string K = Kernel;
  K += R"(
  ^bb2:  // no predecessors
    amdgcn.inst [0x300] v_add_u32_e32 "v5, 7, v5"
    amdgcn.indirect [0x304] s_setpc_b64 "s[30:31]")";
  auto F = parseCalls(K);
  Legality L(F->Fn);
  const InternalCallModel &M = L.internalCalls();
  ASSERT_TRUE(M.modelled()) << M.reason();
  mlir::Operation *Sub = F->byId(0x200), *Dead = F->byId(0x300);
  EXPECT_TRUE(M.isSubroutineBlock(Sub->getBlock()));
  EXPECT_FALSE(M.isSubroutineBlock(Dead->getBlock()));
  EXPECT_TRUE(M.isFixedBlock(Dead->getBlock()));
  mlir::OpBuilder B(&F->Ctx);
  auto nop = [&] {
    return amdgcn::NopOp::create(B, B.getUnknownLoc(), -1, 1).getOperation();
  };
  const std::string Kept =
      " is not reached from the entry (a subroutine called with "
      "s_swappc_b64, or dead code): it is kept as it is";
  // Without asking: refused, as before.
  {
    Legality::Transaction T(L);
    T.insertBefore(nop(), Sub);
    Verdict V = T.verify();
    EXPECT_EQ(V.Reason, "the block of [0x200] v_add_u32_e32 v4, 7, v4" + Kept);
  }
  // Dead code: refused even when asked.
  {
    Legality::Transaction T(L);
    T.allowSubroutineNops();
    T.insertBefore(nop(), Dead);
    Verdict V = T.verify();
    EXPECT_EQ(V.Reason, "the block of [0x300] v_add_u32_e32 v5, 7, v5" + Kept);
  }
  // Another op than an s_nop, or an s_nop with a move in the subroutine.
  {
    Legality::Transaction T(L);
    T.allowSubroutineNops();
    std::string Err;
    mlir::Operation *Mov =
        rewrite::makeInst(B, L.cache().target(), "v_mov_b32 v40, 0", Err);
    ASSERT_TRUE(Mov) << Err;
    T.insertBefore(Mov, Sub);
    EXPECT_EQ(T.verify().K, Verdict::Kind::Structure);
  }
  {
    Legality::Transaction T(L);
    T.allowSubroutineNops();
    T.insertBefore(nop(), Sub);
    T.erase(Sub);
    EXPECT_EQ(T.verify().K, Verdict::Kind::Structure);
  }
  // An s_nop at the subroutine's entry (where the call lands) and one
  // before its return: accepted, and the model built again from the edited
  // function still finds the call's subroutine (its first original op).
  {
    Legality::Transaction T(L);
    T.allowSubroutineNops();
    T.insertBefore(nop(), Sub);
    T.insertBefore(nop(), F->byId(0x204));
    Verdict V = T.commit();
    EXPECT_TRUE(V) << V.Reason;
  }
  EXPECT_EQ(Sub->getPrevNode() ? Sub->getPrevNode()->getName().getStringRef()
                               : "",
            "amdgcn.s_nop");
  InstInfoCache Fresh(L.cache().target());
  InternalCallModel Again(F->Fn, Fresh);
  EXPECT_TRUE(Again.modelled()) << Again.reason();
  ASSERT_EQ(Again.targetsOf(F->byId(0x3c)).size(), 1u);
  EXPECT_EQ(Again.targetsOf(F->byId(0x3c))[0], Sub->getBlock());
}

TEST(InternalCalls, NotModelled) {
  // A subroutine with a memory op.
  {
    std::string K = Kernel;
    K.replace(K.find("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              strlen("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              "amdgcn.inst [0x200] global_load_dword \"v4, v[2:3], off\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "subroutine op [0x200] global_load_dword v4, v[2:3], off is a "
              "memory operation (only subroutines of plain ALU code are "
              "modelled)");
    EXPECT_EQ(L.canMoveBefore(F->byId(0x14), F->byId(0x10)).Reason,
              "moving [0x14] v_mov_b32_e32 v21, 2 before [0x10] "
              "v_mov_b32_e32 v20, 1: the function calls into its own code "
              "(internal_calls) in a way the analyses do not model: "
              "subroutine op [0x200] global_load_dword v4, v[2:3], off is a "
              "memory operation (only subroutines of plain ALU code are "
              "modelled); it is only moved");
  }
  // The call's target written by something else: before the address
  // computation (Tensile loads a kernel argument there), modelled; after
  // it, not.
  {
    std::string K = Kernel;
    K.replace(K.find("amdgcn.inst [0x10] v_mov_b32_e32 \"v20, 1\""),
              strlen("amdgcn.inst [0x10] v_mov_b32_e32 \"v20, 1\""),
              "amdgcn.inst [0x10] s_mov_b32 \"s10, 0\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_TRUE(L.internalCalls().modelled()) << L.internalCalls().reason();
  }
  {
    std::string K = Kernel;
    K.replace(K.find("amdgcn.s_nop [0x30] 7"), strlen("amdgcn.s_nop [0x30] 7"),
              "amdgcn.inst [0x30] s_mov_b32 \"s11, 0\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "call [0x3c] s_swappc_b64 s[30:31], s[10:11]: on some path "
              "s[10:11] does not hold a subroutine's address (nothing or "
              "something else writes it after the address computation)");
  }
  // A subroutine that writes the call's target.
  {
    std::string K = Kernel;
    K.replace(K.find("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              strlen("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              "amdgcn.inst [0x200] v_readfirstlane_b32 \"s10, v4\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "subroutine op [0x200] v_readfirstlane_b32 s10, v4 writes "
              "s[10:11], the target of a call");
  }
  // A subroutine that returns through another pair, or writes its return
  // address.
  {
    std::string K = Kernel;
    K.replace(K.find("s_setpc_b64 \"s[30:31]\""),
              strlen("s_setpc_b64 \"s[30:31]\""), "s_setpc_b64 \"s[12:13]\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "subroutine op [0x204] s_setpc_b64 s[12:13] does not return to "
              "the call [0x3c] s_swappc_b64 s[30:31], s[10:11] (only "
              "s_setpc_b64 s[30:31] is modelled)");
  }
  {
    std::string K = Kernel;
    K.replace(K.find("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              strlen("amdgcn.inst [0x200] v_add_u32_e32 \"v4, 7, v4\""),
              "amdgcn.inst [0x200] s_add_u32 \"s30, s30, 4\"");
    auto F = parseCalls(K);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "the subroutine at [0x200] s_add_u32 s30, s30, 4 writes "
              "s[30:31], the return address of [0x3c] s_swappc_b64 "
              "s[30:31], s[10:11]");
  }
  // No address computation on some path.
  {
    // (a branch around the address computation)
    std::string Branchy = R"(
    amdgcn.inst [0x0] s_cmp_eq_u32 "s0, 0"
    amdgcn.cbranch [0x4] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.inst [0x18] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x1c] s_add_i32 "s9, 0x100, 4" pcrel(add, 0x200 from 0x18, bias 4)
    amdgcn.inst [0x24] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x28] s_addc_u32 "s11, s11, 0"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x3c] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.s_endpgm [0x60]
  ^bb3:  // no predecessors
    amdgcn.inst [0x200] v_add_u32_e32 "v4, 7, v4"
    amdgcn.indirect [0x204] s_setpc_b64 "s[30:31]")";
    auto F = parseCalls(Branchy);
    Legality L(F->Fn);
    EXPECT_EQ(L.internalCalls().reason(),
              "call [0x3c] s_swappc_b64 s[30:31], s[10:11]: on some path "
              "s[10:11] does not hold a subroutine's address (nothing or "
              "something else writes it after the address computation)");
  }
}

// Each pass builds the internal-call model of a function once: the check
// whether the function is editable builds it in the cache the pass then
// analyses the function with (it used to build one of its own first).
TEST(InternalCalls, OneModelPerFunctionAndPass) {
  registerAsmevoPasses();
  for (const char *Pass :
       {"amdgcn-waitcnt-relax", "amdgcn-schedule", "amdgcn-hazard",
        "amdgcn-dce", "amdgcn-peephole", "amdgcn-regcompact", "amdgcn-nop-trim",
        "amdgcn-merge-nops"}) {
    auto F = parseCalls(Kernel);
    auto CO = F->Fn->getParentOfType<amdgcn::CodeObjectOp>();
    mlir::PassManager PM(&F->Ctx, amdgcn::CodeObjectOp::getOperationName());
    std::string Err;
    llvm::raw_string_ostream ErrOS(Err);
    ASSERT_TRUE(mlir::succeeded(mlir::parsePassPipeline(Pass, PM, ErrOS)))
        << Err;
    unsigned long Before = InternalCallModel::builds();
    EXPECT_TRUE(mlir::succeeded(PM.run(CO))) << Pass;
    EXPECT_EQ(InternalCallModel::builds() - Before, 1u) << Pass;
  }
}

} // namespace
