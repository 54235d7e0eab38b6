//===- CodeObjectFuzzer.cpp - libFuzzer target for the code object readers ===//
//
// Any bytes: parse as a code object, recover into the dialect, emit. Errors
// are fine; crashes, hangs, leaks and memory errors are bugs.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static mlir::MLIRContext *Ctx = [] {
    auto *C = new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
    C->getOrLoadDialect<asmevo::amdgcn::AMDGCNDialect>();
    return C;
  }();
  auto CO = asmevo::CodeObject::parse(
      llvm::MemoryBuffer::getMemBuffer(
          llvm::StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz",
          /*RequiresNullTerminator=*/false),
      "fuzz");
  if (!CO) {
    llvm::consumeError(CO.takeError());
    return 0;
  }
  auto Op = asmevo::recoverCodeObject(*Ctx, **CO);
  if (!Op) {
    llvm::consumeError(Op.takeError());
    return 0;
  }
  auto Out = asmevo::emitCodeObject(**Op);
  if (!Out)
    llvm::consumeError(Out.takeError());
  return 0;
}
