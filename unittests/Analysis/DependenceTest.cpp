//===- DependenceTest.cpp - One hand-built case per dependence kind -------===//
//
// Each case asks the legality API for a move that reverses exactly one
// dependence and expects the exact reason; the opposite, independent move
// is legal.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "asmevo/Analysis/DependenceGraph.h"

using namespace asmevo;
using namespace asmevo::test;

namespace {

/// Asks whether op Later may move before op Earlier.
std::string moveUp(llvm::StringRef Body, int64_t Later, int64_t Earlier,
                   llvm::StringRef CPU = "gfx942") {
  auto F = parseFunction(Body, CPU);
  if (!F->Fn)
    return "<parse error>";
  Legality L(F->Fn);
  Verdict V = L.canMoveBefore(F->byId(Later), F->byId(Earlier));
  return V ? "legal" : V.Reason;
}

TEST(Dependence, RAWOnVGPR) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v0, 1"
    amdgcn.inst [0x4] v_add_u32_e32 "v1, v0, v0"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_add_u32_e32 v1, v0, v0 before [0x0] v_mov_b32_e32 "
            "v0, 1: dependence reversed: RAW on v0: [0x0] v_mov_b32_e32 v0, 1 "
            "must stay before [0x4] v_add_u32_e32 v1, v0, v0");
}

TEST(Dependence, WAROnVGPR) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_add_u32_e32 "v1, v0, v0"
    amdgcn.inst [0x4] v_mov_b32_e32 "v0, 1"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_mov_b32_e32 v0, 1 before [0x0] v_add_u32_e32 v1, "
            "v0, v0: dependence reversed: WAR on v0: [0x0] v_add_u32_e32 v1, "
            "v0, v0 must stay before [0x4] v_mov_b32_e32 v0, 1");
}

TEST(Dependence, WAWOnVGPR) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v0, 1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v0, 2"
    amdgcn.inst [0x8] global_store_dword "v[2:3], v0, off"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_mov_b32_e32 v0, 2 before [0x0] v_mov_b32_e32 v0, "
            "1: dependence reversed: WAW on v0: [0x0] v_mov_b32_e32 v0, 1 "
            "must stay before [0x4] v_mov_b32_e32 v0, 2");
}

TEST(Dependence, TupleOverlap) {
  // v[2:3] and v3 share v3's register units.
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_lshlrev_b64 "v[2:3], 2, v[4:5]"
    amdgcn.inst [0x8] v_mov_b32_e32 "v6, v3"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] v_mov_b32_e32 v6, v3 before [0x0] v_lshlrev_b64 "
            "v[2:3], 2, v[4:5]: dependence reversed: RAW on v3: [0x0] "
            "v_lshlrev_b64 v[2:3], 2, v[4:5] must stay before [0x8] "
            "v_mov_b32_e32 v6, v3");
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_lshlrev_b64 "v[2:3], 2, v[4:5]"
    amdgcn.inst [0x8] v_mov_b32_e32 "v6, v1"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "legal");
}

TEST(Dependence, AGPR) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_accvgpr_write_b32 "a0, v1"
    amdgcn.inst [0x8] v_accvgpr_read_b32 "v2, a0"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] v_accvgpr_read_b32 v2, a0 before [0x0] "
            "v_accvgpr_write_b32 a0, v1: dependence reversed: RAW on a0: "
            "[0x0] v_accvgpr_write_b32 a0, v1 must stay before [0x8] "
            "v_accvgpr_read_b32 v2, a0");
}

TEST(Dependence, ImplicitVCC) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.s_nop 1
    amdgcn.inst [0x8] v_cndmask_b32_e32 "v2, v3, v4, vcc"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] v_cndmask_b32_e32 v2, v3, v4, vcc before [0x0] "
            "v_cmp_eq_u32_e32 vcc, v0, v1: dependence reversed: RAW on vcc: "
            "[0x0] v_cmp_eq_u32_e32 vcc, v0, v1 must stay before [0x8] "
            "v_cndmask_b32_e32 v2, v3, v4, vcc");
}

TEST(Dependence, ImplicitEXEC) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_and_saveexec_b64 "s[0:1], s[2:3]"
    amdgcn.inst [0x4] v_mov_b32_e32 "v1, 0"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_mov_b32_e32 v1, 0 before [0x0] s_and_saveexec_b64 "
            "s[0:1], s[2:3]: dependence reversed: RAW on exec: [0x0] "
            "s_and_saveexec_b64 s[0:1], s[2:3] must stay before [0x4] "
            "v_mov_b32_e32 v1, 0");
}

TEST(Dependence, ImplicitSCC) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_add_u32 "s0, s1, s2"
    amdgcn.inst [0x4] s_addc_u32 "s3, s4, s5"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] s_addc_u32 s3, s4, s5 before [0x0] s_add_u32 s0, "
            "s1, s2: dependence reversed: RAW on scc: [0x0] s_add_u32 s0, s1, "
            "s2 must stay before [0x4] s_addc_u32 s3, s4, s5");
}

TEST(Dependence, ImplicitM0) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_mov_b32 "m0, s0"
    amdgcn.inst [0x4] s_nop "0"
    amdgcn.inst [0x8] ds_read_b32 "v0, v1"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] ds_read_b32 v0, v1 before [0x0] s_mov_b32 m0, s0: "
            "dependence reversed: RAW on m0: [0x0] s_mov_b32 m0, s0 must stay "
            "before [0x8] ds_read_b32 v0, v1");
}

TEST(Dependence, ImplicitMODE) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_setreg_b32 "hwreg(HW_REG_MODE, 0, 4), s0"
    amdgcn.inst [0x4] v_add_f32_e32 "v0, v1, v2"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_add_f32_e32 v0, v1, v2 before [0x0] s_setreg_b32 "
            "hwreg(HW_REG_MODE, 0, 4), s0: dependence reversed: RAW on mode: "
            "[0x0] s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0 must stay before "
            "[0x4] v_add_f32_e32 v0, v1, v2");
  // Integer VALU does not read MODE.
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_setreg_b32 "hwreg(HW_REG_MODE, 0, 4), s0"
    amdgcn.inst [0x4] v_add_u32_e32 "v0, v1, v2"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "legal");
}

TEST(Dependence, ImplicitFlatScratch) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_mov_b64 "flat_scratch, s[0:1]"
    amdgcn.inst [0x4] flat_load_dword "v0, v[4:5]"
    amdgcn.s_waitcnt vmcnt(0) lgkmcnt(0)
    amdgcn.s_endpgm)", 0x4, 0x0, "gfx90a"),
            "moving [0x4] flat_load_dword v0, v[4:5] before [0x0] s_mov_b64 "
            "flat_scratch, s[0:1]: dependence reversed: RAW on flat_scratch: "
            "[0x0] s_mov_b64 flat_scratch, s[0:1] must stay before [0x4] "
            "flat_load_dword v0, v[4:5]");
}

TEST(Dependence, MemoryGlobal) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] global_store_dword "v[0:1], v2, off"
    amdgcn.inst [0x8] global_load_dword "v3, v[4:5], off"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] global_load_dword v3, v[4:5], off before [0x0] "
            "global_store_dword v[0:1], v2, off: dependence reversed: memory "
            "on mem.global: [0x0] global_store_dword v[0:1], v2, off must "
            "stay before [0x8] global_load_dword v3, v[4:5], off");
}

TEST(Dependence, MemorySpacesThatDoNotAlias) {
  // LDS and global memory are disjoint.
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] ds_write_b32 "v1, v0"
    amdgcn.inst [0x8] global_load_dword "v3, v[4:5], off"
    amdgcn.s_waitcnt vmcnt(0) lgkmcnt(0)
    amdgcn.s_endpgm)", 0x8, 0x0),
            "legal");
  // Scratch and global too (xnack off: no soft-clause rule).
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] scratch_store_dword "off, v0, s0"
    amdgcn.inst [0x8] global_load_dword "v3, v[4:5], off"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)", 0x8, 0x0, "gfx942:xnack-"),
            "legal");
}

TEST(Dependence, FlatAliasesLDS) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] ds_write_b32 "v1, v0"
    amdgcn.inst [0x8] flat_load_dword "v2, v[4:5]"
    amdgcn.s_waitcnt vmcnt(0) lgkmcnt(0)
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] flat_load_dword v2, v[4:5] before [0x0] "
            "ds_write_b32 v1, v0: dependence reversed: memory on mem.lds: "
            "[0x0] ds_write_b32 v1, v0 must stay before [0x8] flat_load_dword "
            "v2, v[4:5]");
}

TEST(Dependence, ScalarLoadAfterGlobalStore) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] global_store_dword "v[0:1], v2, off"
    amdgcn.inst [0x8] s_load_dword "s0, s[2:3], 0x0"
    amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] s_load_dword s0, s[2:3], 0x0 before [0x0] "
            "global_store_dword v[0:1], v2, off: dependence reversed: memory "
            "on mem.global: [0x0] global_store_dword v[0:1], v2, off must "
            "stay before [0x8] s_load_dword s0, s[2:3], 0x0");
}

TEST(Dependence, SideEffectOrder) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.s_barrier [0x0]
    amdgcn.inst [0x4] ds_read_b32 "v0, v1"
    amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] ds_read_b32 v0, v1 before [0x0] s_barrier: "
            "dependence reversed: side-effect order on order: [0x0] s_barrier "
            "must stay before [0x4] ds_read_b32 v0, v1");
  // ALU ops cross a barrier freely.
  EXPECT_EQ(moveUp(R"(
    amdgcn.s_barrier [0x0]
    amdgcn.inst [0x4] v_add_u32_e32 "v0, v1, v2"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "legal");
}

TEST(Dependence, WaitCount) {
  // Moving the wait above the load would stop it covering the load.
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.inst [0xc] v_add_u32_e32 "v1, v0, v0"
    amdgcn.s_endpgm)", 0x8, 0x0),
            "moving [0x8] s_waitcnt vmcnt(0) before [0x0] global_load_dword "
            "v0, v[2:3], off: dependence reversed: wait count: [0x0] "
            "global_load_dword v0, v[2:3], off must stay before [0x8] "
            "s_waitcnt vmcnt(0)");
}

TEST(Dependence, WaitBeforeUse) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.inst [0xc] v_add_u32_e32 "v1, v0, v0"
    amdgcn.s_endpgm)", 0xc, 0x8),
            "moving [0xc] v_add_u32_e32 v1, v0, v0 before [0x8] s_waitcnt "
            "vmcnt(0): dependence reversed: wait before use on v0: [0x8] "
            "s_waitcnt vmcnt(0) must stay before [0xc] v_add_u32_e32 v1, v0, "
            "v0 (the wait completes [0x0] global_load_dword v0, v[2:3], off)");
}

TEST(Dependence, WaitForLoadFromPredecessor) {
  // The load is issued in another block; the wait in this block completes
  // it, so the use cannot move above the wait.
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.s_branch [0x8] ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0xc] vmcnt(0)
    amdgcn.inst [0x10] v_add_u32_e32 "v1, v0, v0"
    amdgcn.s_endpgm)", 0x10, 0xc),
            "moving [0x10] v_add_u32_e32 v1, v0, v0 before [0xc] s_waitcnt "
            "vmcnt(0): dependence reversed: wait before use on v0: [0xc] "
            "s_waitcnt vmcnt(0) must stay before [0x10] v_add_u32_e32 v1, v0, "
            "v0 (the wait completes [0x0] global_load_dword v0, v[2:3], off)");
}

TEST(Dependence, ControlCall) {
  EXPECT_EQ(moveUp(R"(
    amdgcn.inst [0x0] s_swappc_b64 "s[30:31], s[4:5]"
    amdgcn.inst [0x4] v_mov_b32_e32 "v40, 0"
    amdgcn.s_endpgm)", 0x4, 0x0),
            "moving [0x4] v_mov_b32_e32 v40, 0 before [0x0] s_swappc_b64 "
            "s[30:31], s[4:5]: dependence reversed: control: [0x0] "
            "s_swappc_b64 s[30:31], s[4:5] must stay before [0x4] "
            "v_mov_b32_e32 v40, 0");
}

TEST(Dependence, Structure) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v0, 1"
    amdgcn.s_branch [0x4] ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
    amdgcn.s_endpgm [0xc])");
  Legality L(F->Fn);
  EXPECT_EQ(L.canMoveBefore(F->byId(0x8), F->byId(0x0)).Reason,
            "moving [0x8] v_mov_b32_e32 v1, 1 before [0x0] v_mov_b32_e32 v0, "
            "1: moving [0x8] v_mov_b32_e32 v1, 1 next to [0x0] v_mov_b32_e32 "
            "v0, 1: moves across blocks are not supported");
  EXPECT_EQ(L.canMoveAfter(F->byId(0x0), F->byId(0x4)).K,
            Verdict::Kind::Structure);
  EXPECT_EQ(L.canErase(F->byId(0xc)).K, Verdict::Kind::Structure);
}

TEST(Dependence, GraphEdgesAndDot) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.inst [0x8] v_readfirstlane_b32 "s4, v1"
    amdgcn.s_waitcnt [0xc] vmcnt(0)
    amdgcn.inst [0x10] v_add_u32_e32 "v1, v0, v0"
    amdgcn.inst [0x14] global_load_dword "v5, v6, s[4:5]"
    amdgcn.s_endpgm [0x1c])");
  Legality L(F->Fn);
  DependenceGraph G = L.graph(&F->Fn->getRegion(0).front());
  EXPECT_EQ(G.size(), 6u);
  auto Edges = [&](int64_t A, int64_t B) {
    llvm::SmallVector<DependenceGraph::Edge> Out;
    G.edgesBetween(G.vertexOf(F->byId(A)), G.vertexOf(F->byId(B)), Out);
    std::vector<std::string> S;
    for (auto E : Out)
      S.push_back(depKindName(G.graph()[E].Kind));
    std::sort(S.begin(), S.end());
    return S;
  };
  EXPECT_EQ(Edges(0x0, 0xc), std::vector<std::string>{"wait count"});
  EXPECT_EQ(Edges(0xc, 0x10), std::vector<std::string>{"wait before use"});
  EXPECT_EQ(Edges(0x0, 0x10), std::vector<std::string>{"RAW"});
  EXPECT_EQ(Edges(0x8, 0x10), std::vector<std::string>{"WAR"});
  EXPECT_EQ(Edges(0x8, 0x14),
            (std::vector<std::string>{"RAW", "hazard"}));
  EXPECT_EQ(Edges(0x0, 0x1c), std::vector<std::string>{"control"});
  std::string Dot = G.toDot();
  EXPECT_NE(Dot.find("hazard s4 >=5"), std::string::npos) << Dot;
}

} // namespace
