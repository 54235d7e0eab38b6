//===- AnalysisTestUtil.h - Hand-built functions for analysis tests -------===//

#ifndef ASMEVO_UNITTESTS_ANALYSISTESTUTIL_H
#define ASMEVO_UNITTESTS_ANALYSISTESTUTIL_H

#include "asmevo/Analysis/Legality.h"
#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace asmevo::test {

/// A kernel (or device function) parsed from the dialect's text; Ops are
/// the ops of every block in layout order.
struct Function {
  mlir::MLIRContext Ctx;
  mlir::OwningOpRef<mlir::ModuleOp> Module;
  mlir::Operation *Fn = nullptr;
  std::vector<mlir::Operation *> Ops;

  mlir::Operation *byId(int64_t Id) const {
    for (mlir::Operation *Op : Ops)
      if (amdgcn::getInstId(Op) == Id)
        return Op;
    ADD_FAILURE() << "no op with id " << Id;
    return nullptr;
  }
  void refresh() {
    Ops.clear();
    for (mlir::Block &B : Fn->getRegion(0))
      for (mlir::Operation &Op : B)
        Ops.push_back(&Op);
  }
};

/// Body: the blocks of one function, e.g. "amdgcn.inst [0x0] s_nop \"0\"...".
inline std::unique_ptr<Function>
parseFunction(llvm::StringRef Body, llvm::StringRef CPU = "gfx942",
              bool Kernel = true) {
  auto F = std::make_unique<Function>();
  F->Ctx.loadDialect<amdgcn::AMDGCNDialect>();
  std::string Target = "amdgcn-amd-amdhsa--" + CPU.str();
  std::string Text = "amdgcn.code_object \"" + Target + "\" {\n" +
                     (Kernel ? std::string("amdgcn.kernel @k attributes "
                                           "{descriptor = {}} {\n")
                             : std::string("amdgcn.func @f {\n")) +
                     Body.str() + "\n}\n}\n";
  F->Module = mlir::parseSourceString<mlir::ModuleOp>(Text, &F->Ctx);
  if (!F->Module) {
    ADD_FAILURE() << "cannot parse:\n" << Text;
    return F;
  }
  auto CO = llvm::cast<amdgcn::CodeObjectOp>(
      F->Module->getBody()->front());
  F->Fn = &CO.getBodyBlock().front();
  F->refresh();
  return F;
}

} // namespace asmevo::test

#endif
