// amdgcn-hazard{verbose=1} prints the pairs it fixes, each as it finds it
// after the s_nops put before earlier ops: a pair an earlier s_nop already
// satisfies is not printed (the input has two, one s_nop fixes both).
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @two_dpp_readers
  amdgcn.kernel @two_dpp_readers attributes {descriptor = {}} {
    // v2 written, then read by two DPP ops: 2 wait states before the first
    // (none there); the second has the first DPP op and that s_nop.
    // CHECK: v_mov_b32_e32 "v2, 0"
    // CHECK-NEXT: amdgcn.s_nop 1
    // CHECK-NEXT: v_mov_b32_dpp "v1, v2
    // CHECK-NEXT: v_mov_b32_dpp "v3, v2
    // CHECK-NOT: amdgcn.s_nop
    amdgcn.inst [0x0] v_mov_b32_e32 "v2, 0"
    amdgcn.inst [0x4] v_mov_b32_dpp "v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"
    amdgcn.inst [0xc] v_mov_b32_dpp "v3, v2 row_shr:1 row_mask:0xf bank_mask:0xf"
    amdgcn.s_endpgm [0x14]
  }
}

// VERBOSE: amdgcn-hazard: hazard dpp-vgpr
// VERBOSE-SAME: v_mov_b32_dpp v1
// VERBOSE-NOT: amdgcn-hazard: hazard
