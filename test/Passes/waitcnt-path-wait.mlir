// amdgcn-waitcnt-relax must not drop a wait that only one path into a
// block needs. ^bb3 is reached from ^bb0 with 2 loads in flight or through
// ^bb1 with 5; vmcnt(4) retires the v0 load only on the 5-load path. In the
// original the 2-load path never reaches ^bb3 (s5 == 1 takes both
// branches), which the analysis cannot see: joined over both paths, the
// read of v0 looks unwaited in the input. The pass used to tolerate it and
// drop the wait, also on the path where it made the read safe (rocBLAS
// Tensile DD Ailk_Bjlk Cijk_Ailk_Bjlk_DB_MT128x32x16_MI16x16x4x1, K0
// 0x4c0a9c vmcnt(8) before the MFMA at 0x4c0aa4: NOT EQUIVALENT after the
// pipeline, a race on the emulator). A function with such a read now keeps
// its waits (amdgcn-schedule too).
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{verbose=true}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY < %t.err
// RUN: asmevo-opt %s --pipeline='amdgcn-schedule{verbose=true}' -o - 2>&1 >/dev/null | FileCheck %s --check-prefix=SCHED
// WHY: amdgcn-waitcnt-relax: @path_wait left unchanged: [0x3c] v_add_u32_e32 v10, v0, v0 touches the result of [0x0] global_load_dword v0, v[20:21], off that no wait retires on every path
// SCHED: amdgcn-schedule: @path_wait left unchanged: [0x3c] v_add_u32_e32 v10, v0, v0 touches

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // CHECK-LABEL: amdgcn.kernel @path_wait
  amdgcn.kernel @path_wait attributes {descriptor = {}} {
    // CHECK: ^bb3:
    // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt({{[0-4]}})
    // CHECK-NEXT: v_add_u32_e32 "v10, v0, v0"
    amdgcn.inst [0x0] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[20:21], off offset:4"
    amdgcn.inst [0x10] s_cmp_eq_u32 "s5, 1"
    amdgcn.cbranch [0x14] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.inst [0x18] global_load_dword "v2, v[20:21], off offset:8"
    amdgcn.inst [0x20] global_load_dword "v3, v[20:21], off offset:12"
    amdgcn.inst [0x28] global_load_dword "v4, v[20:21], off offset:16"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.inst [0x30] s_cmp_le_u32 "s5, 1"
    amdgcn.cbranch [0x34] s_cbranch_scc1 ^bb4, ^bb3
  ^bb3:
    amdgcn.s_waitcnt [0x38] vmcnt(4)
    amdgcn.inst [0x3c] v_add_u32_e32 "v10, v0, v0"
    amdgcn.inst [0x40] global_store_dword "v[20:21], v10, off"
    amdgcn.fallthrough ^bb4
  ^bb4:
    amdgcn.s_waitcnt [0x48] vmcnt(0)
    amdgcn.s_endpgm [0x4c]
  }
}
