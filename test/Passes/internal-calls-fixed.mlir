// amdgcn-hazard and amdgcn-dce in a kernel that calls into its own code
// (internal_calls): the ops within 19 wait states of a call and the
// subroutines stay as they are (InternalCallModel), the rest is edited.
// The call reads what its subroutine reads (v1, v4), nothing else: a write
// of another register that nothing after the return reads goes.
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{summary=1},amdgcn-dce{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @k
  amdgcn.kernel @k attributes {descriptor = {}, internal_calls = "test"} {
    // Far from the call: the hazard gets its s_nop, the dead moves go (v7's
    // first, v20: nothing reads it), the subroutine's v4 stays.
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: v_mov_b32_e32 "v3, 0"
    // CHECK-NEXT: amdgcn.s_nop 3
    // CHECK-NEXT: global_load_dword "v0, v2, s[4:5]"
    // CHECK-NEXT: v_mov_b32_e32 "v7, 2"
    // CHECK-NEXT: v_mov_b32_e32 "v4, 3"
    // CHECK-NEXT: amdgcn.s_nop [0x18] 7
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
    amdgcn.inst [0x10] v_mov_b32_e32 "v7, 1"
    amdgcn.inst [0x14] v_mov_b32_e32 "v7, 2"
    amdgcn.inst v_mov_b32_e32 "v20, 5"
    amdgcn.inst v_mov_b32_e32 "v4, 3"
    amdgcn.s_nop [0x18] 7
    amdgcn.s_nop [0x1c] 7
    amdgcn.s_nop [0x20] 7
    amdgcn.s_waitcnt [0x24] vmcnt(0)
    amdgcn.inst [0x28] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x2c] s_add_i32 "s9, 0x100, 4" pcrel(add, 0x200 from 0x28, bias 4)
    amdgcn.inst [0x34] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x38] s_addc_u32 "s11, s11, 0"
    // Within 19 wait states of the call: the same pair and dead move stay.
    // CHECK: v_mov_b32_e32 "v8, 1"
    // CHECK-NEXT: v_mov_b32_e32 "v8, 2"
    // CHECK-NEXT: v_readfirstlane_b32 "s6, v1"
    // CHECK-NEXT: global_load_dword "v10, v2, s[6:7]"
    // CHECK-NEXT: amdgcn.s_waitcnt
    // CHECK-NEXT: s_swappc_b64
    amdgcn.inst [0x3c] v_mov_b32_e32 "v8, 1"
    amdgcn.inst [0x40] v_mov_b32_e32 "v8, 2"
    amdgcn.inst [0x44] v_readfirstlane_b32 "s6, v1"
    amdgcn.inst [0x48] global_load_dword "v10, v2, s[6:7]"
    amdgcn.s_waitcnt [0x50] vmcnt(0)
    amdgcn.inst [0x54] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x58] global_store_dword "v2, v0, s[4:5]"
    amdgcn.inst [0x60] global_store_dword "v3, v7, s[4:5]"
    amdgcn.s_endpgm [0x68]
    // The subroutine keeps its dead write (v9) and its own hazard pair
    // (v_readfirstlane writes s12, v_readlane selects the lane with it).
    // CHECK: ^bb1:
    // CHECK-NEXT: v_mov_b32_e32 "v9, 1"
    // CHECK-NEXT: v_readfirstlane_b32 "s12, v1"
    // CHECK-NEXT: v_readlane_b32 "s13, v4, s12"
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_mov_b32_e32 "v9, 1"
    amdgcn.inst [0x204] v_readfirstlane_b32 "s12, v1"
    amdgcn.inst [0x208] v_readlane_b32 "s13, v4, s12"
    amdgcn.inst [0x20c] v_add_u32_e32 "v4, 7, v4"
    amdgcn.indirect [0x210] s_setpc_b64 "s[30:31]"
  }
}
// SUMMARY: amdgcn-hazard: 1 function(s) changed, left in subroutines and next to internal calls 2, hazards fixed 1, wait states added 4
// SUMMARY: amdgcn-dce: 1 function(s) changed, instructions removed 2
