//===- Recover.h - Code object -> amdgcn dialect -----------------*- C++ -*-===//

#ifndef ASMEVO_CODEOBJECT_RECOVER_H
#define ASMEVO_CODEOBJECT_RECOVER_H

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"

namespace asmevo {

struct RecoverStats {
  uint64_t Instructions = 0;
  uint64_t RawWords = 0;
  uint64_t PaddingWords = 0;
  uint64_t Functions = 0;
  uint64_t Kernels = 0;
  uint64_t Blocks = 0;
  uint64_t PcRelPairs = 0;
};

/// Recovers a whole code object. Kernels whose code cannot be fully modelled
/// are still recovered (as raw words where needed) and carry a
/// `not_relocatable` reason: emission then copies them in place.
llvm::Expected<mlir::OwningOpRef<amdgcn::CodeObjectOp>>
recoverCodeObject(mlir::MLIRContext &Ctx, const CodeObject &CO,
                  RecoverStats *Stats = nullptr);

/// msgpack <-> MLIR attribute conversion for metadata: maps become
/// dictionaries, arrays arrays, strings strings, integers i64, booleans
/// bools, floats f64.
mlir::Attribute msgpackToAttr(mlir::MLIRContext &Ctx,
                              const llvm::msgpack::DocNode &Node);
llvm::Error attrToMsgpack(mlir::Attribute Attr, llvm::msgpack::Document &Doc,
                          llvm::msgpack::DocNode &Out);

/// The descriptor dictionary of a kernel op <-> the descriptor struct.
mlir::DictionaryAttr descriptorToAttr(mlir::MLIRContext &Ctx,
                                      const KernelDescriptor &KD);
llvm::Expected<KernelDescriptor> attrToDescriptor(mlir::DictionaryAttr Attr);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_RECOVER_H
