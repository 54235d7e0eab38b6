//===- WaitcntTest.cpp - Wait-counter semantics ---------------------------===//

#include "AnalysisTestUtil.h"

#include "asmevo/Analysis/Waitcnt.h"

#include <algorithm>
#include <iterator>
#include <random>
#include <set>

using namespace asmevo;
using namespace asmevo::test;

namespace {

/// "user <- producer" for every unwaited use, in order.
std::vector<std::string> unwaited(llvm::StringRef Body,
                                  llvm::StringRef CPU = "gfx942",
                                  bool Kernel = true) {
  auto F = parseFunction(Body, CPU, Kernel);
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  WaitcntAnalysis W(F->Fn, Cache);
  llvm::SmallVector<WaitcntAnalysis::Unwaited> U;
  W.findUnwaited(U);
  std::vector<std::string> Out;
  for (auto &X : U)
    Out.push_back(Cache.describe(X.User) + " <- " +
                  (X.Producer ? Cache.describe(X.Producer)
                              : std::string("unknown")) +
                  " on " + Cache.units().describe(X.Units));
  return Out;
}

TEST(Waitcnt, VmcntInOrder) {
  // vmcnt(1): the older load is complete, the younger one may not be.
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off"
    amdgcn.s_waitcnt [0x10] vmcnt(1)
    amdgcn.inst [0x14] v_add_u32_e32 "v2, v0, v0"
    amdgcn.inst [0x18] v_add_u32_e32 "v3, v1, v1"
    amdgcn.s_endpgm)"),
            std::vector<std::string>{
                "[0x18] v_add_u32_e32 v3, v1, v1 <- [0x8] global_load_dword "
                "v1, v[4:5], off on v1"});
}

TEST(Waitcnt, StoresCountOnVmcnt) {
  // gfx9 has no separate store counter: a younger store makes vmcnt(1)
  // complete the load.
  EXPECT_TRUE(unwaited(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_store_dword "v[4:5], v1, off"
    amdgcn.s_waitcnt [0x10] vmcnt(1)
    amdgcn.inst [0x14] v_add_u32_e32 "v2, v0, v0"
    amdgcn.s_endpgm)")
                  .empty());
}

TEST(Waitcnt, OverwriteOfPendingDestination) {
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] v_mov_b32_e32 "v0, 0"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)"),
            std::vector<std::string>{"[0x8] v_mov_b32_e32 v0, 0 <- [0x0] "
                                     "global_load_dword v0, v[4:5], off on "
                                     "v0"});
}

TEST(Waitcnt, WritesAtTheEndsOfAWideLoad) {
  // An op in flight keeps its first and last unit (PendingOp::DefsLo,
  // DefsHi) to rule out most ops without reading its list: overwriting the
  // last and the first register of a 4-register load is unwaited, the
  // registers around it are not. (Writes, not reads: a VALU op also reads
  // EXEC, which widens a read's range, and the same test with reads passed
  // with a wrong DefsHi.)
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] global_load_dwordx4 "v[2:5], v[8:9], off"
    amdgcn.inst [0x8] v_mov_b32_e32 "v5, 0"
    amdgcn.inst [0xc] v_mov_b32_e32 "v6, 0"
    amdgcn.inst [0x10] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x14] v_mov_b32_e32 "v2, 0"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)"),
            (std::vector<std::string>{
                "[0x8] v_mov_b32_e32 v5, 0 <- [0x0] global_load_dwordx4 "
                "v[2:5], v[8:9], off on v5",
                "[0x14] v_mov_b32_e32 v2, 0 <- [0x0] global_load_dwordx4 "
                "v[2:5], v[8:9], off on v2"}));
}

TEST(Waitcnt, SmemOutOfOrderLdsInOrder) {
  // lgkmcnt(1) completes the older LDS read (one younger LDS op) but never
  // an SMEM load.
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] s_load_dword "s0, s[2:3], 0x0"
    amdgcn.inst [0x8] ds_read_b32 "v0, v1"
    amdgcn.inst [0x10] ds_read_b32 "v2, v1"
    amdgcn.s_waitcnt [0x18] lgkmcnt(1)
    amdgcn.inst [0x1c] v_add_u32_e32 "v3, v0, v0"
    amdgcn.inst [0x20] s_add_u32 "s1, s0, 1"
    amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_endpgm)"),
            std::vector<std::string>{"[0x20] s_add_u32 s1, s0, 1 <- [0x0] "
                                     "s_load_dword s0, s[2:3], 0x0 on s0"});
  // A younger SMEM load does not make lgkmcnt(1) complete an LDS read.
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] ds_read_b32 "v0, v1"
    amdgcn.inst [0x8] s_load_dword "s0, s[2:3], 0x0"
    amdgcn.s_waitcnt [0x10] lgkmcnt(1)
    amdgcn.inst [0x14] v_add_u32_e32 "v3, v0, v0"
    amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_endpgm)"),
            std::vector<std::string>{"[0x14] v_add_u32_e32 v3, v0, v0 <- "
                                     "[0x0] ds_read_b32 v0, v1 on v0"});
}

TEST(Waitcnt, FlatNeedsBothCounters) {
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] flat_load_dword "v0, v[4:5]"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.inst [0xc] v_add_u32_e32 "v2, v0, v0"
    amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_endpgm)"),
            std::vector<std::string>{"[0xc] v_add_u32_e32 v2, v0, v0 <- [0x0] "
                                     "flat_load_dword v0, v[4:5] on v0"});
  EXPECT_TRUE(unwaited(R"(
    amdgcn.inst [0x0] flat_load_dword "v0, v[4:5]"
    amdgcn.s_waitcnt [0x8] vmcnt(0) lgkmcnt(0)
    amdgcn.inst [0xc] v_add_u32_e32 "v2, v0, v0"
    amdgcn.s_endpgm)")
                  .empty());
}

TEST(Waitcnt, AcrossTheLoopBackEdge) {
  // The load at the bottom of the loop is still in flight at the top of the
  // next iteration.
  EXPECT_EQ(unwaited(R"(
    amdgcn.s_branch [0x0] ^bb1
  ^bb1:
    amdgcn.inst [0x4] v_add_u32_e32 "v2, v0, v2"
    amdgcn.inst [0x8] global_load_dword "v0, v[4:5], off"
    amdgcn.cbranch [0x10] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)"),
            std::vector<std::string>{"[0x4] v_add_u32_e32 v2, v0, v2 <- "
                                     "[0x8] global_load_dword v0, v[4:5], off "
                                     "on v0"});
}

TEST(Waitcnt, DeviceFunctionEntryIsUnknown) {
  EXPECT_EQ(unwaited(R"(
    amdgcn.inst [0x0] v_add_u32_e32 "v0, v1, v0"
    amdgcn.indirect [0x4] s_setpc_b64 "s[30:31]")",
                     "gfx942", /*Kernel=*/false)
                .size(),
            6u); // one per counter, for the add and for the return
  EXPECT_TRUE(unwaited(R"(
    amdgcn.s_waitcnt [0x0] vmcnt(0) expcnt(0) lgkmcnt(0)
    amdgcn.inst [0x4] v_add_u32_e32 "v0, v1, v0"
    amdgcn.indirect [0x8] s_setpc_b64 "s[30:31]")",
                       "gfx942", /*Kernel=*/false)
                  .empty());
}

TEST(Waitcnt, RequiredCounts) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off"
    amdgcn.inst [0x10] global_load_dword "v2, v[4:5], off"
    amdgcn.inst [0x18] v_add_u32_e32 "v3, v0, v0"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  WaitcntAnalysis W(F->Fn, Cache);
  W.replay(&F->Fn->getRegion(0).front(),
           [&](mlir::Operation *Op, const PendingState &S) {
             if (Op != F->byId(0x18))
               return;
             const PendingOp *P = S.find(F->byId(0x0));
             ASSERT_TRUE(P);
             unsigned C[NumCounters];
             maxCounts(C);
             P->requiredCounts(C);
             EXPECT_EQ(C[unsigned(Counter::VM)], 2u);
             EXPECT_EQ(C[unsigned(Counter::LGKM)], 15u);
           });
}

TEST(Waitcnt, LegalityWaitAndSync) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off"
    amdgcn.s_waitcnt [0x10] vmcnt(1)
    amdgcn.inst [0x14] v_add_u32_e32 "v2, v0, v0"
    amdgcn.s_waitcnt [0x18] vmcnt(0)
    amdgcn.s_barrier [0x1c]
    amdgcn.s_endpgm)");
  Legality L(F->Fn);
  EXPECT_EQ(L.canErase(F->byId(0x10)).Reason,
            "erasing [0x10] s_waitcnt vmcnt(1): [0x14] v_add_u32_e32 v2, v0, "
            "v0 touches v0 while [0x0] global_load_dword v0, v[4:5], off may "
            "still be in flight: no s_waitcnt covers it (needs vmcnt(1) "
            "before it)");
  EXPECT_EQ(L.canErase(F->byId(0x18)).Reason,
            "erasing [0x18] s_waitcnt vmcnt(0): [0x8] global_load_dword v1, "
            "v[4:5], off may still be in flight at [0x1c] s_barrier "
            "(barrier), which the original had completed (needs vmcnt(0))");
  // Loosening vmcnt(1) to vmcnt(2) no longer covers the first load.
  mlir::OpBuilder B(&F->Ctx);
  auto Loose = amdgcn::WaitcntOp::create(
      B, B.getUnknownLoc(), 0x10, amdgcn::WaitcntOp::encodeCounts(2, 7, 15));
  EXPECT_EQ(L.canReplace({F->byId(0x10)}, {Loose}).K, Verdict::Kind::Wait);
  Loose->destroy();
}

TEST(Waitcnt, RetiredOnSomePath) {
  // ^bb3 is entered with the v0 load 1 younger load behind (from ^bb0) or 4
  // (through ^bb1): vmcnt(4) retires it on the second path only, which the
  // joined state (fewest younger: 1) cannot tell. ^bb4 is entered from ^bb3
  // (retired or not) and from ^bb2, where vmcnt(0) retired it. ^bb5 loads
  // v0 by another op, which no path has retired yet.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[20:21], off"
    amdgcn.cbranch [0x10] s_cbranch_scc1 ^bb3, ^bb1
  ^bb1:
    amdgcn.inst [0x18] global_load_dword "v2, v[20:21], off"
    amdgcn.inst [0x20] global_load_dword "v3, v[20:21], off"
    amdgcn.inst [0x28] global_load_dword "v4, v[20:21], off"
    amdgcn.cbranch [0x30] s_cbranch_scc1 ^bb3, ^bb2
  ^bb2:
    amdgcn.s_waitcnt [0x34] vmcnt(0)
    amdgcn.s_branch [0x38] ^bb4
  ^bb3:
    amdgcn.inst [0x3c] v_mov_b32_e32 "v9, 0"
    amdgcn.s_waitcnt [0x40] vmcnt(4)
    amdgcn.inst [0x44] v_add_u32_e32 "v10, v0, v0"
    amdgcn.fallthrough ^bb4
  ^bb4:
    amdgcn.inst [0x48] v_add_u32_e32 "v11, v0, v1"
    amdgcn.fallthrough ^bb5
  ^bb5:
    amdgcn.inst [0x4c] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x54] v_add_u32_e32 "v12, v0, v0"
    amdgcn.s_waitcnt [0x58] vmcnt(0)
    amdgcn.s_endpgm [0x5c])");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  WaitcntAnalysis W(F->Fn, Cache);
  mlir::Operation *Load = F->byId(0x0);
  uint8_t VM = counterBit(Counter::VM);
  EXPECT_EQ(W.retiredOnSomePath(Load, F->byId(0x3c)), 0);
  // The joined state still has it in flight, 1 younger load behind.
  bool Seen = false;
  W.replay(F->byId(0x44)->getBlock(),
           [&](mlir::Operation *Op, const PendingState &S) {
             if (Op != F->byId(0x44))
               return;
             Seen = true;
             const PendingOp *P = S.find(Load);
             ASSERT_TRUE(P);
             EXPECT_EQ(P->Counters, VM);
             EXPECT_EQ(P->Younger[unsigned(Counter::VM)], 1);
           });
  EXPECT_TRUE(Seen);
  EXPECT_EQ(W.retiredOnSomePath(Load, F->byId(0x44)), VM);
  EXPECT_EQ(W.retiredOnSomePath(Load, F->byId(0x48)), VM);
  EXPECT_EQ(W.retiredOnSomePath(Load, F->byId(0x54)), VM);
  EXPECT_EQ(W.retiredOnSomePath(F->byId(0x4c), F->byId(0x54)), 0);
  // The v1 load has at most 3 younger loads: vmcnt(4) retires it on no
  // path, vmcnt(0) in ^bb2 does.
  mlir::Operation *Load1 = F->byId(0x8);
  EXPECT_EQ(W.retiredOnSomePath(Load1, F->byId(0x44)), 0);
  EXPECT_EQ(W.retiredOnSomePath(Load1, F->byId(0x48)), VM);
  EXPECT_EQ(W.retiredOnSomePath(nullptr, F->byId(0x48)), 0);

  // Legality tolerates what the input did where no path's wait retired the
  // load, but not a read that a wait on some path made safe.
  Legality L(F->Fn);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x44), Load), 0);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x48), Load), 0);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x48), Load1), 0);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x54), F->byId(0x4c)), VM);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x54), Load), 0);
  EXPECT_EQ(L.baselineUnwaitedCounters(F->byId(0x54), Load,
                                       /*PathsKept=*/true),
            VM);
  EXPECT_EQ(L.canErase(F->byId(0x40)).Reason,
            "erasing [0x40] s_waitcnt vmcnt(4): [0x44] v_add_u32_e32 v10, v0, "
            "v0 touches v0 while [0x0] global_load_dword v0, v[20:21], off "
            "may still be in flight: no s_waitcnt covers it (needs vmcnt(1) "
            "before it; the original retires it on some path into it, so "
            "every path must)");
  // An edit that changes no wait or memory op leaves every path as it was.
  EXPECT_TRUE(L.canErase(F->byId(0x3c)).Legal);
  llvm::SmallVector<std::string> Problems;
  L.baselineProblems(Problems);
  EXPECT_TRUE(llvm::is_contained(
      Problems, "unwaited: [0x44] v_add_u32_e32 v10, v0, v0 touches the "
                "result of [0x0] global_load_dword v0, v[20:21], off "
                "(retired on vmcnt on some path into it)"));
}

} // namespace

namespace {

PendingOp pendingOp(mlir::Operation *Op, uint8_t Counters, uint8_t Vm,
                    uint8_t Lgkm) {
  PendingOp P;
  P.Op = Op;
  P.Counters = Counters;
  P.InOrder = Counters;
  P.Younger[0] = Vm;
  P.Younger[1] = Lgkm;
  return P;
}

std::string describe(const PendingState &S,
                     const std::vector<mlir::Operation *> &Ops) {
  std::string Out;
  for (const PendingOp &P : S.Ops) {
    auto It = std::find(Ops.begin(), Ops.end(), P.Op);
    Out += (P.Op ? std::to_string(It - Ops.begin()) : std::string("?")) + ":" +
           std::to_string(P.Counters) + "/" + std::to_string(P.Younger[0]) +
           "," + std::to_string(P.Younger[1]) + "," +
           std::to_string(P.Younger[2]) + " ";
  }
  return Out;
}

} // namespace

TEST(Waitcnt, IndexedMergeEqualsPairwiseMerge) {
  // merge() indexes the ops when both states are large (20 x 30 here) and
  // searches pairwise when one is small. Merging B one op at a time takes
  // the pairwise path every time and must give the same state: the same
  // ops in the same order, fewest younger counts, union of counters; two
  // unknown (null) ops match only with equal counters.
  std::string Body;
  for (unsigned K = 0; K < 40; ++K)
    Body += "amdgcn.inst [" + std::to_string(8 * K) +
            "] global_load_dword \"v0, v[4:5], off\"\n";
  Body += "amdgcn.s_endpgm";
  auto F = parseFunction(Body);
  ASSERT_GE(F->Ops.size(), 40u);
  PendingState A, B;
  for (unsigned K = 0; K < 20; ++K)
    A.Ops.push_back(pendingOp(F->Ops[K], K % 3 ? 1 : 3, K, 20 - K));
  A.Ops.push_back(pendingOp(nullptr, 1, 0, 0));
  for (unsigned K = 10; K < 40; ++K)
    B.Ops.push_back(pendingOp(F->Ops[K], K % 2 ? 2 : 1, 40 - K, K % 7));
  B.Ops.push_back(pendingOp(nullptr, 1, 3, 0)); // matches A's unknown op
  B.Ops.push_back(pendingOp(nullptr, 2, 0, 0)); // other counters: new

  PendingState Indexed = A;
  EXPECT_TRUE(Indexed.merge(B));
  PendingState Pairwise = A;
  for (const PendingOp &P : B.Ops) {
    PendingState One;
    One.Ops.push_back(P);
    Pairwise.merge(One);
  }
  EXPECT_EQ(describe(Indexed, F->Ops), describe(Pairwise, F->Ops));
  EXPECT_EQ(Indexed.Ops.size(), 42u);
  // Op 15 is in both: younger counts min(15, 25) and min(5, 1), counters
  // 1 | 2.
  const PendingOp *Both = Indexed.find(F->Ops[15]);
  ASSERT_NE(Both, nullptr);
  EXPECT_EQ(Both->Counters, 3);
  EXPECT_EQ(Both->Younger[0], 15);
  EXPECT_EQ(Both->Younger[1], 1);
  // A second merge of B changes nothing (the dataflow fixpoint test).
  EXPECT_FALSE(Indexed.merge(B));
}

TEST(Waitcnt, UnitIntersectionMatchesSets) {
  // RegUnitInfo::intersects decides by the lists' ranges and a binary
  // search before it merges (WaitcntAnalysis::touching asks it for every
  // op in flight): it must answer as the plain set intersection for lists
  // that are disjoint, interleaved, nested or share only an end.
  std::mt19937 Rng(7);
  auto randomList = [&](unsigned Lo, unsigned Span, unsigned N) {
    std::set<uint16_t> S;
    for (unsigned K = 0; K < N; ++K)
      S.insert(uint16_t(Lo + Rng() % Span));
    return std::vector<uint16_t>(S.begin(), S.end());
  };
  unsigned Hits = 0, Misses = 0;
  for (unsigned Round = 0; Round < 20000; ++Round) {
    auto A = randomList(Rng() % 64, 1 + Rng() % 48, Rng() % 10);
    auto B = randomList(Rng() % 64, 1 + Rng() % 48, Rng() % 12);
    std::vector<uint16_t> Common;
    std::set_intersection(A.begin(), A.end(), B.begin(), B.end(),
                          std::back_inserter(Common));
    bool Want = !Common.empty();
    ASSERT_EQ(RegUnitInfo::intersects(A, B), Want) << "round " << Round;
    ASSERT_EQ(RegUnitInfo::intersects(B, A), Want) << "round " << Round;
    (Want ? Hits : Misses) += 1;
  }
  // Both answers were asked often.
  EXPECT_GT(Hits, 2000u);
  EXPECT_GT(Misses, 2000u);
  // Sharing only the first or the last unit.
  std::vector<uint16_t> X{3, 5, 9}, Y{9, 11}, Z{1, 3};
  EXPECT_TRUE(RegUnitInfo::intersects(X, Y));
  EXPECT_TRUE(RegUnitInfo::intersects(Z, X));
  EXPECT_FALSE(RegUnitInfo::intersects(Y, Z));
  EXPECT_FALSE(RegUnitInfo::intersects(X, {}));
}
