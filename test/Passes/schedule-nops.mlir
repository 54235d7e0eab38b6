// amdgcn-schedule and the s_nops its orders need: an op that would need
// wait states yields to an independent op that fills them, also one that
// must wait for a latency (a load's result) where the s_nop would have hidden
// under that wait; an s_nop stays only where nothing can fill it. s_nops are
// charged in full (hidden under no latency but a busy matrix unit's) when
// the pass compares orders, so an order is not rated faster for the s_nops
// it needs.
// RUN: asmevo-opt %s --pipeline='amdgcn-schedule{verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @fill_with_waiting_op
  // VERBOSE: @fill_with_waiting_op: block of 9 ops: 91 -> 83 modelled cycles
  amdgcn.kernel @fill_with_waiting_op attributes {descriptor = {}} {
    // The global load goes first. v_cndmask reads the s[0:1] v_cmp writes,
    // 2 wait states later at least (valu-sgpr-valu). Right after v_cmp it
    // would need an s_nop 0 (s_load gives one wait state), hidden in the
    // one-wave model while v_add_f32 waits for s2; the scheduler used to
    // take that order. Now v_add_f32 goes first: its s_waitcnt and itself
    // are the two wait states.
    // CHECK: global_load_dword "v0, v[12:13], off"
    // CHECK-NEXT: v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    // CHECK-NEXT: s_load_dword "s2, s[4:5], 0x0"
    // CHECK-NEXT: amdgcn.s_waitcnt lgkmcnt(0)
    // CHECK-NEXT: v_add_f32_e32 "v2, s2, v1"
    // CHECK-NEXT: v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    // CHECK-NOT: s_nop
    // CHECK: s_endpgm
    amdgcn.inst [0x0] s_load_dword "s2, s[4:5], 0x0"
    amdgcn.inst [0x8] v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    amdgcn.s_waitcnt [0x10] lgkmcnt(0)
    amdgcn.inst [0x14] v_add_f32_e32 "v2, s2, v1"
    amdgcn.inst [0x18] v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.inst [0x20] v_add_u32_e32 "v4, v4, v8"
    amdgcn.inst [0x24] global_load_dword "v0, v[12:13], off"
    amdgcn.s_waitcnt [0x2c] vmcnt(0)
    amdgcn.inst [0x30] v_add_u32_e32 "v5, v0, v4"
    amdgcn.inst [0x34] global_store_dword "v[12:13], v5, off"
    amdgcn.inst [0x3c] global_store_dword "v[16:17], v2, off"
    amdgcn.s_endpgm [0x44]
  }

  // CHECK-LABEL: amdgcn.kernel @reduction_step
  // VERBOSE-NOT: @reduction_step
  amdgcn.kernel @reduction_step attributes {descriptor = {}} {
    // rocBLAS dot's wave reduction (object 881 gained 1,372 s_nops from
    // this): moving each v_cndmask above the lgkmcnt wait saves a slot per
    // step in the one-wave model, but needs an s_nop 1 after its v_cmp,
    // which that model hid under the wait. Charged in full, the order is
    // slower: LLVM's stays, the wait and v_add_f32 fill the distance.
    // CHECK: v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    // CHECK-NEXT: amdgcn.s_waitcnt [0x10] lgkmcnt(0)
    // CHECK-NEXT: v_add_f32_e32 "v2, v2, v5"
    // CHECK-NEXT: v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    // CHECK-NOT: s_nop
    // CHECK: s_endpgm
    amdgcn.inst [0x0] ds_bpermute_b32 "v5, v4, v2"
    amdgcn.inst [0x8] v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    amdgcn.s_waitcnt [0x10] lgkmcnt(0)
    amdgcn.inst [0x14] v_add_f32_e32 "v2, v2, v5"
    amdgcn.inst [0x18] v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.inst [0x20] v_add_lshl_u32 "v4, v4, v8, 2"
    amdgcn.inst [0x28] ds_bpermute_b32 "v7, v4, v2"
    amdgcn.inst [0x30] v_cmp_gt_u32_e64 "s[0:1], 60, v9"
    amdgcn.s_waitcnt [0x38] lgkmcnt(0)
    amdgcn.inst [0x3c] v_add_f32_e32 "v2, v2, v7"
    amdgcn.inst [0x40] v_cndmask_b32_e64 "v5, 0, 4, s[0:1]"
    amdgcn.inst [0x48] v_add_lshl_u32 "v5, v5, v8, 2"
    amdgcn.inst [0x50] ds_bpermute_b32 "v10, v5, v2"
    amdgcn.s_waitcnt [0x58] lgkmcnt(0)
    amdgcn.inst [0x5c] v_add_f32_e32 "v2, v2, v10"
    amdgcn.inst [0x60] global_store_dword "v[12:13], v2, off"
    amdgcn.s_endpgm [0x68]
  }

  // CHECK-LABEL: amdgcn.kernel @no_filler
  // VERBOSE: @no_filler: block of 6 ops: 87 -> 84 modelled cycles
  amdgcn.kernel @no_filler attributes {descriptor = {}} {
    // The load goes first; every other op depends on v_cmp or
    // v_cndmask, so nothing can fill the two wait states: the s_nop 1
    // stays, and the order still pays for it.
    // CHECK: global_load_dword "v0, v[12:13], off"
    // CHECK-NEXT: v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    // CHECK-NEXT: amdgcn.s_nop 1
    // CHECK-NEXT: v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.inst [0x0] v_cmp_gt_u32_e64 "s[0:1], 56, v9"
    amdgcn.s_nop [0x8] 1
    amdgcn.inst [0xc] v_cndmask_b32_e64 "v4, 0, 8, s[0:1]"
    amdgcn.inst [0x14] v_add_u32_e32 "v4, v4, v8"
    amdgcn.inst [0x18] global_load_dword "v0, v[12:13], off"
    amdgcn.s_waitcnt [0x20] vmcnt(0)
    amdgcn.inst [0x24] v_add_u32_e32 "v5, v0, v4"
    amdgcn.inst [0x28] global_store_dword "v[12:13], v5, off"
    amdgcn.s_endpgm [0x30]
  }
}
