//===- AMDGCN.h - The amdgcn dialect and its operations ---------*- C++ -*-===//

#ifndef ASMEVO_IR_AMDGCN_H
#define ASMEVO_IR_AMDGCN_H

#include "asmevo/MC/TargetInfo.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "asmevo/IR/AMDGCNDialect.h.inc"

#define GET_OP_CLASSES
#include "asmevo/IR/AMDGCNOps.h.inc"

namespace asmevo::amdgcn {

/// The TargetInfo of the code object that contains Op, or an error when Op
/// is not inside an amdgcn.code_object with a valid target.
llvm::Expected<TargetInfo *> getTargetInfoFor(mlir::Operation *Op);

/// The instruction bytes an op stands for in the original encoding
/// (generic instructions, raw words). Empty for ops whose encoding emission
/// computes (branches, waits) and for zero-size ops.
llvm::ArrayRef<uint8_t> getOriginalBytes(mlir::Operation *Op);

/// The stable id of an instruction op; -1 when it has none.
int64_t getInstId(mlir::Operation *Op);
void setInstId(mlir::Operation *Op, int64_t Id);

} // namespace asmevo::amdgcn

#endif // ASMEVO_IR_AMDGCN_H
