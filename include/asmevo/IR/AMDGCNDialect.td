//===- AMDGCNDialect.td - The amdgcn dialect ---------------*- tablegen -*-===//

#ifndef ASMEVO_IR_AMDGCNDIALECT_TD
#define ASMEVO_IR_AMDGCNDIALECT_TD

include "mlir/IR/OpBase.td"

def AMDGCN_Dialect : Dialect {
  let name = "amdgcn";
  let summary = "AMD GCN/CDNA machine code as recovered from a code object";
  let description = [{
    The `amdgcn` dialect models AMDGPU machine code, not SSA: registers are
    physical, an instruction is identified by its encoding, and control flow
    is MLIR blocks so that branches stay right when instructions move.
    Facts about instructions (operands, implicit registers, sizes) come from
    LLVM's AMDGPU MC tables through asmevo::TargetInfo.
  }];
  let cppNamespace = "::asmevo::amdgcn";
  let extraClassDeclaration = [{
    /// Target context for parsing nested instructions: the innermost
    /// code_object being parsed pushes its TargetInfo here.
    std::vector<::asmevo::TargetInfo *> parseTargetStack;
  }];
}

class AMDGCN_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMDGCN_Dialect, mnemonic, traits>;

#endif // ASMEVO_IR_AMDGCNDIALECT_TD
