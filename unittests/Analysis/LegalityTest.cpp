//===- LegalityTest.cpp - Erase/insert/replace, transactions, pressure ----===//

#include "AnalysisTestUtil.h"

#include "asmevo/Analysis/Liveness.h"

#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"

using namespace asmevo;
using namespace asmevo::test;

namespace {

mlir::Operation *newInst(Function &F, llvm::StringRef Text) {
  mlir::OpBuilder B(&F.Ctx);
  auto TI = cantFail(amdgcn::getTargetInfoFor(F.Fn));
  llvm::MCInst Inst;
  llvm::SmallVector<uint8_t, 16> Bytes;
  cantFail(TI->assemble(Text, Inst, Bytes));
  llvm::SmallVector<int32_t> Enc;
  for (size_t I = 0; I < Bytes.size(); I += 4)
    Enc.push_back(int32_t(uint32_t(Bytes[I]) | uint32_t(Bytes[I + 1]) << 8 |
                          uint32_t(Bytes[I + 2]) << 16 |
                          uint32_t(Bytes[I + 3]) << 24));
  return amdgcn::InstOp::create(B, B.getUnknownLoc(), -1, Enc, 0, -1, -1);
}

const char *Body = R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v2, 2"
    amdgcn.inst [0x8] v_add_u32_e32 "v3, v1, v0"
    amdgcn.inst [0xc] global_store_dword "v[4:5], v3, off"
    amdgcn.s_endpgm [0x14])";

TEST(Legality, EraseDeadAndLive) {
  auto F = parseFunction(Body);
  Legality L(F->Fn);
  EXPECT_TRUE(L.canErase(F->byId(0x4)));
  EXPECT_EQ(L.canErase(F->byId(0x0)).Reason,
            "erasing [0x0] v_mov_b32_e32 v1, 1: erasing [0x0] v_mov_b32_e32 "
            "v1, 1: its result v1 is still read afterwards");
  EXPECT_EQ(L.canErase(F->byId(0xc)).Reason,
            "erasing [0xc] global_store_dword v[4:5], v3, off: erasing [0xc] "
            "global_store_dword v[4:5], v3, off removes a memory write and no "
            "new op of the same kind replaces it");
  // Apply: the dead move goes away, the IR keeps the rest.
  EXPECT_TRUE(L.erase(F->byId(0x4)));
  F->refresh();
  EXPECT_EQ(F->Ops.size(), 4u);
}

TEST(Legality, InsertMustNotClobber) {
  auto F = parseFunction(Body);
  Legality L(F->Fn);
  mlir::Operation *N = newInst(*F, "v_mov_b32_e32 v1, 7");
  EXPECT_EQ(L.canInsertBefore(N, F->byId(0x8)).Reason,
            "inserting [new] v_mov_b32_e32 v1, 7 before [0x8] v_add_u32_e32 "
            "v3, v1, v0: the new [new] v_mov_b32_e32 v1, 7 overwrites v1, "
            "which original code still reads");
  EXPECT_FALSE(N->getBlock()); // queries leave the op detached
  N->destroy();
  mlir::Operation *Tmp = newInst(*F, "v_mov_b32_e32 v9, 7");
  EXPECT_TRUE(L.insertBefore(Tmp, F->byId(0x8)));
  EXPECT_EQ(Tmp->getBlock(), &F->Fn->getRegion(0).front());
}

TEST(Legality, ReplaceRange) {
  auto F = parseFunction(Body);
  Legality L(F->Fn);
  // v3 = 1 + v0 computed through a temporary: the new ops define v1 (the
  // old range's result) and v9 (dead).
  mlir::Operation *A = newInst(*F, "v_mov_b32_e32 v9, 1");
  mlir::Operation *B = newInst(*F, "v_add_u32_e32 v3, v9, v0");
  Verdict V = L.replace({F->byId(0x8)}, {A, B});
  EXPECT_TRUE(V) << V.Reason;
  F->refresh();
  EXPECT_EQ(F->Ops.size(), 6u);
}

TEST(Legality, TransactionRollsBack) {
  auto F = parseFunction(Body);
  std::string Before;
  llvm::raw_string_ostream(Before) << *F->Module;
  Legality L(F->Fn);
  {
    Legality::Transaction T(L);
    T.moveBefore(F->byId(0x8), F->byId(0x0)); // RAW on v1
    T.erase(F->byId(0x4));
    Verdict V = T.commit();
    EXPECT_EQ(V.K, Verdict::Kind::Dependence);
  }
  std::string After;
  llvm::raw_string_ostream(After) << *F->Module;
  EXPECT_EQ(Before, After);
}

TEST(Legality, BaselineIsTolerated) {
  // The function already reads v0 while a load may be in flight; edits
  // elsewhere stay legal, edits that add such reads do not.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] v_add_u32_e32 "v1, v0, v0"
    amdgcn.inst [0xc] v_mov_b32_e32 "v7, 0"
    amdgcn.inst [0x10] v_mov_b32_e32 "v8, 0"
    amdgcn.inst [0x14] v_add_u32_e32 "v2, v0, v0"
    amdgcn.s_waitcnt vmcnt(0)
    amdgcn.s_endpgm)");
  Legality L(F->Fn);
  llvm::SmallVector<std::string> Problems;
  L.baselineProblems(Problems);
  EXPECT_EQ(Problems.size(), 2u);
  EXPECT_TRUE(L.canMoveBefore(F->byId(0x10), F->byId(0xc)));
}

TEST(Legality, PcrelTargetOfAnotherFunction) {
  // @f computes the address of [0x108] (first in its block) and of [0x114]
  // (in the middle of a block) of kernel @k.
  mlir::MLIRContext Ctx;
  Ctx.loadDialect<amdgcn::AMDGCNDialect>();
  auto M = mlir::parseSourceString<mlir::ModuleOp>(R"(
    amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
      amdgcn.func @f attributes {addr = 0 : i64} {
        amdgcn.inst [0x0] s_getpc_b64 "s[4:5]"
        amdgcn.inst [0x4] s_add_u32 "s4, s4, 0x104" pcrel(lo, 0x108 from 0x0)
        amdgcn.inst [0xc] s_addc_u32 "s5, s5, 0" pcrel(hi, 0x108 from 0x0)
        amdgcn.inst [0x14] s_getpc_b64 "s[6:7]"
        amdgcn.inst [0x18] s_add_u32 "s6, s6, 0xfc" pcrel(lo, 0x114 from 0x14)
        amdgcn.inst [0x20] s_addc_u32 "s7, s7, 0" pcrel(hi, 0x114 from 0x14)
        amdgcn.indirect [0x28] s_setpc_b64 "s[30:31]"
      }
      amdgcn.kernel @k attributes {addr = 256 : i64, descriptor = {}} {
        amdgcn.inst [0x100] v_mov_b32_e32 "v1, 0"
        amdgcn.fallthrough ^bb1
      ^bb1:
        amdgcn.inst [0x108] v_mov_b32_e32 "v2, 0"
        amdgcn.inst [0x10c] v_mov_b32_e32 "v3, 0"
        amdgcn.fallthrough ^bb2
      ^bb2:
        amdgcn.inst [0x110] v_mov_b32_e32 "v5, 0"
        amdgcn.inst [0x114] v_mov_b32_e32 "v4, 0"
        amdgcn.s_endpgm [0x118]
      }
    })",
                                                   &Ctx);
  ASSERT_TRUE(M);
  auto CO = llvm::cast<amdgcn::CodeObjectOp>(M->getBody()->front());
  mlir::Operation *K = &*std::next(CO.getBodyBlock().begin());
  ASSERT_TRUE(llvm::isa<amdgcn::KernelOp>(K));
  auto byId = [&](int64_t Id) {
    mlir::Operation *Found = nullptr;
    K->walk([&](mlir::Operation *Op) {
      if (amdgcn::getInstId(Op) == Id)
        Found = Op;
    });
    return Found;
  };
  Legality L(K);
  PcrelReferences Refs(K);
  L.setPcrelReferences(Refs);
  // A target first in its block stays there; what follows it may change.
  EXPECT_EQ(L.canErase(byId(0x108)).Reason,
            "erasing [0x108] v_mov_b32_e32 v2, 0: [0x108] v_mov_b32_e32 v2, 0 "
            "is the target of a PC-relative reference from @f: it must stay "
            "first in its block");
  EXPECT_TRUE(L.canErase(byId(0x10c)));
  // A block entered in the middle: the dependence and wait checks see only
  // the block's own entry, so nothing in it is edited.
  EXPECT_EQ(L.canErase(byId(0x110)).Reason,
            "erasing [0x110] v_mov_b32_e32 v5, 0: [0x114] v_mov_b32_e32 v4, 0 "
            "is the target of a PC-relative reference from @f: its block is "
            "entered in the middle there and is not edited");
  // Without the reference index Legality builds its own: same answer.
  Legality L2(K);
  EXPECT_FALSE(L2.canErase(byId(0x110)));
  EXPECT_TRUE(L.canErase(byId(0x100)));
}

TEST(Legality, LivenessSummariesAfterRollBack) {
  // Legality keeps per-block liveness summaries between transactions; a
  // query's edit is rolled back, and so must be what it learnt of bb1.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v1, 1"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_add_u32_e32 "v3, v1, v0"
    amdgcn.inst [0xc] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x10] global_store_dword "v[6:7], v3, off"
    amdgcn.s_endpgm [0x18])");
  Legality L(F->Fn);
  EXPECT_TRUE(L.canErase(F->byId(0x8))); // its v3 is overwritten
  EXPECT_EQ(L.canErase(F->byId(0x0)).Reason,
            "erasing [0x0] v_mov_b32_e32 v1, 1: erasing [0x0] v_mov_b32_e32 "
            "v1, 1: its result v1 is still read afterwards");
  EXPECT_TRUE(L.erase(F->byId(0x8)));
  EXPECT_TRUE(L.canErase(F->byId(0x0)));
}

TEST(Legality, LivenessSummariesFollowExec) {
  // bb1's write of v3 leaves the inactive lanes' v3 live while bb0 may
  // have changed EXEC; once bb0's EXEC copy is gone it kills v3, though
  // bb1 did not change.
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v3, 1"
    amdgcn.inst [0x4] s_mov_b64 "exec, exec"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_mov_b32_e32 "v3, 2"
    amdgcn.inst [0xc] global_store_dword "v[4:5], v3, off"
    amdgcn.s_endpgm [0x14])");
  Legality L(F->Fn);
  EXPECT_EQ(L.canErase(F->byId(0x0)).Reason,
            "erasing [0x0] v_mov_b32_e32 v3, 1: erasing [0x0] v_mov_b32_e32 "
            "v3, 1: its result v3 is still read afterwards");
  {
    Legality::Transaction T(L);
    T.eraseRedundant(F->byId(0x4), F->byId(0x4));
    Verdict V = T.commit();
    EXPECT_TRUE(V) << V.Reason;
  }
  EXPECT_TRUE(L.canErase(F->byId(0x0)));
}

TEST(Liveness, ConservativeAndDense) {
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v2, 1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v2, 2"
    amdgcn.inst [0x8] s_and_saveexec_b64 "s[0:1], vcc"
    amdgcn.inst [0xc] v_mov_b32_e32 "v3, 1"
    amdgcn.inst [0x10] v_mov_b32_e32 "v3, 2"
    amdgcn.inst [0x14] global_store_dwordx2 "v[4:5], v[2:3], off"
    amdgcn.s_endpgm)");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  const RegUnitInfo &RU = Cache.units();
  auto liveAfter = [&](Liveness &L, int64_t Id) {
    llvm::BitVector BV = L.liveAfter(F->byId(Id));
    llvm::BitVector Regs(BV.size());
    for (unsigned U : BV.set_bits())
      if (RU.kindOf(U) == RegKind::VGPR)
        Regs.set(U);
    return RU.describe(Regs);
  };
  Liveness C(F->Fn, Cache);

  // Before EXEC changes, a VALU write kills: v2 from [0x0] is dead (v3
  // is live from the start: its inactive lanes are never written).
  EXPECT_EQ(liveAfter(C, 0x0), "v[3:5]");
  // After s_and_saveexec, the write of v3 at [0x10] keeps the inactive
  // lanes' old value live: v3 from [0xc] stays live.
  EXPECT_EQ(liveAfter(C, 0xc), "v[2:5]");
  Liveness D(F->Fn, Cache, Liveness::Mode::Dense);
  EXPECT_EQ(liveAfter(D, 0xc), "v2, v[4:5]");
  RegPressure P = D.maxPressure();
  EXPECT_EQ(P.VGPR, 4u);
  EXPECT_EQ(P.SGPR, 0u); // s[0:1] is never read; vcc is not in the file
}

TEST(Liveness, FocusedMatchesFull) {
  // v1 is live around the loop (read in bb1, reached again by the back
  // edge) and dead in bb2 (overwritten there).
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v1, 1"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_add_u32_e32 "v2, v1, v2"
    amdgcn.inst [0xc] s_cmp_eq_u32 "s0, s1"
    amdgcn.cbranch [0x10] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.inst [0x14] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x18] global_store_dword "v[4:5], v2, off"
    amdgcn.s_endpgm [0x20])");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  const RegUnitInfo &RU = Cache.units();
  std::vector<uint16_t> V1;
  for (uint16_t U : Cache.get(F->byId(0x0)).Defs)
    if (!RU.isPseudo(U))
      V1.push_back(U);
  ASSERT_FALSE(V1.empty());
  Liveness Full(F->Fn, Cache);
  LivenessSummaries S;
  Liveness Focused(F->Fn, Cache, Liveness::Mode::Conservative, nullptr, &S, V1);
  std::vector<mlir::Block *> Blocks;
  for (mlir::Block &B : F->Fn->getRegion(0))
    Blocks.push_back(&B);
  ASSERT_EQ(Blocks.size(), 3u);
  for (mlir::Block *B : Blocks) {
    EXPECT_EQ(Full.liveIn(B).test(V1[0]), Focused.liveIn(B).test(V1[0]));
    EXPECT_EQ(Full.liveOut(B).test(V1[0]), Focused.liveOut(B).test(V1[0]));
  }
  EXPECT_TRUE(Focused.liveOut(Blocks[1]).test(V1[0])); // the back edge
  EXPECT_FALSE(Focused.liveIn(Blocks[2]).test(V1[0]));
  EXPECT_TRUE(Focused.liveAfter(F->byId(0x0)).test(V1[0]));
  EXPECT_TRUE(Focused.liveAfter(F->byId(0x8)).test(V1[0]));
}

TEST(Legality, HazardAcrossTheBackEdgeOfALongBlock) {
  // Verification looks at the ops an edit can reach, not the whole block:
  // here the consumer comes first in the block, far from the s_nop, and
  // the s_nop reaches it only through the loop's back edge.
  std::string Body = R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v1, 1"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
)";
  int64_t Addr = 0x10;
  for (int I = 0; I < 40; ++I, Addr += 4)
    Body += "    amdgcn.inst [" + std::to_string(Addr) + "] v_mov_b32_e32 \"v" +
            std::to_string(10 + I % 8) + ", 0\"\n";
  Body += "    amdgcn.inst [" + std::to_string(Addr) +
          "] v_readfirstlane_b32 \"s4, v1\"\n";
  Body += "    amdgcn.s_nop [" + std::to_string(Addr + 4) + "] 4\n";
  Body += "    amdgcn.inst [" + std::to_string(Addr + 8) +
          "] s_cmp_eq_u32 \"s0, s1\"\n";
  Body += "    amdgcn.cbranch [" + std::to_string(Addr + 12) +
          "] s_cbranch_scc1 ^bb1, ^bb2\n";
  Body += "  ^bb2:\n    amdgcn.s_waitcnt [" + std::to_string(Addr + 16) +
          "] vmcnt(0)\n    amdgcn.s_endpgm [" + std::to_string(Addr + 20) + "]";
  auto F = parseFunction(Body);
  Legality L(F->Fn);
  Verdict V = L.canErase(F->byId(Addr + 4));
  EXPECT_EQ(V.K, Verdict::Kind::Hazard) << V.Reason;
  EXPECT_NE(V.Reason.find("hazard valu-sgpr-vmem"), std::string::npos)
      << V.Reason;
  EXPECT_NE(V.Reason.find("then [0x8] global_load_dword"), std::string::npos)
      << V.Reason;
  // A filler op far from both is erased; the s_nop still may not be.
  EXPECT_TRUE(L.erase(F->byId(0x20)));
  EXPECT_EQ(L.canErase(F->byId(Addr + 4)).K, Verdict::Kind::Hazard);
}

TEST(Legality, FirstTouchFollowsCommits) {
  // A commit's check walks a loop block for a register from where the
  // register is first touched, a point kept across commits: erasing the
  // first reader moves it on, and a new reader put before it must move it
  // back (else v1 would look dead around the back edge and [0x10], its
  // only writer, erasable).
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v1, 1"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_mov_b32_e32 "v8, v1"
    amdgcn.inst [0xc] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x10] v_mov_b32_e32 "v1, 2"
    amdgcn.inst [0x14] s_cmp_eq_u32 "s0, s1"
    amdgcn.cbranch [0x18] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.inst [0x1c] global_store_dword "v[4:5], v9, off"
    amdgcn.s_endpgm [0x24])");
  Legality L(F->Fn);
  // [0x8] reads v1 first in the loop: v1 is live around the back edge.
  EXPECT_EQ(L.canErase(F->byId(0x10)).K, Verdict::Kind::LiveValue);
  // v8 is never read: its copy goes, and with it the loop's read of v1.
  EXPECT_TRUE(L.erase(F->byId(0x8)));
  F->refresh();
  EXPECT_TRUE(L.canErase(F->byId(0x10)));
  // A new reader of v1 at the loop's top (its own reads are not checked).
  mlir::Operation *N = newInst(*F, "v_mov_b32_e32 v7, v1");
  Verdict V = L.insertBefore(N, F->byId(0xc));
  ASSERT_TRUE(V) << V.Reason;
  F->refresh();
  EXPECT_EQ(L.canErase(F->byId(0x10)).K, Verdict::Kind::LiveValue);
  // Replacing the reader keeps the answer (it is the first touch now).
  mlir::Operation *N2 = newInst(*F, "v_mov_b32_e32 v6, v1");
  V = L.replace({N}, {N2});
  ASSERT_TRUE(V) << V.Reason;
  F->refresh();
  EXPECT_EQ(L.canErase(F->byId(0x10)).K, Verdict::Kind::LiveValue);
  // A fresh Legality of the edited function says the same.
  Legality Fresh(F->Fn);
  EXPECT_EQ(Fresh.canErase(F->byId(0x10)).K, Verdict::Kind::LiveValue);
}

TEST(Legality, WaitStatesFromCheckpoints) {
  // The ops in flight before a new op come from checkpoints of the block's
  // memory ops (every 16th) and, past 64 ops without one, a search: each
  // answer agrees with a replay of the block. Loads of v10..v49, a
  // vmcnt(3) after every fifth, 70 ALU ops after every tenth.
  std::string Body;
  int64_t Addr = 0;
  auto add = [&](const std::string &Line, int Size) {
    Body += "    " + Line + "\n";
    Addr += Size;
  };
  std::vector<int64_t> Points;
  for (int K = 0; K < 40; ++K) {
    Points.push_back(Addr);
    add("amdgcn.inst [" + std::to_string(Addr) + "] global_load_dword \"v" +
            std::to_string(10 + K) + ", v[2:3], off\"",
        8);
    if (K % 5 == 4) {
      Points.push_back(Addr);
      add("amdgcn.s_waitcnt [" + std::to_string(Addr) + "] vmcnt(3)", 4);
    }
    if (K % 10 == 9)
      for (int J = 0; J < 70; ++J) {
        if (J % 7 == 0)
          Points.push_back(Addr);
        add("amdgcn.inst [" + std::to_string(Addr) +
                "] v_mov_b32_e32 \"v9, 0\"",
            4);
      }
  }
  Points.push_back(Addr);
  add("amdgcn.s_waitcnt [" + std::to_string(Addr) + "] vmcnt(0)", 4);
  add("amdgcn.s_endpgm [" + std::to_string(Addr) + "]", 4);
  auto F = parseFunction(Body);
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  WaitcntAnalysis W(F->Fn, Cache);
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Operation *>>
      Pending;
  W.replay(&F->Fn->getRegion(0).front(),
           [&](mlir::Operation *Op, const PendingState &S) {
             for (const PendingOp &P : S.Ops)
               Pending[Op].push_back(P.Op);
           });
  Legality L(F->Fn);
  for (int R : {10, 23, 31, 44, 49}) {
    mlir::Operation *Load = nullptr;
    for (mlir::Operation *Op : F->Ops)
      if (Cache.describe(Op).find("global_load_dword v" + std::to_string(R) +
                                  ",") != std::string::npos)
        Load = Op;
    ASSERT_TRUE(Load);
    for (int64_t At : Points) {
      mlir::Operation *Y = F->byId(At);
      mlir::Operation *N =
          newInst(*F, "v_mov_b32_e32 v8, v" + std::to_string(R));
      Verdict V = L.canInsertBefore(N, Y);
      N->destroy();
      EXPECT_EQ(V.K == Verdict::Kind::Wait,
                llvm::is_contained(Pending[Y], Load))
          << "v" << R << " before " << Cache.describe(Y) << ": " << V.Reason;
    }
  }
}

TEST(Legality, WaitCheckpointsAfterAMemoryEdit) {
  // Committing a memory edit (an erased wait) replaces the checkpoints the
  // queries before it made: v10's load is then in flight at the end, where
  // the checkpoint after the 32nd memory op had it completed.
  std::string Body;
  int64_t Addr = 0;
  for (int K = 0; K < 31; ++K) {
    if (K == 16) {
      Body += "    amdgcn.s_waitcnt [" + std::to_string(Addr) + "] vmcnt(0)\n";
      Addr += 4;
    }
    Body += "    amdgcn.inst [" + std::to_string(Addr) +
            "] global_load_dword \"v" + std::to_string(10 + K) +
            ", v[2:3], off\"\n";
    Addr += 8;
  }
  int64_t X = Addr;
  Body += "    amdgcn.inst [" + std::to_string(X) +
          "] v_mov_b32_e32 \"v9, 0\"\n"
          "    amdgcn.s_waitcnt [" +
          std::to_string(X + 4) +
          "] vmcnt(0)\n"
          "    amdgcn.s_endpgm [" +
          std::to_string(X + 8) + "]";
  auto F = parseFunction(Body);
  Legality L(F->Fn);
  mlir::Operation *N = newInst(*F, "v_mov_b32_e32 v8, v10");
  Verdict V = L.canInsertBefore(N, F->byId(X));
  EXPECT_TRUE(V) << V.Reason;
  V = L.erase(F->byId(16 * 8));
  ASSERT_TRUE(V) << V.Reason;
  F->refresh();
  EXPECT_EQ(L.canInsertBefore(N, F->byId(X)).K, Verdict::Kind::Wait);
  N->destroy();
}

TEST(Liveness, ForwardAnswersMatchBackward) {
  // liveUnitsAt walks forward from an op; liveBefore/liveAfter walk back
  // from the block's end. Both, for every op and register of a block with
  // an EXEC change, a partial write and an ignored use; also with the
  // block being edited (its transfer found by walking forward).
  auto F = parseFunction(R"(
    amdgcn.inst [0x0] v_mov_b32_e32 "v2, 1"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_add_u32_e32 "v3, v2, v1"
    amdgcn.inst [0xc] v_mov_b32_e32 "v2, 2"
    amdgcn.inst [0x10] s_mov_b32 "s6, s7"
    amdgcn.inst [0x14] s_and_saveexec_b64 "s[0:1], vcc"
    amdgcn.inst [0x18] v_mov_b32_e32 "v4, v3"
    amdgcn.inst [0x1c] v_mov_b32_sdwa "v5, v6 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD"
    amdgcn.inst [0x24] s_add_u32 "s6, s6, 1"
    amdgcn.inst [0x28] s_cmp_eq_u32 "s6, s8"
    amdgcn.cbranch [0x2c] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.inst [0x30] global_store_dwordx4 "v[8:9], v[2:5], off"
    amdgcn.s_endpgm [0x38])");
  InstInfoCache Cache(*cantFail(amdgcn::getTargetInfoFor(F->Fn)));
  const RegUnitInfo &RU = Cache.units();
  std::vector<uint16_t> Units;
  for (mlir::Operation *Op : F->Ops)
    for (const auto *L : {&Cache.get(Op).Uses, &Cache.get(Op).Defs})
      for (uint16_t U : *L)
        if (!RU.isPseudo(U) && !llvm::is_contained(Units, U))
          Units.push_back(U);
  ASSERT_LE(Units.size(), 64u);
  llvm::DenseSet<mlir::Operation *> Ignore{F->byId(0x18)};
  mlir::Block *Loop = F->byId(0x8)->getBlock();
  Liveness::Editing Edits;
  Edits.Blocks.insert(Loop);
  Edits.FirstExecDef[Loop] = F->byId(0x14);
  for (bool Edited : {false, true}) {
    Liveness Full(F->Fn, Cache, Liveness::Mode::Conservative, &Ignore);
    LivenessSummaries S;
    Liveness Focused(F->Fn, Cache, Liveness::Mode::Conservative, &Ignore, &S,
                     Units, Edited ? &Edits : nullptr);
    for (mlir::Operation *Op : F->Ops) {
      llvm::BitVector Before = Full.liveBefore(Op), After = Full.liveAfter(Op);
      llvm::BitVector FB = Focused.liveUnitsAt(Op, false, Units);
      llvm::BitVector FA = Focused.liveUnitsAt(Op, true, Units);
      for (uint16_t U : Units) {
        EXPECT_EQ(Before.test(U), FB.test(U))
            << Cache.describe(Op) << " before, "
            << RU.describe(llvm::ArrayRef<uint16_t>(U));
        EXPECT_EQ(After.test(U), FA.test(U))
            << Cache.describe(Op) << " after, "
            << RU.describe(llvm::ArrayRef<uint16_t>(U));
      }
    }
  }
}

} // namespace
