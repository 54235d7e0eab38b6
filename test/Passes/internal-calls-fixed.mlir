// amdgcn-hazard and amdgcn-dce in a kernel that calls into its own code
// (internal_calls): the calls and the subroutine stay as they are
// (InternalCallModel), the code around the calls is edited like any other.
// The call reads what its subroutine reads (v1, v4, s16), nothing else: a
// write of another register that nothing after the return reads goes,
// also right before the call. Hazards are followed across the call and
// the return: the subroutine's s14 needs 5 wait states before the load
// after the return (s_nop 3 and the s_setpc_b64 give them). Pairs whose
// consumer is in the subroutine get their s_nops there, right before the
// consumer, where they run on every call (the subroutine's ops otherwise
// stay as they are): the lane select s16 written right before the call
// needs 4 wait states, the call gives 1 (s_nop 2 at the subroutine's
// entry, where the call lands); the subroutine's own s12 -> v_readlane
// (s_nop 3) and v4 -> v_readfirstlane (s_nop 0).
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{summary=1},amdgcn-dce{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @k
  amdgcn.kernel @k attributes {descriptor = {}, internal_calls = "test"} {
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: v_mov_b32_e32 "v3, 0"
    // CHECK-NEXT: amdgcn.s_nop 3
    // CHECK-NEXT: global_load_dword "v0, v2, s[4:5]"
    // CHECK-NEXT: v_mov_b32_e32 "v7, 2"
    // CHECK-NEXT: v_mov_b32_e32 "v4, 3"
    // CHECK-NEXT: amdgcn.s_waitcnt [0x24] vmcnt(0)
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
    amdgcn.inst [0x10] v_mov_b32_e32 "v7, 1"
    amdgcn.inst [0x14] v_mov_b32_e32 "v7, 2"
    amdgcn.inst [0x18] v_mov_b32_e32 "v20, 5"
    amdgcn.inst [0x1c] v_mov_b32_e32 "v4, 3"
    amdgcn.s_waitcnt [0x24] vmcnt(0)
    // CHECK-NEXT: s_getpc_b64
    // CHECK-NEXT: s_add_i32
    // CHECK-NEXT: s_add_u32
    // CHECK-NEXT: s_addc_u32
    // CHECK-NEXT: v_readfirstlane_b32 "s16, v1"
    // CHECK-NEXT: s_swappc_b64
    // CHECK-NEXT: amdgcn.s_nop 3
    // CHECK-NEXT: global_load_dword "v10, v2, s[14:15]"
    amdgcn.inst [0x28] s_getpc_b64 "s[10:11]"
    amdgcn.inst [0x2c] s_add_i32 "s9, 0x100, 4" pcrel(add, 0x200 from 0x28, bias 4)
    amdgcn.inst [0x34] s_add_u32 "s10, s10, s9"
    amdgcn.inst [0x38] s_addc_u32 "s11, s11, 0"
    amdgcn.inst [0x3c] v_mov_b32_e32 "v8, 1"
    amdgcn.inst [0x40] v_readfirstlane_b32 "s16, v1"
    amdgcn.inst [0x44] s_swappc_b64 "s[30:31], s[10:11]"
    amdgcn.inst [0x48] global_load_dword "v10, v2, s[14:15]"
    amdgcn.s_waitcnt [0x50] vmcnt(0)
    amdgcn.inst [0x54] global_store_dword "v2, v0, s[4:5]"
    amdgcn.inst [0x5c] global_store_dword "v3, v7, s[4:5]"
    amdgcn.inst [0x64] global_store_dword "v3, v10, s[4:5]"
    amdgcn.s_endpgm [0x6c]
    // The subroutine keeps its dead write (v9) and gets the s_nops of its
    // hazard pairs.
    // CHECK: ^bb1:
    // CHECK-NEXT: amdgcn.s_nop 2
    // CHECK-NEXT: v_readlane_b32 "s15, v4, s16"
    // CHECK-NEXT: v_mov_b32_e32 "v9, 1"
    // CHECK-NEXT: v_readfirstlane_b32 "s12, v1"
    // CHECK-NEXT: amdgcn.s_nop 3
    // CHECK-NEXT: v_readlane_b32 "s13, v4, s12"
    // CHECK-NEXT: v_add_u32_e32 "v4, 7, v4"
    // CHECK-NEXT: amdgcn.s_nop 0
    // CHECK-NEXT: v_readfirstlane_b32 "s14, v4"
    // CHECK-NEXT: amdgcn.indirect {{.*}} s_setpc_b64
  ^bb1:  // no predecessors
    amdgcn.inst [0x200] v_readlane_b32 "s15, v4, s16"
    amdgcn.inst [0x204] v_mov_b32_e32 "v9, 1"
    amdgcn.inst [0x208] v_readfirstlane_b32 "s12, v1"
    amdgcn.inst [0x20c] v_readlane_b32 "s13, v4, s12"
    amdgcn.inst [0x210] v_add_u32_e32 "v4, 7, v4"
    amdgcn.inst [0x214] v_readfirstlane_b32 "s14, v4"
    amdgcn.indirect [0x218] s_setpc_b64 "s[30:31]"
  }
}
// SUMMARY: amdgcn-hazard: 1 function(s) changed, hazards fixed 2, wait states added 8, hazards fixed in subroutines and at calls 3, wait states added there 8
// SUMMARY: amdgcn-dce: 1 function(s) changed, instructions removed 3
