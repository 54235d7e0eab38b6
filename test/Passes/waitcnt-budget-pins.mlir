// amdgcn-waitcnt-relax plans within each block's original number of waits.
// A read at a join whose load the original retires two blocks up on one
// path: the plan moves that wait down to the read, into the join, which has
// no wait to spare. Keeping the join's own waits and its predecessors' does
// not help; the wait two blocks up does. The planner used to stop after the
// predecessors and leave the whole function unchanged (every hipSPARSELt
// HH SPA Ailk_Bjlk kernel: a read of s32 after the K = 0 exit); it now
// keeps the waits one level further up at a time, and the function's other
// waits are relaxed.
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUM < %t.err
// SUM: amdgcn-waitcnt-relax: 1 function(s) changed

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // CHECK-LABEL: amdgcn.kernel @two_up
  // The waits for s4 on both paths stay where they were.
  // CHECK: ^bb1:
  // CHECK-NEXT: amdgcn.s_waitcnt [0x18] lgkmcnt(0)
  // CHECK: ^bb3:
  // CHECK-NEXT: amdgcn.s_waitcnt [0x28] lgkmcnt(0)
  // CHECK: ^bb4:
  // CHECK-NEXT: s_add_u32 "s6, s4, 1"
  // The wait for v1 moves past the unrelated move, to the read.
  // CHECK: ^bb5:
  // CHECK-NEXT: v_mov_b32_e32 "v9, 0"
  // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt(0)
  // CHECK-NEXT: v_add_u32_e32 "v8, v1, v1"
  amdgcn.kernel @two_up attributes {descriptor = {}} {
    amdgcn.inst [0x0] s_load_dword "s4, s[0:1], 0x0"
    amdgcn.inst [0x8] s_cmp_eq_u32 "s5, 0"
    amdgcn.cbranch [0xc] s_cbranch_scc1 ^bb3, ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0x18] lgkmcnt(0)
    amdgcn.inst [0x1c] v_mov_b32_e32 "v2, 0"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x20] v_mov_b32_e32 "v3, 0"
    amdgcn.s_branch [0x24] ^bb4
  ^bb3:
    amdgcn.s_waitcnt [0x28] lgkmcnt(0)
    amdgcn.fallthrough ^bb4
  ^bb4:
    amdgcn.inst [0x2c] s_add_u32 "s6, s4, 1"
    amdgcn.inst [0x30] global_load_dword "v1, v[20:21], off"
    amdgcn.fallthrough ^bb5
  ^bb5:
    amdgcn.s_waitcnt [0x38] vmcnt(0)
    amdgcn.inst [0x3c] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x40] v_add_u32_e32 "v8, v1, v1"
    amdgcn.inst [0x44] global_store_dword "v[20:21], v8, off"
    amdgcn.s_endpgm [0x4c]
  }
}
