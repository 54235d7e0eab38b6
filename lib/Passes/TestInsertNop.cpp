//===- TestInsertNop.cpp - Insert s_nop 0 at block tops (test) ------------===//

#include "asmevo/Passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace asmevo {
#define GEN_PASS_DEF_TESTINSERTNOP
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct TestInsertNopPass
    : public asmevo::impl::TestInsertNopBase<TestInsertNopPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder B(&getContext());
    for (Operation &Fn : getOperation().getBodyBlock()) {
      if (Fn.hasAttr("not_relocatable"))
        continue;
      for (Block &Blk : Fn.getRegion(0)) {
        bool IsTarget = false;
        for (Block *Pred : Blk.getPredecessors()) {
          Operation *T = Pred->getTerminator();
          if (isa<BranchOp>(T) ||
              (isa<CondBranchOp>(T) &&
               cast<CondBranchOp>(T).getTaken() == &Blk))
            IsTarget = true;
        }
        if (!IsTarget && !allBlocks)
          continue;
        B.setInsertionPointToStart(&Blk);
        for (unsigned I = 0; I < count; ++I)
          NopOp::create(B, UnknownLoc::get(&getContext()), /*id=*/-1, 0);
      }
    }
  }
};
} // namespace
