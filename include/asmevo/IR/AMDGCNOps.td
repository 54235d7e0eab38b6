//===- AMDGCNOps.td - amdgcn dialect operations ------------*- tablegen -*-===//

#ifndef ASMEVO_IR_AMDGCNOPS_TD
#define ASMEVO_IR_AMDGCNOPS_TD

include "asmevo/IR/AMDGCNDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/Properties.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// An instruction's encoding words, with room for two in the op itself (no
// GFX9 encoding is longer; a longer one would allocate). ArrayProp's default
// SmallVector is 64 bytes, this one 24: an InstOp takes 128 bytes instead of
// 168, in objects with tens of millions of them.
def EncodingProp : ArrayProp<I32Prop> {
  let storageType = "::llvm::SmallVector<int32_t, 2>";
}

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

def AMDGCN_CodeObjectOp : AMDGCN_Op<"code_object", [
    SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "An AMDGPU code object: target, kernels, functions, ELF image";
  let description = [{
    Holds every kernel and device function of one code object, in address
    order. `target` is the target id ("amdgcn-amd-amdhsa--gfx942:sramecc+:
    xnack-"). `image` is the original ELF file as a resource blob: emission
    patches it, so sections, symbols and notes that no kernel owns are kept
    byte for byte. `text_addr`/`text_size` locate the original `.text`.
  }];
  let arguments = (ins
    StrAttr:$target,
    OptionalAttr<ElementsAttr>:$image,
    OptionalAttr<StrAttr>:$source_name,
    DefaultValuedAttr<I64Attr, "0">:$text_addr,
    DefaultValuedAttr<I64Attr, "0">:$text_size
  );
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The TargetInfo for this object's processor and features.
    ::llvm::Expected<::asmevo::TargetInfo *> getTargetInfo();
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$target)>];
}

class AMDGCN_FunctionLikeOp<string mnemonic>
    : AMDGCN_Op<mnemonic, [Symbol, IsolatedFromAbove,
                           HasParent<"CodeObjectOp">]> {
  let regions = (region AnyRegion:$body);
  let hasVerifier = 1;
  code commonDecls = [{
    /// Original address of the first instruction; -1 for new code.
    int64_t getOriginalAddress() { return getAddr(); }
    /// False when recovery found code it could not model (raw words,
    /// unrecognized PC-relative code); such code is only copied, never moved.
    bool isRelocatable() { return !getNotRelocatable().has_value(); }
  }];
}

def AMDGCN_KernelOp : AMDGCN_FunctionLikeOp<"kernel"> {
  let summary = "A kernel: descriptor, metadata and code";
  let description = [{
    `descriptor` holds the kernel descriptor's fields by name (fields equal
    to zero are omitted; `kernel_code_entry_byte_offset` is recomputed at
    emission). `metadata` is the kernel's entry of `amdhsa.kernels` with
    msgpack maps as dictionaries. `padding` lists (word, count) runs that
    follow the code up to the next function.
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    DefaultValuedAttr<I64Attr, "-1">:$addr,
    DefaultValuedAttr<I64Attr, "256">:$align,
    DefaultValuedAttr<I64Attr, "-1">:$descriptor_addr,
    DictionaryAttr:$descriptor,
    OptionalAttr<DictionaryAttr>:$metadata,
    OptionalAttr<DenseI64ArrayAttr>:$padding,
    OptionalAttr<StrAttr>:$not_relocatable,
    OptionalAttr<StrAttr>:$internal_calls
  );
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let extraClassDeclaration = commonDecls;
}

def AMDGCN_FuncOp : AMDGCN_FunctionLikeOp<"func"> {
  let summary = "A device function or an unnamed range of .text";
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    DefaultValuedAttr<I64Attr, "-1">:$addr,
    DefaultValuedAttr<I64Attr, "256">:$align,
    OptionalAttr<DenseI64ArrayAttr>:$padding,
    OptionalAttr<StrAttr>:$not_relocatable,
    OptionalAttr<StrAttr>:$internal_calls
  );
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let extraClassDeclaration = commonDecls;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

def AMDGCN_InstOp : AMDGCN_Op<"inst"> {
  let summary = "A machine instruction, identified by its encoding";
  let description = [{
    Printed as AMDGPU assembly: `amdgcn.inst [0x1920] v_add_u32_e32
    "v0, s2, v0"`. The bracketed number is the instruction's stable id (its
    original address; absent for new instructions). The encoding is printed
    (`enc [...]`) only when assembling the text would not give the original
    bytes back. `pcrel` marks a literal that holds a PC-relative offset
    (`s_getpc_b64` + `s_add_u32`/`s_addc_u32`): emission recomputes it so
    that it still reaches `pcrel_target` (an original address) from the
    `s_getpc_b64` with id `pcrel_anchor`. `pcrel(add|sub, T from A, bias B)`
    marks the `s_add_i32 sT, LIT, B` of Tensile's long branch or address
    computation, whose sT is then added to (subtracted from) the PC;
    `pcrel(signed, ...)` that of Tensile's two-way long branch, which tests
    the sign of sT and adds it or subtracts its absolute value.
  }];
  let arguments = (ins
    DefaultValuedProp<I64Prop, "-1">:$id,
    EncodingProp:$enc,
    DefaultValuedProp<I64Prop, "0">:$pcrel_part,
    DefaultValuedProp<I64Prop, "-1">:$pcrel_target,
    DefaultValuedProp<I64Prop, "-1">:$pcrel_anchor,
    DefaultValuedProp<I64Prop, "0">:$pcrel_bias
  );
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Lo/Hi: the literal is the low/high half of target - (anchor + 4).
    /// Add/Sub (Tensile's long branch, `s_add_i32 sT, LIT, bias` then
    /// s_add_u32/s_sub_u32 of sT into the PC): LIT + bias is the distance,
    /// forward (Add) or backward (Sub). Signed: LIT + bias is the signed
    /// 32-bit offset (the sequence picks the direction at run time).
    enum PcRelPart { NoPcRel = 0, PcRelLo = 1, PcRelHi = 2, PcRelAdd = 3,
                     PcRelSub = 4, PcRelSigned = 5 };
    ::llvm::ArrayRef<uint8_t> getBytes() {
      return {reinterpret_cast<const uint8_t *>(getEnc().data()),
              getEnc().size() * 4};
    }
  }];
}

def AMDGCN_RawOp : AMDGCN_Op<"raw"> {
  let summary = "Words that do not decode as an instruction of the target";
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id,
                       I64Prop:$word);
  let hasCustomAssemblyFormat = 1;
}

def AMDGCN_WaitcntOp : AMDGCN_Op<"s_waitcnt"> {
  let summary = "s_waitcnt: wait until memory counters drop to the given values";
  let description = [{
    Printed with the counters that wait (`vmcnt(0) lgkmcnt(0)`); a counter
    at its maximum does not wait and is omitted. `imm` is the raw SIMM16.
  }];
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id, I64Prop:$imm);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    // gfx9 SIMM16 layout: vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8].
    static constexpr unsigned MaxVmcnt = 63, MaxExpcnt = 7, MaxLgkmcnt = 15;
    unsigned getVmcnt() { return (getImm() & 0xf) | ((getImm() >> 14) & 3) << 4; }
    unsigned getExpcnt() { return (getImm() >> 4) & 7; }
    unsigned getLgkmcnt() { return (getImm() >> 8) & 0xf; }
    static int64_t encodeCounts(unsigned Vm, unsigned Exp, unsigned Lgkm) {
      return (Vm & 0xf) | (Exp & 7) << 4 | (Lgkm & 0xf) << 8 |
             ((Vm >> 4) & 3) << 14;
    }
  }];
}

def AMDGCN_NopOp : AMDGCN_Op<"s_nop"> {
  let summary = "s_nop: SIMM16[3:0] + 1 wait states";
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id, I64Prop:$imm);
  let hasCustomAssemblyFormat = 1;
}

def AMDGCN_BarrierOp : AMDGCN_Op<"s_barrier"> {
  let summary = "s_barrier: wait for all waves of the workgroup";
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id);
  let hasCustomAssemblyFormat = 1;
}

def AMDGCN_EndpgmOp : AMDGCN_Op<"s_endpgm", [Terminator]> {
  let summary = "s_endpgm: end of the wave";
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id);
  let hasCustomAssemblyFormat = 1;
}

def AMDGCN_BranchOp : AMDGCN_Op<"s_branch", [Terminator]> {
  let summary = "s_branch: unconditional PC-relative branch";
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id);
  let successors = (successor AnySuccessor:$dest);
  let hasCustomAssemblyFormat = 1;
}

def AMDGCN_CondBranchOp : AMDGCN_Op<"cbranch", [Terminator]> {
  let summary = "s_cbranch_*: conditional PC-relative branch";
  let description = [{
    `amdgcn.cbranch s_cbranch_execz ^taken, ^fallthrough`. The fallthrough
    block must be the next block in layout order.
  }];
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id,
                       StringProp:$mnemonic);
  let successors = (successor AnySuccessor:$taken, AnySuccessor:$fallthrough);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def AMDGCN_FallthroughOp : AMDGCN_Op<"fallthrough", [Terminator]> {
  let summary = "Control continues in the next block (no instruction)";
  let description = [{
    Without a successor, control runs off the end of the function into
    whatever follows it; recovery only produces that for functions marked
    `not_relocatable`.
  }];
  let successors = (successor VariadicSuccessor<AnySuccessor>:$dest);
  let assemblyFormat = "$dest attr-dict";
  let hasVerifier = 1;
}

def AMDGCN_IndirectOp : AMDGCN_Op<"indirect", [Terminator]> {
  let summary = "An instruction that leaves the block to a computed address";
  let description = [{
    Terminates a block with an instruction that has no static successor:
    `s_setpc_b64` (returns, jump tables) and `s_endpgm` variants. Printed
    like `amdgcn.inst`. When recovery knows where it goes (the compiler's
    long branch: s_getpc_b64 + s_add_u32/s_addc_u32 + s_setpc_b64), the
    target is a successor: `amdgcn.indirect s_setpc_b64 "s[0:1]" -> [^bb4]`.
  }];
  let arguments = (ins DefaultValuedProp<I64Prop, "-1">:$id,
                       EncodingProp:$enc);
  let successors = (successor VariadicSuccessor<AnySuccessor>:$dests);
  let hasCustomAssemblyFormat = 1;
}

#endif // ASMEVO_IR_AMDGCNOPS_TD
