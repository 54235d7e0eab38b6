// Parse, verify and print every amdgcn op; printing again must be stable.
// RUN: asmevo-opt %s -o - | FileCheck %s
// RUN: asmevo-opt %s -o %t.mlir && asmevo-opt %t.mlir -o - | FileCheck %s

// CHECK-LABEL: amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" {
  // CHECK: amdgcn.kernel @k attributes {addr = 256 : i64, descriptor = {kernarg_size = 16 : i64}}
  amdgcn.kernel @k attributes {addr = 256 : i64, descriptor = {kernarg_size = 16 : i64}} {
    // CHECK: amdgcn.inst [0x100] s_load_dwordx2 "s[4:5], s[0:1], 0x0"
    amdgcn.inst [0x100] s_load_dwordx2 "s[4:5], s[0:1], 0x0"
    // CHECK-NEXT: amdgcn.s_waitcnt lgkmcnt(0)
    amdgcn.s_waitcnt lgkmcnt(0)
    // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(1)
    amdgcn.s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(1)
    // Counters at their maximum do not wait.
    // CHECK-NEXT: amdgcn.s_waitcnt none
    amdgcn.s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)
    // CHECK-NEXT: amdgcn.s_waitcnt none
    amdgcn.s_waitcnt none
    // CHECK-NEXT: amdgcn.inst v_add_u32_e32 "v0, s2, v0"
    amdgcn.inst v_add_u32_e32 "v0,   s2, v0"
    // CHECK-NEXT: amdgcn.inst v_mfma_f32_32x32x8_f16 "a[0:15], v[2:3], v[4:5], a[0:15]"
    amdgcn.inst v_mfma_f32_32x32x8_f16 "a[0:15], v[2:3], v[4:5], a[0:15]"
    // CHECK-NEXT: amdgcn.inst v_mov_b32_dpp "v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"
    amdgcn.inst v_mov_b32_dpp "v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"
    // CHECK-NEXT: amdgcn.s_nop 4
    amdgcn.s_nop 4
    // CHECK-NEXT: amdgcn.s_barrier
    amdgcn.s_barrier
    // CHECK-NEXT: amdgcn.cbranch s_cbranch_scc1 ^bb2, ^bb1
    amdgcn.cbranch s_cbranch_scc1 ^bb2, ^bb1
  // CHECK: ^bb1:
  ^bb1:
    // CHECK-NEXT: amdgcn.inst s_add_u32 "s16, s16, 0x1234" pcrel(lo, 0x2000 from 0x100)
    amdgcn.inst s_add_u32 "s16, s16, 0x1234" pcrel(lo, 0x2000 from 0x100)
    // CHECK-NEXT: amdgcn.raw 0xdeadbeef
    amdgcn.raw 0xdeadbeef
    // CHECK-NEXT: amdgcn.s_branch ^bb3
    amdgcn.s_branch ^bb3
  ^bb2:
    // CHECK: amdgcn.fallthrough ^bb3
    amdgcn.fallthrough ^bb3
  ^bb3:
    // CHECK: amdgcn.s_endpgm
    amdgcn.s_endpgm
  }
  // CHECK: amdgcn.func @helper
  amdgcn.func @helper attributes {addr = 512 : i64} {
    // CHECK: amdgcn.indirect s_setpc_b64 "s[30:31]"
    amdgcn.indirect s_setpc_b64 "s[30:31]"
  }
}
