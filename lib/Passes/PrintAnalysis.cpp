//===- PrintAnalysis.cpp - Print the analyses of each function ------------===//

#include "RewriteUtils.h"

#include "asmevo/Analysis/DependenceGraph.h"
#include "asmevo/Analysis/Liveness.h"
#include "asmevo/Passes/Passes.h"

namespace asmevo {
#define GEN_PASS_DEF_PRINTANALYSIS
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {
struct PrintAnalysisPass
    : public asmevo::impl::PrintAnalysisBase<PrintAnalysisPass> {
  using Base::Base;

  bool want(llvm::StringRef W) const { return what == "all" || what == W; }

  void runOnOperation() override {
    llvm::raw_ostream &OS = llvm::errs();
    for (Operation &Fn : getOperation().getBodyBlock()) {
      std::string Name = rewrite::functionName(&Fn);
      if (!function.empty() && Name != "@" + function)
        continue;
      if (Fn.getRegion(0).empty())
        continue;
      auto TIOrErr = getTargetInfoFor(&Fn);
      if (!TIOrErr) {
        llvm::consumeError(TIOrErr.takeError());
        continue;
      }
      InstInfoCache C(**TIOrErr);
      WaitcntAnalysis W(&Fn, C);
      llvm::DenseMap<Block *, unsigned> Index;
      for (Block &B : Fn.getRegion(0))
        Index[&B] = Index.size();
      auto blockName = [&](Block *B) {
        return "^bb" + std::to_string(Index[B]);
      };
      OS << Name << ":\n";
      for (Block &B : Fn.getRegion(0)) {
        if (want("deps") || want("dot")) {
          DependenceGraph G(&B, C, &W);
          if (want("dot")) {
            OS << G.toDot();
          } else {
            OS << "  " << blockName(&B) << " dependences (" << G.size()
               << " ops):\n";
            auto &Gr = G.graph();
            SmallVector<std::string> Lines;
            for (auto [It, End] = boost::edges(Gr); It != End; ++It)
              Lines.push_back(G.describe(*It));
            for (const std::string &L : Lines)
              OS << "    " << L << "\n";
          }
        }
        if (want("waits")) {
          const PendingState &S = W.in(&B);
          OS << "  " << blockName(&B) << " in flight at entry:";
          if (S.Ops.empty())
            OS << " nothing";
          OS << "\n";
          for (const PendingOp &P : S.Ops) {
            OS << "    " << (P.Op ? C.describe(P.Op) : "unknown op") << " (";
            bool First = true;
            for (Counter K : {Counter::VM, Counter::LGKM, Counter::EXP}) {
              unsigned Bit = counterBit(K);
              if (!(P.Counters & Bit))
                continue;
              OS << (First ? "" : ", ") << counterName(K);
              if (P.InOrder & Bit)
                OS << " in order, " << unsigned(P.Younger[unsigned(K)])
                   << " younger";
              else
                OS << " out of order";
              First = false;
            }
            OS << ")\n";
          }
        }
        if (want("hazards")) {
          HazardChecker HC(C);
          for (Operation &Op : B) {
            SmallVector<HazardPair, 2> Pairs;
            HC.pairsFor(&Op, Pairs, /*All=*/true);
            for (const HazardPair &P : Pairs)
              OS << "    " << (P.violated() ? "VIOLATED " : "") << P.Rule->Id
                 << ": " << C.describe(P.Producer) << " -> "
                 << C.describe(P.Consumer) << ": needs " << P.Required
                 << ", has " << P.Have << "\n";
          }
        }
      }
      if (want("liveness") || want("pressure")) {
        Liveness L(&Fn, C, Liveness::Mode::Conservative);
        Liveness D(&Fn, C, Liveness::Mode::Dense);
        if (want("liveness"))
          for (Block &B : Fn.getRegion(0)) {
            auto regsOnly = [&](const llvm::BitVector &BV) {
              llvm::BitVector R(BV.size());
              for (unsigned U : BV.set_bits())
                if (!C.units().isPseudo(U))
                  R.set(U);
              return C.units().describe(R);
            };
            OS << "  " << blockName(&B) << " live in: "
               << regsOnly(L.liveIn(&B)) << "\n";
            OS << "  " << blockName(&B) << " live out: "
               << regsOnly(L.liveOut(&B)) << "\n";
          }
        if (want("pressure")) {
          RegPressure P = D.maxPressure();
          OS << "  max pressure: SGPR " << P.SGPR << ", VGPR " << P.VGPR
             << ", AGPR " << P.AGPR << "\n";
        }
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
