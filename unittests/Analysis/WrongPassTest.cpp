//===- WrongPassTest.cpp - A broken scheduler is caught by legality -------===//
//
// The scheduler of amdgcn-schedule run with WAR dependences ignored (the
// deliberately broken variant) proposes orders that let a write overtake
// an earlier read of the same register. On every block of every in-tree
// kernel where its order actually reverses a WAR dependence, the legality
// checks must refuse it, naming the WAR dependence; the correct scheduler's
// orders must all be accepted.
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "Schedule.h"

#include "asmevo/Analysis/Legality.h"
#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

/// Does Order reverse a WAR edge of G?
bool reversesWAR(const DependenceGraph &G, ArrayRef<Operation *> Order) {
  llvm::DenseMap<Operation *, unsigned> Pos;
  for (unsigned I = 0; I < Order.size(); ++I)
    Pos[Order[I]] = I;
  const auto &Gr = G.graph();
  for (auto [It, End] = boost::edges(Gr); It != End; ++It)
    if (Gr[*It].Kind == DepKind::WAR &&
        Pos[G.op(boost::source(*It, Gr))] > Pos[G.op(boost::target(*It, Gr))])
      return true;
  return false;
}

TEST(WrongPass, BrokenSchedulerIsCaught) {
  MLIRContext Ctx;
  Ctx.loadDialect<AMDGCNDialect>();
  unsigned Broken = 0, Caught = 0, Good = 0, GoodAccepted = 0;
  for (const std::string &Path : test::allTestKernels()) {
    auto CO = CodeObject::load(Path);
    ASSERT_TRUE(bool(CO)) << llvm::toString(CO.takeError());
    auto Op = recoverCodeObject(Ctx, **CO);
    ASSERT_TRUE(bool(Op)) << llvm::toString(Op.takeError());
    for (Operation &Fn : (*Op)->getBodyBlock()) {
      if (Fn.hasAttr("not_relocatable"))
        continue;
      Legality L(&Fn);
      InstInfoCache &C = L.cache();
      for (Block &B : Fn.getRegion(0)) {
        SmallVector<Operation *> Ops;
        for (Operation &X : B)
          if (!C.get(&X).IsTerminator)
            Ops.push_back(&X);
        if (Ops.size() < 3)
          continue;
        DependenceGraph::Options O;
        O.Hazards = false;
        DependenceGraph G(Ops, C, &L.waits().in(&B), O);
        for (bool IgnoreWAR : {true, false}) {
          auto Order = sched::listSchedule(Ops, G, C, IgnoreWAR);
          bool Reverses = reversesWAR(G, Order);
          if (IgnoreWAR && !Reverses)
            continue;
          EXPECT_FALSE(!IgnoreWAR && Reverses);
          Legality::Transaction T(L);
          for (Operation *X : Order)
            T.moveBefore(X, &B.back());
          T.insertNopsForHazards();
          Verdict V = T.verify();
          T.rollback();
          if (IgnoreWAR) {
            ++Broken;
            if (!V && V.K == Verdict::Kind::Dependence &&
                V.Reason.find("WAR on") != std::string::npos)
              ++Caught;
            else
              ADD_FAILURE() << Path << ": broken schedule not refused as WAR: "
                            << (V ? std::string("accepted") : V.Reason);
          } else {
            ++Good;
            // The correct order keeps every dependence; only the waits it
            // no longer has in the right places can make it fail (the pass
            // plans them again), never a dependence.
            if (V || V.K != Verdict::Kind::Dependence)
              ++GoodAccepted;
            else
              ADD_FAILURE() << Path << ": correct schedule refused: "
                            << V.Reason;
          }
        }
      }
    }
  }
  EXPECT_GT(Broken, 10u) << "the broken scheduler should reverse WAR "
                            "dependences on real kernels";
  EXPECT_EQ(Caught, Broken);
  EXPECT_EQ(GoodAccepted, Good);
}

} // namespace
