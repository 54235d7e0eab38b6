//===- Passes.h - asmevo rewrite passes --------------------------*- C++ -*-===//

#ifndef ASMEVO_PASSES_PASSES_H
#define ASMEVO_PASSES_PASSES_H

#include "asmevo/IR/AMDGCN.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace asmevo {

#define GEN_PASS_DECL
#include "asmevo/Passes/Passes.h.inc"

/// registerAsmevoPasses() registers every asmevo pass for --pipeline.
#define GEN_PASS_REGISTRATION
#include "asmevo/Passes/Passes.h.inc"

/// A kernel or function with this unit attribute is not edited by any pass
/// (rewrite::isEditable refuses it): asmevo-opt --only-kernels sets it on
/// the functions it leaves out and removes it after the pipeline.
inline constexpr llvm::StringLiteral FrozenAttrName = "amdgcn.frozen";

} // namespace asmevo

#endif // ASMEVO_PASSES_PASSES_H
