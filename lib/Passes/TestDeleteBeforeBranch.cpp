//===- TestDeleteBeforeBranch.cpp - Shrink code for layout tests ----------===//

#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_TESTDELETEBEFOREBRANCH
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct TestDeleteBeforeBranchPass
    : public asmevo::impl::TestDeleteBeforeBranchBase<
          TestDeleteBeforeBranchPass> {
  using Base::Base;

  void runOnOperation() override {
    for (Operation &Fn : getOperation().getBodyBlock()) {
      if (Fn.hasAttr("not_relocatable"))
        continue;
      for (Block &Blk : Fn.getRegion(0)) {
        Operation *T = Blk.getTerminator();
        if (!isa<BranchOp, CondBranchOp>(T) || &Blk.front() == T)
          continue;
        Operation *Prev = T->getPrevNode();
        // Instructions that other code refers to by id must stay.
        auto I = dyn_cast<InstOp>(Prev);
        if (!I || I.getPcrelPart() != InstOp::NoPcRel || isReferenced(I))
          continue;
        Prev->erase();
      }
    }
  }

  bool isReferenced(InstOp I) {
    bool Found = false;
    getOperation().walk([&](InstOp Other) {
      Found |= Other.getPcrelAnchor() == I.getId() ||
               Other.getPcrelTarget() == I.getId();
    });
    return Found;
  }
};
} // namespace
