//===- Emit.h - amdgcn dialect -> code object --------------------*- C++ -*-===//

#ifndef ASMEVO_CODEOBJECT_EMIT_H
#define ASMEVO_CODEOBJECT_EMIT_H

#include "asmevo/IR/AMDGCN.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace asmevo {

struct EmitStats {
  uint64_t CopiedInstructions = 0;  // original bytes reused
  uint64_t EncodedInstructions = 0; // branches, waits and pcrel recomputed
  uint64_t MovedFunctions = 0;      // functions whose address changed
  int64_t TextGrowth = 0;           // bytes; > 0 means .text grew
};

/// Emits the code object: patches the original image (the code object op's
/// `image`) with the code of every function, laid out again, and with every
/// kernel's descriptor and metadata. Errors name the function and address.
llvm::Expected<std::vector<uint8_t>> emitCodeObject(amdgcn::CodeObjectOp Op,
                                                    EmitStats *Stats = nullptr);

/// The size in bytes an op occupies in .text.
unsigned encodedSize(mlir::Operation *Op);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_EMIT_H
