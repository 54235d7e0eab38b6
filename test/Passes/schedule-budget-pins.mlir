// amdgcn-schedule plans the waits of the blocks it reorders within each
// block's original number of waits. Reordering ^bb1 (its load hoisted)
// moves its wait for s4 down to the read in ^bb4, a join without a wait to
// spare; neither ^bb4 nor its predecessors are reordered, so keeping them
// in order does not help. The scheduler used to leave the whole function
// unchanged then (as on every hipSPARSELt I8I8_HI8 SPA Ailk_Bljk kernel);
// it now keeps the reordered blocks one level further up in order (^bb1)
// and reschedules the others (^bb5: its load hoisted).
// RUN: asmevo-opt %s --pipeline='amdgcn-schedule{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUM < %t.err
// SUM: amdgcn-schedule: 1 function(s) changed, blocks rescheduled 1

// CHECK-LABEL: amdgcn.kernel @two_up
// CHECK: ^bb1:
// CHECK-NEXT: amdgcn.s_waitcnt [0x18] lgkmcnt(0)
// CHECK-NEXT: v_mov_b32_e32 "v2, 0"
// CHECK-NEXT: v_mov_b32_e32 "v12, 0"
// CHECK-NEXT: global_load_dword "v11, v[20:21], off offset:64"
// CHECK: ^bb4:
// CHECK-NEXT: s_add_u32 "s6, s4, 1"
// CHECK: ^bb5:
// CHECK-NEXT: global_load_dword "v1, v[20:21], off"
// CHECK-NEXT: v_mov_b32_e32 "v9, 0"
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  amdgcn.kernel @two_up attributes {descriptor = {}} {
    amdgcn.inst [0x0] s_load_dword "s4, s[0:1], 0x0"
    amdgcn.inst [0x8] s_cmp_eq_u32 "s5, 0"
    amdgcn.cbranch [0xc] s_cbranch_scc1 ^bb3, ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0x18] lgkmcnt(0)
    amdgcn.inst [0x1c] v_mov_b32_e32 "v2, 0"
    amdgcn.inst [0x20] v_mov_b32_e32 "v12, 0"
    amdgcn.inst [0x24] global_load_dword "v11, v[20:21], off offset:64"
    amdgcn.s_waitcnt [0x2c] vmcnt(0)
    amdgcn.inst [0x30] v_add_u32_e32 "v13, v11, v11"
    amdgcn.inst [0x34] v_add_u32_e32 "v15, v13, v12"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x3c] v_mov_b32_e32 "v3, 0"
    amdgcn.s_branch [0x40] ^bb4
  ^bb3:
    amdgcn.s_waitcnt [0x44] lgkmcnt(0)
    amdgcn.fallthrough ^bb4
  ^bb4:
    amdgcn.inst [0x48] s_add_u32 "s6, s4, 1"
    amdgcn.fallthrough ^bb5
  ^bb5:
    amdgcn.inst [0x4c] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x50] v_mov_b32_e32 "v10, 1"
    amdgcn.inst [0x54] v_mov_b32_e32 "v14, 2"
    amdgcn.inst [0x58] global_load_dword "v1, v[20:21], off"
    amdgcn.s_waitcnt [0x60] vmcnt(0)
    amdgcn.inst [0x64] v_add_u32_e32 "v8, v1, v1"
    amdgcn.inst [0x68] global_store_dword "v[20:21], v8, off"
    amdgcn.s_endpgm [0x70]
  }
}
