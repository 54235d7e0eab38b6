//===- HazardTest.cpp - One hand-built case per hazard rule ---------------===//
//
// For every row of the hazard table: producer immediately followed by
// consumer violates the rule with the table's number of wait states;
// with exactly that many wait states in between (s_nop N gives N+1) the
// rule is satisfied; and the legality API refuses to delete the s_nop with
// the exact reason.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "asmevo/Analysis/Hazards.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace asmevo;
using namespace asmevo::test;

namespace {

struct HazardCase {
  const char *Rule;
  const char *CPU;
  const char *Producer;  ///< mnemonic "operands"
  const char *Between;   ///< extra ops between (counted in Have), or ""
  const char *Consumer;
  int Required;
  int HaveWithoutNop; ///< wait states of Between
};

std::string inst(llvm::StringRef Text, int64_t Id) {
  auto [M, Ops] = Text.split(' ');
  return llvm::formatv("amdgcn.inst [{0:x}] {1} \"{2}\"\n", Id, M, Ops).str();
}

const HazardCase Cases[] = {
    {"valu-sgpr-vmem", "gfx942", "v_readfirstlane_b32 s4, v1", "",
     "global_load_dword v0, v2, s[4:5]", 5, 0},
    {"valu-sgpr-vmem", "gfx90a", "v_cmpx_eq_u32_e32 v0, v1", "",
     "global_load_dword v0, v[2:3], off", 5, 0},
    {"dpp-vgpr", "gfx942", "v_add_u32_e32 v2, v3, v4", "",
     "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf", 2, 0},
    {"dpp-exec", "gfx90a", "v_cmpx_eq_u32_e32 v0, v1", "",
     "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf", 5, 0},
    {"div-fmas-vcc", "gfx90a", "v_cmp_eq_u32_e32 vcc, v0, v1", "",
     "v_div_fmas_f32 v0, v1, v2, v3", 4, 0},
    {"rwlane-lane-select", "gfx90a", "v_readfirstlane_b32 s2, v1", "",
     "v_readlane_b32 s0, v1, s2", 4, 0},
    {"setreg-getreg", "gfx942", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
     "", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)", 2, 0},
    {"setreg-setreg", "gfx942", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
     "", "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s1", 2, 0},
    {"salu-m0", "gfx942", "s_mov_b32 m0, s0", "",
     "s_sendmsg sendmsg(MSG_INTERRUPT)", 1, 0},
    {"salu-m0", "gfx942", "s_mov_b32 m0, s0", "",
     "global_load_lds_dword v[2:3], off", 1, 0},
    {"wide-store-data", "gfx942", "global_store_dwordx4 v[0:1], v[2:5], off",
     "", "v_mov_b32_e32 v3, 0", 2, 0},
    {"wide-store-data", "gfx90a",
     "buffer_store_dwordx4 v[2:5], off, s[8:11], 0", "",
     "v_mov_b32_e32 v3, 0", 1, 0},
    {"trans-use", "gfx942", "v_exp_f32_e32 v0, v1", "",
     "v_add_f32_e32 v2, v0, v3", 1, 0},
    {"dst-sel-forward", "gfx942",
     "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
     "src0_sel:DWORD",
     "", "v_add_u32_e32 v2, v0, v3", 1, 0},
    {"valu-sgpr-valu", "gfx942", "v_readfirstlane_b32 s4, v1", "",
     "v_add_u32_e32 v0, s4, v0", 2, 0},
    {"valu-vgpr-readlane", "gfx942", "v_add_u32_e32 v1, v2, v3", "",
     "v_readfirstlane_b32 s0, v1", 1, 0},
    {"valu-exec-rwlane", "gfx942", "v_cmpx_eq_u32_e32 v0, v1", "",
     "v_readfirstlane_b32 s0, v1", 4, 0},
    {"valu-exec-mfma", "gfx942", "v_cmpx_eq_u32_e32 v4, v5", "",
     "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[2:3], a[0:3]", 4, 0},
    {"valu-vgpr-mfma", "gfx90a", "v_mov_b32_e32 v0, 0", "",
     "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]", 2, 0},
    // CDNA3 XDL 8 passes writes v[4:19] -> read as SrcA: passes + 3.
    {"mfma-mfma", "gfx942",
     "v_mfma_f32_32x32x8_f16 v[4:19], v[0:1], v[2:3], v[4:19]", "",
     "v_mfma_f32_32x32x8_f16 v[20:35], v[4:5], v[2:3], v[20:35]", 11, 0},
    // ... read as SrcC, overlapping but not the same: passes + 1.
    {"mfma-mfma", "gfx942",
     "v_mfma_f32_32x32x8_f16 v[4:19], v[0:1], v[2:3], v[4:19]", "",
     "v_mfma_f32_32x32x8_f16 v[8:23], v[0:1], v[2:3], v[8:23]", 9, 0},
    // gfx90a: 16 passes -> SrcA/B 19.
    {"mfma-mfma", "gfx90a",
     "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "",
     "v_mfma_f32_32x32x8f16 a[16:31], a[0:1], v[2:3], a[16:31]", 19, 0},
    // Non-XDL (fp32 inputs) on CDNA3, 16 passes -> VALU read: passes + 2.
    {"mfma-valu-read", "gfx942",
     "v_mfma_f32_32x32x2_f32 v[2:17], v18, v21, v[2:17]", "",
     "v_mov_b32_e32 v19, v17", 18, 0},
    {"mfma-valu-read", "gfx942",
     "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "",
     "v_accvgpr_read_b32 v0, a3", 11, 0},
    {"mfma-valu-read", "gfx90a",
     "v_mfma_f64_4x4x4f64 v[10:11], v[12:13], v[14:15], v[10:11]", "",
     "global_store_dwordx2 v[0:1], v[10:11], off", 9, 0},
    {"mfma-valu-write", "gfx942",
     "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "",
     "v_accvgpr_write_b32 a3, v0", 11, 0},
    {"mfma-srcc-overwrite", "gfx942",
     "v_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[0:15]", "",
     "v_accvgpr_write_b32 a0, v0", 7, 0},
    {"dot-read", "gfx90a", "v_dot2_f32_f16 v0, v1, v2, v3", "",
     "v_add_f32_e32 v4, v0, v5", 3, 0},
    {"dot-write", "gfx90a", "v_dot2_f32_f16 v0, v1, v2, v3", "",
     "v_mov_b32_e32 v0, 0", 3, 0},
    {"dgemm-fma64", "gfx942",
     "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[2:3], v[4:5], v[0:1]", "",
     "v_fma_f64 v[6:7], v[8:9], v[10:11], v[12:13]", 2, 0},
    {"valu-dgemm-vmem", "gfx90a", "v_mov_b32_e32 v2, 0",
     "v_mfma_f64_4x4x4f64 v[10:11], v[12:13], v[14:15], v[10:11]",
     "global_store_dword v[0:1], v2, off", 2, 1},
    {"smem-soft-clause", "gfx942", "s_load_dwordx2 s[0:1], s[0:1], 0x0",
     "", "s_load_dword s2, s[4:5], 0x0", 1, 0},
    {"vmem-soft-clause", "gfx942", "global_load_dword v0, v[0:1], off",
     "", "global_load_dword v1, v[2:3], off", 1, 0},
};

class HazardRuleTest : public ::testing::TestWithParam<HazardCase> {};

std::vector<HazardPair> pairsOf(Function &F, int64_t ConsumerId,
                                InstInfoCache &Cache) {
  HazardChecker HC(Cache);
  llvm::SmallVector<HazardPair> Pairs;
  HC.pairsFor(F.byId(ConsumerId), Pairs);
  return {Pairs.begin(), Pairs.end()};
}

TEST_P(HazardRuleTest, ViolatedThenSatisfied) {
  const HazardCase &C = GetParam();
  std::string Between = C.Between[0] ? inst(C.Between, 0x10) : "";
  // Immediately adjacent (plus Between).
  {
    auto F = parseFunction(inst(C.Producer, 0x0) + Between +
                               inst(C.Consumer, 0x20) + "amdgcn.s_endpgm",
                           C.CPU);
    ASSERT_TRUE(F->Fn);
    InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
    auto Pairs = pairsOf(*F, 0x20, Cache);
    bool Found = false;
    for (const HazardPair &P : Pairs)
      if (llvm::StringRef(P.Rule->Id) == C.Rule) {
        Found = true;
        EXPECT_EQ(P.Required, C.Required) << P.message(Cache);
        EXPECT_EQ(P.Have, C.HaveWithoutNop) << P.message(Cache);
        EXPECT_EQ(P.Producer, F->byId(0x0));
      }
    EXPECT_TRUE(Found) << C.Rule << " not reported for " << C.Producer
                       << " -> " << C.Consumer;
  }
  // With enough wait states the rule is satisfied, and removing the s_nop
  // is refused with the hazard as reason.
  // s_nop N gives N+1 wait states, at most 16 per s_nop.
  int Need = C.Required - C.HaveWithoutNop;
  std::string Nops = llvm::formatv("amdgcn.s_nop [0x14] {0}\n",
                                   std::min(Need, 16) - 1)
                         .str();
  if (Need > 16)
    Nops += llvm::formatv("amdgcn.s_nop [0x18] {0}\n", Need - 16 - 1).str();
  auto F = parseFunction(inst(C.Producer, 0x0) + Between + Nops +
                             inst(C.Consumer, 0x20) + "amdgcn.s_endpgm",
                         C.CPU);
  ASSERT_TRUE(F->Fn);
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  for (const HazardPair &P : pairsOf(*F, 0x20, Cache))
    EXPECT_NE(llvm::StringRef(P.Rule->Id), C.Rule) << P.message(Cache);
  Legality L(F->Fn);
  Verdict V = L.canErase(F->byId(0x14));
  EXPECT_FALSE(V);
  EXPECT_EQ(V.K, Verdict::Kind::Hazard);
  EXPECT_NE(V.Reason.find(std::string("hazard ") + C.Rule), std::string::npos)
      << V.Reason;
}

INSTANTIATE_TEST_SUITE_P(
    Table, HazardRuleTest, ::testing::ValuesIn(Cases),
    [](const ::testing::TestParamInfo<HazardCase> &I) {
      std::string N = std::string(I.param.Rule) + "_" + I.param.CPU + "_" +
                      std::to_string(I.index);
      for (char &C : N)
        if (!isalnum(C))
          C = '_';
      return N;
    });

TEST(Hazard, EveryRuleHasACase) {
  for (const HazardRule &R : hazardRules()) {
    bool Found = false;
    for (const HazardCase &C : Cases)
      Found |= llvm::StringRef(C.Rule) == R.Id;
    EXPECT_TRUE(Found) << "no test case for hazard rule " << R.Id;
    EXPECT_NE(llvm::StringRef(R.Source), "") << R.Id;
  }
}

TEST(Hazard, ExactReasonWhenDeletingANop) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.s_nop [0x4] 4
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)");
  Legality L(F->Fn);
  EXPECT_EQ(L.canErase(F->byId(0x4)).Reason,
            "erasing [0x4] s_nop 4: hazard valu-sgpr-vmem (VALU writes "
            "SGPR/VCC/EXEC -> VMEM/FLAT reads it; ISA table 'VALU writes SGPR "
            "-> VMEM reads that SGPR' (5); LLVM "
            "GCNHazardRecognizer::checkVMEMHazards): s4 written by [0x0] "
            "v_readfirstlane_b32 s4, v1, then [0x8] global_load_dword v0, v2, "
            "s[4:5]: needs 5 wait states between them, has 0 (5 missing)");
  // Shrinking it to s_nop 3 leaves one wait state missing.
  mlir::OpBuilder B(&F->Ctx);
  auto Smaller = amdgcn::NopOp::create(B, B.getUnknownLoc(), 0x4, 3);
  Verdict V = L.canReplace({F->byId(0x4)}, {Smaller});
  EXPECT_NE(V.Reason.find("needs 5 wait states between them, has 4 (1 "
                          "missing)"),
            std::string::npos)
      << V.Reason;
  Smaller->destroy();
}

TEST(Hazard, AcrossBlocksAndLoops) {
  // The producer is at the end of the loop body; the consumer at its top
  // sees it through the back edge with the wait states of the path.
  auto F = parseFunction(R"(
    amdgcn.s_branch [0x0] ^bb1
  ^bb1:
    amdgcn.inst [0x4] global_load_dword "v0, v2, s[4:5]"
    amdgcn.inst [0xc] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x10] s_nop "1"
    amdgcn.cbranch [0x14] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  auto Pairs = pairsOf(*F, 0x4, Cache);
  ASSERT_EQ(Pairs.size(), 1u);
  EXPECT_EQ(llvm::StringRef(Pairs[0].Rule->Id), "valu-sgpr-vmem");
  // s_nop 1 (2) + s_cbranch (1).
  EXPECT_EQ(Pairs[0].Have, 3);
}

TEST(Hazard, NoFalsePositives) {
  // Same registers, no hazard: SALU writes SGPR -> VMEM reads (interlocked).
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] s_mov_b32 "s4, 0"
    amdgcn.inst [0x4] global_load_dword "v0, v2, s[4:5]"
    amdgcn.inst [0xc] v_mfma_f32_32x32x8_f16 "a[0:15], v[0:1], v[2:3], a[0:15]"
    amdgcn.inst [0x14] v_mfma_f32_32x32x8_f16 "a[0:15], v[0:1], v[2:3], a[0:15]"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  EXPECT_TRUE(pairsOf(*F, 0x4, Cache).empty());
  // Back-to-back accumulation into the same registers (SrcC full
  // overlap) needs no wait states on an 8-pass XDL op.
  EXPECT_TRUE(pairsOf(*F, 0x14, Cache).empty());
}

TEST(Hazard, MixOpsDoNotForwardByDefault) {
  // op_sel_hi defaults to 0 on v_fma_mix* (not packed in LLVM) and the
  // printer omits it: LLVM-compiled rocRAND reads the result right away.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_fma_mixlo_f16 "v15, v15, s25, s25"
    amdgcn.inst [0x8] v_cvt_f32_f16_e32 "v24, v15"
    amdgcn.inst [0xc] v_fma_mixlo_f16 "v15, v15, s25, s25 op_sel_hi:[1,0,0]"
    amdgcn.inst [0x14] v_cvt_f32_f16_e32 "v24, v15"
    amdgcn.inst [0x18] v_pk_add_f16 "v3, v1, v2"
    amdgcn.inst [0x1c] v_cvt_f32_f16_e32 "v4, v3"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  EXPECT_TRUE(pairsOf(*F, 0x8, Cache).empty());
  // The DST_OP_SEL bit set explicitly, and packed ops by default.
  for (int64_t Consumer : {0x14, 0x1c}) {
    auto Pairs = pairsOf(*F, Consumer, Cache);
    ASSERT_EQ(Pairs.size(), 1u) << Consumer;
    EXPECT_EQ(llvm::StringRef(Pairs[0].Rule->Id), "dst-sel-forward");
  }
}

TEST(Hazard, Gfx9GenericHasNoCdna3Rows) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_add_u32_e32 "v0, s4, v0"
    amdgcn.s_endpgm)",
                         "gfx9-generic");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  EXPECT_TRUE(pairsOf(*F, 0x4, Cache).empty());
  auto G = parseFunction(R"(
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_add_u32_e32 "v0, s4, v0"
    amdgcn.s_endpgm)");
  InstInfoCache Cache2(*cantFail(amdgcn::getTargetInfoFor(G->Fn)));
  EXPECT_EQ(pairsOf(*G, 0x4, Cache2).size(), 1u);
}

TEST(Hazard, MissingAfterAHypotheticalOrder) {
  // The scheduler asks about orders before it makes them: the IR's order
  // does not matter, only the sequence and the s_nops planned in it.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_cmp_gt_u32_e32 "vcc, 8, v1"
    amdgcn.inst [0x4] v_add_u32_e32 "v3, v4, v5"
    amdgcn.inst [0x8] v_cndmask_b32_e64 "v2, 0, 1, vcc"
    amdgcn.inst [0x10] global_load_dword "v6, v[10:11], off"
    amdgcn.inst [0x18] global_load_dword "v10, v[12:13], off"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  HazardChecker HC(Cache);
  mlir::Operation *Cmp = F->byId(0x0), *Add = F->byId(0x4), *Sel = F->byId(0x8),
                  *L1 = F->byId(0x10), *L2 = F->byId(0x18);
  // valu-sgpr-valu needs 2 wait states.
  EXPECT_EQ(HC.missingAfter({Cmp}, {}, Sel), 2);
  EXPECT_EQ(HC.missingAfter({Cmp, Add}, {0, 0}, Sel), 1);
  EXPECT_EQ(HC.missingAfter({Cmp, Add}, {0, 1}, Sel), 0);
  EXPECT_EQ(HC.missingAfter({Add}, {}, Sel), 0);
  // gfx942 with xnack any: a VMEM clause must not write what it reads;
  // the second load writes v10, the first one's address. The clause is
  // the sequence's: an op between splits it, an s_nop before the first
  // load does not.
  EXPECT_EQ(HC.missingAfter({L1}, {}, L2), 1);
  EXPECT_EQ(HC.missingAfter({L1, Add}, {}, L2), 0);
  EXPECT_EQ(HC.missingAfter({L1}, {1}, L2), 1);
}

/// Every op of the table's cases for one target, in one function.
std::unique_ptr<Function> tableOps(llvm::StringRef CPU) {
  std::string Body;
  int64_t Id = 0;
  for (const HazardCase &C : Cases) {
    if (CPU != C.CPU)
      continue;
    for (const char *T : {C.Producer, C.Between, C.Consumer})
      if (*T)
        Body += inst(T, Id += 8);
  }
  Body += "amdgcn.s_endpgm\n";
  return parseFunction(Body, CPU);
}

TEST(Hazard, GrowingOrderAnswersLikeMissingAfter) {
  // HazardOrder (a list scheduler's growing order, memoized pairs) answers
  // every question as a plain checker's missingAfter over the same order:
  // random orders of the table's ops (every rule has a producer and a
  // consumer among them), random s_nops, consumers asked after one or
  // several appended ops.
  for (const char *CPU : {"gfx942", "gfx90a"}) {
    auto F = tableOps(CPU);
    llvm::SmallVector<mlir::Operation *> Ops;
    for (mlir::Operation &Op : F->Fn->getRegion(0).front())
      if (!Op.hasTrait<mlir::OpTrait::IsTerminator>())
        Ops.push_back(&Op);
    InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
    uint64_t Seed = 0x9e3779b97f4a7c15ull;
    auto rnd = [&](unsigned N) {
      Seed ^= Seed << 13, Seed ^= Seed >> 7, Seed ^= Seed << 17;
      return unsigned(Seed % N);
    };
    unsigned Asked = 0, NonZero = 0;
    for (int Round = 0; Round < 200; ++Round) {
      HazardChecker Plain(Cache), Memo(Cache, /*MemoizePairs=*/true);
      HazardOrder Order(Memo);
      for (int Len = 0; Len < 40; ++Len) {
        for (int Q = 0; Q < 3; ++Q) {
          mlir::Operation *C = Ops[rnd(Ops.size())];
          int Want = Plain.missingAfter(Order.ops(), Order.gaps(), C);
          ASSERT_EQ(Order.missing(C), Want)
              << CPU << " round " << Round << " length " << Len;
          ASSERT_EQ(Memo.missingAfter(Order.ops(), Order.gaps(), C), Want);
          ++Asked;
          NonZero += Want > 0;
        }
        Order.push(Ops[rnd(Ops.size())], rnd(4) == 0 ? int(rnd(3)) : 0);
      }
    }
    // The orders do ask about hazards.
    EXPECT_GT(NonZero, Asked / 20) << CPU;
  }
}

TEST(Hazard, GrowingOrderAsksOrderRulesEveryTime) {
  // A soft clause is the sequence's last ops: what was true after one op
  // is not after the next (the memoized pairs leave such rules out).
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v6, v[10:11], off"
    amdgcn.inst [0x8] v_add_u32_e32 "v3, v4, v5"
    amdgcn.inst [0x10] global_load_dword "v10, v[12:13], off"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  HazardChecker HC(Cache, /*MemoizePairs=*/true);
  HazardOrder Order(HC);
  Order.push(F->byId(0x0), 0);
  EXPECT_EQ(Order.missing(F->byId(0x10)), 1);
  Order.push(F->byId(0x8), 0);
  EXPECT_EQ(Order.missing(F->byId(0x10)), 0);
}

} // namespace

namespace {
TEST(Hazard, EveryRuleIsDocumented) {
  auto Doc = llvm::MemoryBuffer::getFile(ASMEVO_SOURCE_DIR
                                         "/docs/WritingPasses.md");
  ASSERT_TRUE(bool(Doc));
  for (const HazardRule &R : hazardRules())
    EXPECT_NE((*Doc)->getBuffer().find(std::string("`") + R.Id + "`"),
              llvm::StringRef::npos)
        << "docs/WritingPasses.md does not list hazard rule " << R.Id;
}
} // namespace
