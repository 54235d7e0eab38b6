// A wait at a counter's maximum, vmcnt(63), is a real wait when more ops
// are in flight than the count: with 64 loads issued it completes the first
// (loads return in order; the emulator retires it there, and LLVM's
// SIInsertWaitcnts applies such a wait the same way). Tensile waits like
// this in its epilogues; amdgcn-waitcnt-relax took the wait for no wait,
// dropped it and left the read of v0 unwaited (rocBLAS Tensile BB HPA
// CU80_XPU: tier 1 NOT EQUIVALENT, a race on the emulator).
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax' -o - | FileCheck %s
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{merge-within=0 allow-more-waits=1}' -o - | FileCheck %s

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // CHECK-LABEL: amdgcn.kernel @saturated_vmcnt
  amdgcn.kernel @saturated_vmcnt attributes {descriptor = {}} {
    // The wait stays (printed `none`: every count at its maximum) or
    // becomes a tighter one; vmcnt(62) is the loosest LLVM would emit.
    // CHECK: global_load_dword "v63,
    // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}{{none|vmcnt\((6[0-2]|[1-5]?[0-9])\)}}
    // CHECK-NEXT: v_add_f32_e32 "v64, v0, v0"
    amdgcn.inst [0x0] global_load_dword "v0, v[100:101], off offset:0"
    amdgcn.inst [0x8] global_load_dword "v1, v[100:101], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[100:101], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[100:101], off offset:12"
    amdgcn.inst [0x20] global_load_dword "v4, v[100:101], off offset:16"
    amdgcn.inst [0x28] global_load_dword "v5, v[100:101], off offset:20"
    amdgcn.inst [0x30] global_load_dword "v6, v[100:101], off offset:24"
    amdgcn.inst [0x38] global_load_dword "v7, v[100:101], off offset:28"
    amdgcn.inst [0x40] global_load_dword "v8, v[100:101], off offset:32"
    amdgcn.inst [0x48] global_load_dword "v9, v[100:101], off offset:36"
    amdgcn.inst [0x50] global_load_dword "v10, v[100:101], off offset:40"
    amdgcn.inst [0x58] global_load_dword "v11, v[100:101], off offset:44"
    amdgcn.inst [0x60] global_load_dword "v12, v[100:101], off offset:48"
    amdgcn.inst [0x68] global_load_dword "v13, v[100:101], off offset:52"
    amdgcn.inst [0x70] global_load_dword "v14, v[100:101], off offset:56"
    amdgcn.inst [0x78] global_load_dword "v15, v[100:101], off offset:60"
    amdgcn.inst [0x80] global_load_dword "v16, v[100:101], off offset:64"
    amdgcn.inst [0x88] global_load_dword "v17, v[100:101], off offset:68"
    amdgcn.inst [0x90] global_load_dword "v18, v[100:101], off offset:72"
    amdgcn.inst [0x98] global_load_dword "v19, v[100:101], off offset:76"
    amdgcn.inst [0xa0] global_load_dword "v20, v[100:101], off offset:80"
    amdgcn.inst [0xa8] global_load_dword "v21, v[100:101], off offset:84"
    amdgcn.inst [0xb0] global_load_dword "v22, v[100:101], off offset:88"
    amdgcn.inst [0xb8] global_load_dword "v23, v[100:101], off offset:92"
    amdgcn.inst [0xc0] global_load_dword "v24, v[100:101], off offset:96"
    amdgcn.inst [0xc8] global_load_dword "v25, v[100:101], off offset:100"
    amdgcn.inst [0xd0] global_load_dword "v26, v[100:101], off offset:104"
    amdgcn.inst [0xd8] global_load_dword "v27, v[100:101], off offset:108"
    amdgcn.inst [0xe0] global_load_dword "v28, v[100:101], off offset:112"
    amdgcn.inst [0xe8] global_load_dword "v29, v[100:101], off offset:116"
    amdgcn.inst [0xf0] global_load_dword "v30, v[100:101], off offset:120"
    amdgcn.inst [0xf8] global_load_dword "v31, v[100:101], off offset:124"
    amdgcn.inst [0x100] global_load_dword "v32, v[100:101], off offset:128"
    amdgcn.inst [0x108] global_load_dword "v33, v[100:101], off offset:132"
    amdgcn.inst [0x110] global_load_dword "v34, v[100:101], off offset:136"
    amdgcn.inst [0x118] global_load_dword "v35, v[100:101], off offset:140"
    amdgcn.inst [0x120] global_load_dword "v36, v[100:101], off offset:144"
    amdgcn.inst [0x128] global_load_dword "v37, v[100:101], off offset:148"
    amdgcn.inst [0x130] global_load_dword "v38, v[100:101], off offset:152"
    amdgcn.inst [0x138] global_load_dword "v39, v[100:101], off offset:156"
    amdgcn.inst [0x140] global_load_dword "v40, v[100:101], off offset:160"
    amdgcn.inst [0x148] global_load_dword "v41, v[100:101], off offset:164"
    amdgcn.inst [0x150] global_load_dword "v42, v[100:101], off offset:168"
    amdgcn.inst [0x158] global_load_dword "v43, v[100:101], off offset:172"
    amdgcn.inst [0x160] global_load_dword "v44, v[100:101], off offset:176"
    amdgcn.inst [0x168] global_load_dword "v45, v[100:101], off offset:180"
    amdgcn.inst [0x170] global_load_dword "v46, v[100:101], off offset:184"
    amdgcn.inst [0x178] global_load_dword "v47, v[100:101], off offset:188"
    amdgcn.inst [0x180] global_load_dword "v48, v[100:101], off offset:192"
    amdgcn.inst [0x188] global_load_dword "v49, v[100:101], off offset:196"
    amdgcn.inst [0x190] global_load_dword "v50, v[100:101], off offset:200"
    amdgcn.inst [0x198] global_load_dword "v51, v[100:101], off offset:204"
    amdgcn.inst [0x1a0] global_load_dword "v52, v[100:101], off offset:208"
    amdgcn.inst [0x1a8] global_load_dword "v53, v[100:101], off offset:212"
    amdgcn.inst [0x1b0] global_load_dword "v54, v[100:101], off offset:216"
    amdgcn.inst [0x1b8] global_load_dword "v55, v[100:101], off offset:220"
    amdgcn.inst [0x1c0] global_load_dword "v56, v[100:101], off offset:224"
    amdgcn.inst [0x1c8] global_load_dword "v57, v[100:101], off offset:228"
    amdgcn.inst [0x1d0] global_load_dword "v58, v[100:101], off offset:232"
    amdgcn.inst [0x1d8] global_load_dword "v59, v[100:101], off offset:236"
    amdgcn.inst [0x1e0] global_load_dword "v60, v[100:101], off offset:240"
    amdgcn.inst [0x1e8] global_load_dword "v61, v[100:101], off offset:244"
    amdgcn.inst [0x1f0] global_load_dword "v62, v[100:101], off offset:248"
    amdgcn.inst [0x1f8] global_load_dword "v63, v[100:101], off offset:252"
    amdgcn.s_waitcnt [0x200] vmcnt(63) expcnt(7) lgkmcnt(15)
    amdgcn.inst [0x204] v_add_f32_e32 "v64, v0, v0"
    amdgcn.inst [0x208] global_store_dword "v[100:101], v64, off"
    amdgcn.s_endpgm [0x210]
  }
}
