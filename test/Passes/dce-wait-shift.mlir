// amdgcn-dce when erasing every dead op at once is refused: the dead ops
// whose erasure would shift a later s_waitcnt are set aside (the first 32
// tried alone, the others kept untried), the rest erased by bisection.
// RUN: asmevo-opt %s --pipeline='amdgcn-dce{summary=1 verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @shift_one
  amdgcn.kernel @shift_one attributes {descriptor = {}} {
    // vmcnt(1) waits for the load of v0 only because the dead load of v1
    // was issued after it: that load stays; the dead v_mov goes.
    // CHECK: global_load_dword "v0, v[40:41], off"
    // CHECK-NEXT: global_load_dword "v1, v[40:41], off offset:4"
    // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt(1)
    // CHECK-NEXT: global_store_dword "v[40:41], v0, off"
    // LOG: amdgcn-dce: round refused
    // LOG: amdgcn-dce: kept {{.*}}global_load_dword v1{{.*}}may still be in flight
    // LOG: amdgcn-dce: erased {{.*}}v_mov_b32_e32 v5
    amdgcn.inst [0x0] global_load_dword "v0, v[40:41], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[40:41], off offset:4"
    amdgcn.inst [0x10] v_mov_b32_e32 "v5, 7"
    amdgcn.s_waitcnt [0x14] vmcnt(1)
    amdgcn.inst [0x18] global_store_dword "v[40:41], v0, off"
    amdgcn.s_endpgm [0x20]
  }

  // CHECK-LABEL: amdgcn.kernel @shift_many
  amdgcn.kernel @shift_many attributes {descriptor = {}} {
    // 33 dead loads that vmcnt(33) counts: 32 are tried alone (refused),
    // the oldest is kept without a try; the dead s_mov goes.
    // CHECK-COUNT-34: global_load_dword
    // CHECK-NOT: s_mov_b32
    // CHECK: amdgcn.s_waitcnt {{.*}}vmcnt(33)
    // LOG: amdgcn-dce: round refused
    // LOG: amdgcn-dce: kept {{.*}}global_load_dword v1,{{.*}}would shift a later s_waitcnt (not tried alone
    // LOG-COUNT-32: amdgcn-dce: kept {{.*}}global_load_dword{{.*}}may still be in flight
    // LOG-NOT: amdgcn-dce: kept
    // LOG: amdgcn-dce: erased {{.*}}s_mov_b32 s9
    amdgcn.inst [0x0] global_load_dword "v0, v[40:41], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[40:41], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[40:41], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[40:41], off offset:12"
    amdgcn.inst [0x20] global_load_dword "v4, v[40:41], off offset:16"
    amdgcn.inst [0x28] global_load_dword "v5, v[40:41], off offset:20"
    amdgcn.inst [0x30] global_load_dword "v6, v[40:41], off offset:24"
    amdgcn.inst [0x38] global_load_dword "v7, v[40:41], off offset:28"
    amdgcn.inst [0x40] global_load_dword "v8, v[40:41], off offset:32"
    amdgcn.inst [0x48] global_load_dword "v9, v[40:41], off offset:36"
    amdgcn.inst [0x50] global_load_dword "v10, v[40:41], off offset:40"
    amdgcn.inst [0x58] global_load_dword "v11, v[40:41], off offset:44"
    amdgcn.inst [0x60] global_load_dword "v12, v[40:41], off offset:48"
    amdgcn.inst [0x68] global_load_dword "v13, v[40:41], off offset:52"
    amdgcn.inst [0x70] global_load_dword "v14, v[40:41], off offset:56"
    amdgcn.inst [0x78] global_load_dword "v15, v[40:41], off offset:60"
    amdgcn.inst [0x80] global_load_dword "v16, v[40:41], off offset:64"
    amdgcn.inst [0x88] global_load_dword "v17, v[40:41], off offset:68"
    amdgcn.inst [0x90] global_load_dword "v18, v[40:41], off offset:72"
    amdgcn.inst [0x98] global_load_dword "v19, v[40:41], off offset:76"
    amdgcn.inst [0xa0] global_load_dword "v20, v[40:41], off offset:80"
    amdgcn.inst [0xa8] global_load_dword "v21, v[40:41], off offset:84"
    amdgcn.inst [0xb0] global_load_dword "v22, v[40:41], off offset:88"
    amdgcn.inst [0xb8] global_load_dword "v23, v[40:41], off offset:92"
    amdgcn.inst [0xc0] global_load_dword "v24, v[40:41], off offset:96"
    amdgcn.inst [0xc8] global_load_dword "v25, v[40:41], off offset:100"
    amdgcn.inst [0xd0] global_load_dword "v26, v[40:41], off offset:104"
    amdgcn.inst [0xd8] global_load_dword "v27, v[40:41], off offset:108"
    amdgcn.inst [0xe0] global_load_dword "v28, v[40:41], off offset:112"
    amdgcn.inst [0xe8] global_load_dword "v29, v[40:41], off offset:116"
    amdgcn.inst [0xf0] global_load_dword "v30, v[40:41], off offset:120"
    amdgcn.inst [0xf8] global_load_dword "v31, v[40:41], off offset:124"
    amdgcn.inst [0x100] global_load_dword "v32, v[40:41], off offset:128"
    amdgcn.inst [0x108] global_load_dword "v33, v[40:41], off offset:132"
    amdgcn.inst [0x110] s_mov_b32 "s9, 1"
    amdgcn.s_waitcnt [0x114] vmcnt(33)
    amdgcn.inst [0x118] global_store_dword "v[40:41], v0, off"
    amdgcn.s_endpgm [0x120]
  }
}

// LOG: amdgcn-dce: 2 function(s) changed, instructions removed 2, 34 refused
