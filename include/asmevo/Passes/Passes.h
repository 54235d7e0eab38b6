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

} // namespace asmevo

#endif // ASMEVO_PASSES_PASSES_H
