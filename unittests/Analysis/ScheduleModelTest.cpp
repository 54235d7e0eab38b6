//===- ScheduleModelTest.cpp - amdgcn-schedule's whole-block model --------===//
//
// sched::simulate with ChargeNops (amdgcn-schedule's accept/reject model)
// charges an s_nop's wait states in full where the plain model hides them
// under a latency, and like the plain model under a busy matrix unit (there
// they are the MFMA pipeline's latency).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"
#include "Schedule.h"

using namespace mlir;
using namespace asmevo;

namespace {
/// {plain model, ChargeNops} slots of a function's single block.
std::pair<unsigned, unsigned> slots(llvm::StringRef Body) {
  auto F = test::parseFunction(Body);
  if (!F->Fn)
    return {0, 0};
  Legality L(F->Fn);
  InstInfoCache &C = L.cache();
  SmallVector<Operation *> Seq;
  for (Operation *Op : F->Ops)
    if (!C.get(Op).IsTerminator)
      Seq.push_back(Op);
  return {sched::simulate(Seq, C),
          sched::simulate(Seq, C, nullptr, nullptr, /*ChargeNops=*/true)};
}
} // namespace

TEST(ScheduleModel, NopHiddenUnderALoadIsCharged) {
  // The s_nop 1 between v_cmp and v_cndmask lies in the load's latency:
  // the plain model hides it, ChargeNops adds its 2 wait states.
  auto [Plain, Charged] = slots(R"(
    amdgcn.inst [0x0] global_load_dword "v0, v[6:7], off"
    amdgcn.inst [0x8] v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    amdgcn.s_nop [0x10] 1
    amdgcn.inst [0x14] v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.s_waitcnt [0x1c] vmcnt(0)
    amdgcn.inst [0x20] v_add_u32_e32 "v5, v0, v4"
    amdgcn.s_endpgm [0x24]
  )");
  EXPECT_GT(Plain, 10u);
  EXPECT_EQ(Charged, Plain + 2);
}

TEST(ScheduleModel, NopNotHiddenCostsTheSame) {
  auto [Plain, Charged] = slots(R"(
    amdgcn.inst [0x0] v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    amdgcn.s_nop [0x8] 1
    amdgcn.inst [0xc] v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.s_endpgm [0x14]
  )");
  EXPECT_EQ(Plain, 4u);
  EXPECT_EQ(Charged, Plain);
}

TEST(ScheduleModel, NopUnderABusyMatrixUnitStaysHidden) {
  // The second MFMA waits for the first one's 16 passes anyway: the s_nop
  // 7 before it is that latency, not an added cost.
  auto [Plain, Charged] = slots(R"(
    amdgcn.inst [0x0] v_mfma_f32_32x32x2_f32 "v[0:15], v24, v16, v[0:15]"
    amdgcn.s_nop [0x8] 7
    amdgcn.inst [0xc] v_mfma_f32_32x32x2_f32 "v[0:15], v25, v17, v[0:15]"
    amdgcn.s_endpgm [0x14]
  )");
  EXPECT_GT(Plain, 16u);
  EXPECT_EQ(Charged, Plain);
}
