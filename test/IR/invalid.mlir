// Every malformed input is rejected with a message that says why.
// RUN: split-file %s %t
// RUN: not asmevo-opt %t/bad-asm.mlir 2>&1 | FileCheck %s --check-prefix=BADASM
// RUN: not asmevo-opt %t/enc-mismatch.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not asmevo-opt %t/endpgm-inst.mlir 2>&1 | FileCheck %s --check-prefix=DEDICATED
// RUN: not asmevo-opt %t/fallthrough.mlir 2>&1 | FileCheck %s --check-prefix=FALL
// RUN: not asmevo-opt %t/no-terminator.mlir 2>&1 | FileCheck %s --check-prefix=TERM
// RUN: not asmevo-opt %t/bad-target.mlir 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not asmevo-opt %t/waitcnt-range.mlir 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: not asmevo-opt %t/outside.mlir 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not asmevo-opt %t/cbranch-mnemonic.mlir 2>&1 | FileCheck %s --check-prefix=CBR

//--- bad-asm.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // BADASM: cannot assemble 'v_add_u32_e32 v0, s2, s3' for gfx942
    amdgcn.inst v_add_u32_e32 "v0, s2, s3"
    amdgcn.s_endpgm
  }
}

//--- enc-mismatch.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // MISMATCH: does not match the encoding, which decodes as 'v_add_u32_e32 v0, s2, v0'
    amdgcn.inst v_add_u32_e32 "v1, s2, v0" enc [0x68000002]
    amdgcn.s_endpgm
  }
}

//--- endpgm-inst.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // DEDICATED: 's_endpgm' must be written as amdgcn.s_endpgm / amdgcn.indirect
    amdgcn.inst s_endpgm ""
    amdgcn.s_endpgm
  }
}

//--- fallthrough.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // FALL: fallthrough successor must be the next block in layout order
    amdgcn.fallthrough ^bb2
  ^bb1:
    amdgcn.s_endpgm
  ^bb2:
    amdgcn.s_endpgm
  }
}

//--- no-terminator.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // TERM: block does not end with a terminator
  amdgcn.kernel @k attributes {descriptor = {}} {
    amdgcn.s_nop 0
  }
}

//--- bad-target.mlir
// TARGET: unsupported AMDGPU processor 'gfx9999'
amdgcn.code_object "amdgcn-amd-amdhsa--gfx9999" {
}

//--- waitcnt-range.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // WAIT: lgkmcnt must be in [0, 15]
    amdgcn.s_waitcnt lgkmcnt(16)
    amdgcn.s_endpgm
  }
}

//--- outside.mlir
// OUTSIDE: amdgcn instruction text outside an amdgcn.code_object
amdgcn.inst v_add_u32_e32 "v0, s2, v0"

//--- cbranch-mnemonic.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    // CBR: mnemonic must be an s_cbranch_* instruction, got 's_branch'
    amdgcn.cbranch s_branch ^bb1, ^bb1
  ^bb1:
    amdgcn.s_endpgm
  }
}
