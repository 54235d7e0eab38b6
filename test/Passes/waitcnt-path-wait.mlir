// A read that the original's waits make safe on one path into its block
// only. amdgcn-waitcnt-relax used to tolerate it as a violation the input
// already had and drop the wait, also on the path where it made the read
// safe (rocBLAS Tensile DD Ailk_Bjlk Cijk_Ailk_Bjlk_DB_MT128x32x16_MI16x16x4x1
// DTVA1, K0 0x4c0a9c vmcnt(8) before the MFMA at 0x4c0aa4: NOT EQUIVALENT
// after the pipeline, a race on the emulator); then (eaef1a3) it left every
// such function unchanged. Now the waits before which the load may be in
// flight stay (WaitPlanner pinPathWaits, Legality pathsKept), so every path
// retires it where the original did, and the function's other waits are
// relaxed. amdgcn-schedule plans such a read to wait on every path.
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{verbose=true}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY < %t.err
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{allow-more-waits=1}' -o - | FileCheck %s --check-prefix=MORE
// RUN: asmevo-opt %s --pipeline='amdgcn-schedule' -o - | FileCheck %s --check-prefix=SCHED
// WHY: amdgcn-waitcnt-relax: @path_wait: 1 read(s) waited for on some path only: 2 wait(s) stay
// WHY: amdgcn-waitcnt-relax: @one_path_waits: 1 read(s) waited for on some path only: 2 wait(s) stay
// WHY-NOT: no_path_waits: {{.*}} read(s)

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // ^bb3 is reached from ^bb0 with 2 loads in flight or through ^bb1 with
  // 5; vmcnt(4) retires the v0 load only on the 5-load path. In the
  // original the 2-load path never reaches ^bb3 (s5 == 1 takes both
  // branches), which the analysis cannot see. vmcnt(4) stays; the wait in
  // ^bb0, before the v0 load, moves to the read it is for.
  // CHECK-LABEL: amdgcn.kernel @path_wait
  // CHECK: v_mov_b32_e32 "v7, 1"
  // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_add_u32_e32 "v8, v6, v6"
  // CHECK: ^bb3:
  // CHECK-NEXT: amdgcn.s_waitcnt [0x50] vmcnt(4)
  // CHECK-NEXT: v_add_u32_e32 "v10, v0, v0"
  // SCHED-LABEL: amdgcn.kernel @path_wait
  // SCHED: ^bb3:
  // SCHED-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt({{[0-4]}})
  // SCHED-NEXT: v_add_u32_e32 "v10, v0, v0"
  amdgcn.kernel @path_wait attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v6, v[20:21], off offset:32"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.inst [0xc] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x10] v_mov_b32_e32 "v7, 1"
    amdgcn.inst [0x14] v_add_u32_e32 "v8, v6, v6"
    amdgcn.inst [0x18] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x20] global_load_dword "v1, v[20:21], off offset:4"
    amdgcn.inst [0x28] s_cmp_eq_u32 "s5, 1"
    amdgcn.cbranch [0x2c] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.inst [0x30] global_load_dword "v2, v[20:21], off offset:8"
    amdgcn.inst [0x38] global_load_dword "v3, v[20:21], off offset:12"
    amdgcn.inst [0x40] global_load_dword "v4, v[20:21], off offset:16"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x48] s_cmp_le_u32 "s5, 1"
    amdgcn.cbranch [0x4c] s_cbranch_scc1 ^bb4, ^bb3
  ^bb3:
    amdgcn.s_waitcnt [0x50] vmcnt(4)
    amdgcn.inst [0x54] v_add_u32_e32 "v10, v0, v0"
    amdgcn.inst [0x58] global_store_dword "v[20:21], v10, off"
    amdgcn.fallthrough ^bb4
  ^bb4:
    amdgcn.s_waitcnt [0x60] vmcnt(0)
    amdgcn.s_endpgm [0x64]
  }


  // ^bb2 is reached from ^bb0 with the v0 load in flight or through ^bb1,
  // whose vmcnt(0) retires it (and nothing in ^bb1 reads it). Both waits
  // stay: the one in ^bb1, and the one in ^bb2 before which the load may
  // be in flight. Allowed more waits, the pass keeps them too (it used to
  // drop the one in ^bb1).
  // CHECK-LABEL: amdgcn.kernel @one_path_waits
  // CHECK: ^bb1:
  // CHECK-NEXT: amdgcn.s_waitcnt [0x18] vmcnt(0)
  // CHECK: ^bb2:
  // CHECK-NEXT: v_add_u32_e32 "v10, v0, v0"
  // CHECK: amdgcn.s_waitcnt [0x2c] vmcnt(0)
  // MORE-LABEL: amdgcn.kernel @one_path_waits
  // MORE: ^bb1:
  // MORE-NEXT: amdgcn.s_waitcnt [0x18] vmcnt(0)
  amdgcn.kernel @one_path_waits attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[20:21], off offset:4"
    amdgcn.inst [0x10] s_cmp_eq_u32 "s5, 1"
    amdgcn.cbranch [0x14] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0x18] vmcnt(0)
    amdgcn.inst [0x1c] v_mov_b32_e32 "v11, 0"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x20] v_add_u32_e32 "v10, v0, v0"
    amdgcn.inst [0x24] global_store_dword "v[20:21], v10, off"
    amdgcn.s_waitcnt [0x2c] vmcnt(0)
    amdgcn.s_endpgm [0x30]
  }


  // A read no path's wait covers stays tolerated: no wait is added for it,
  // and the function's other wait is relaxed.
  // CHECK-LABEL: amdgcn.kernel @no_path_waits
  // CHECK: global_load_dword "v7, v[20:21], off offset:36"
  // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_add_u32_e32 "v8, v6, v6"
  // CHECK-NEXT: global_load_dword "v0, v[20:21], off"
  // CHECK-NEXT: v_add_u32_e32 "v10, v0, v0"
  amdgcn.kernel @no_path_waits attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v6, v[20:21], off offset:32"
    amdgcn.inst [0x8] global_load_dword "v7, v[20:21], off offset:36"
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.inst [0x14] v_add_u32_e32 "v8, v6, v6"
    amdgcn.inst [0x18] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x20] v_add_u32_e32 "v10, v0, v0"
    amdgcn.s_waitcnt [0x24] vmcnt(0)
    amdgcn.s_endpgm [0x28]
  }
}
