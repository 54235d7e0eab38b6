// amdgcn-waitcnt-relax: loosest counts, placed right before the first op
// that needs them; fences keep what the original completed.
// One wait per use, as many as that takes:
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{summary=1 merge-within=0 allow-more-waits=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// By default waits planned for ops close together merge into the first, and
// no block holds more waits than it had:
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax' -o - | FileCheck %s --check-prefix=MERGE
// Merging alone (one wait per use allowed, no whole-block model):
// RUN: asmevo-opt %s --pipeline='amdgcn-waitcnt-relax{allow-more-waits=1}' -o - | FileCheck %s --check-prefix=NOMODEL

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942" {
  // CHECK-LABEL: amdgcn.kernel @loosen
  amdgcn.kernel @loosen attributes {descriptor = {}} {
    // vmcnt(0) is stronger than needed: the first load is complete once one
    // younger load was issued; the second load's wait moves to its use.
    // CHECK: global_load_dword "v0, v[4:5], off"
    // CHECK-NEXT: global_load_dword "v1, v[4:5], off"
    // CHECK-NEXT: v_mov_b32_e32 "v9, 0"
    // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(1)
    // CHECK-NEXT: v_add_u32_e32 "v2, v0, v0"
    // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(0)
    // CHECK-NEXT: v_add_u32_e32 "v3, v1, v1"
    // MERGE-LABEL: amdgcn.kernel @loosen
    // MERGE: v_mov_b32_e32 "v9, 0"
    // MERGE-NEXT: amdgcn.s_waitcnt vmcnt(0)
    // MERGE-NEXT: v_add_u32_e32 "v2, v0, v0"
    // MERGE-NEXT: v_add_u32_e32 "v3, v1, v1"
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off"
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.inst [0x14] v_mov_b32_e32 "v9, 0"
    amdgcn.inst [0x18] v_add_u32_e32 "v2, v0, v0"
    amdgcn.inst [0x1c] v_add_u32_e32 "v3, v1, v1"
    amdgcn.inst [0x20] global_store_dword "v[4:5], v3, off"
    amdgcn.s_endpgm [0x28]
  }

  // CHECK-LABEL: amdgcn.kernel @smem_is_out_of_order
  amdgcn.kernel @smem_is_out_of_order attributes {descriptor = {}} {
    // The LDS read is complete at lgkmcnt(1) (one younger LDS read); the
    // scalar load only at lgkmcnt(0), whatever is younger.
    // CHECK: ds_read_b32 "v2, v1"
    // CHECK-NEXT: amdgcn.s_waitcnt lgkmcnt(1)
    // CHECK-NEXT: v_add_u32_e32 "v3, v0, v0"
    // CHECK-NEXT: amdgcn.s_waitcnt lgkmcnt(0)
    // CHECK-NEXT: s_add_u32 "s1, s0, 1"
    amdgcn.inst [0x0] s_load_dword "s0, s[2:3], 0x0"
    amdgcn.inst [0x8] ds_read_b32 "v0, v1"
    amdgcn.inst [0x10] ds_read_b32 "v2, v1"
    amdgcn.s_waitcnt [0x18] lgkmcnt(0)
    amdgcn.inst [0x1c] v_add_u32_e32 "v3, v0, v0"
    amdgcn.inst [0x20] s_add_u32 "s1, s0, 1"
    amdgcn.inst [0x24] v_add_u32_e32 "v4, v2, v3"
    amdgcn.s_endpgm [0x28]
  }

  // CHECK-LABEL: amdgcn.kernel @lgkm_counter_saturates
  amdgcn.kernel @lgkm_counter_saturates attributes {descriptor = {}} {
    // The first LDS read has fifteen younger ones: lgkmcnt(15) would
    // complete it, but LLVM's SIInsertWaitcnts never emits a count at the
    // field's maximum (its "no wait"), so the planner's loosest wait is
    // lgkmcnt(14), never none.
    // CHECK: ds_read_b32 "v15, v20"
    // CHECK-NEXT: amdgcn.s_waitcnt lgkmcnt(14)
    // CHECK-NEXT: v_add_u32_e32 "v16, v0, v0"
    amdgcn.inst [0x0] ds_read_b32 "v0, v20"
    amdgcn.inst [0x8] ds_read_b32 "v1, v20"
    amdgcn.inst [0x10] ds_read_b32 "v2, v20"
    amdgcn.inst [0x18] ds_read_b32 "v3, v20"
    amdgcn.inst [0x20] ds_read_b32 "v4, v20"
    amdgcn.inst [0x28] ds_read_b32 "v5, v20"
    amdgcn.inst [0x30] ds_read_b32 "v6, v20"
    amdgcn.inst [0x38] ds_read_b32 "v7, v20"
    amdgcn.inst [0x40] ds_read_b32 "v8, v20"
    amdgcn.inst [0x48] ds_read_b32 "v9, v20"
    amdgcn.inst [0x50] ds_read_b32 "v10, v20"
    amdgcn.inst [0x58] ds_read_b32 "v11, v20"
    amdgcn.inst [0x60] ds_read_b32 "v12, v20"
    amdgcn.inst [0x68] ds_read_b32 "v13, v20"
    amdgcn.inst [0x70] ds_read_b32 "v14, v20"
    amdgcn.inst [0x78] ds_read_b32 "v15, v20"
    amdgcn.s_waitcnt [0x80] lgkmcnt(0)
    amdgcn.inst [0x84] v_add_u32_e32 "v16, v0, v0"
    amdgcn.inst [0x88] v_add_u32_e32 "v17, v15, v16"
    amdgcn.s_endpgm [0x8c]
  }

  // CHECK-LABEL: amdgcn.kernel @fence_is_kept
  amdgcn.kernel @fence_is_kept attributes {descriptor = {}} {
    // No register needs the store or the load complete, but the barrier
    // publishes memory to the workgroup: the original completed them there,
    // so must the result (the wait keeps its place and id).
    // CHECK: amdgcn.s_waitcnt [0x10] vmcnt(0) lgkmcnt(0)
    // CHECK-NEXT: amdgcn.s_barrier
    amdgcn.inst [0x0] ds_write_b32 "v1, v0"
    amdgcn.inst [0x8] global_load_dword "v2, v[4:5], off"
    amdgcn.s_waitcnt [0x10] vmcnt(0) lgkmcnt(0)
    amdgcn.s_barrier [0x14]
    amdgcn.s_endpgm [0x18]
  }

  // CHECK-LABEL: amdgcn.kernel @raw_immediate_is_kept
  amdgcn.kernel @raw_immediate_is_kept attributes {descriptor = {}} {
    // The raw wait (bits outside the counters) stays; it already waits for
    // vmcnt(0), so the next wait is redundant.
    // CHECK: amdgcn.s_waitcnt [0x8] raw(0x3070)
    // CHECK-NEXT: v_add_u32_e32 "v3, v2, v2"
    amdgcn.inst [0x0] global_load_dword "v2, v[4:5], off"
    amdgcn.s_waitcnt [0x8] raw(0x3070)
    amdgcn.s_waitcnt [0xc] vmcnt(0)
    amdgcn.inst [0x10] v_add_u32_e32 "v3, v2, v2"
    amdgcn.s_endpgm [0x14]
  }

  // CHECK-LABEL: amdgcn.kernel @across_blocks
  amdgcn.kernel @across_blocks attributes {descriptor = {}} {
    // The wait moves into the block that uses the value; the other path
    // does not wait at all.
    // CHECK: global_load_dword "v0, v[4:5], off"
    // CHECK-NEXT: amdgcn.cbranch [0x8] s_cbranch_scc1
    // CHECK: ^bb1:
    // CHECK-NEXT: amdgcn.s_waitcnt vmcnt(0)
    // CHECK-NEXT: v_add_u32_e32 "v1, v0, v0"
    // CHECK: ^bb2:
    // CHECK-NOT: s_waitcnt
    // CHECK: amdgcn.s_endpgm
    // ^bb1 runs at most once per run of ^bb0, its only predecessor, so it
    // may take the wait ^bb0 no longer needs:
    // MERGE-LABEL: amdgcn.kernel @across_blocks
    // MERGE: ^bb1:
    // MERGE-NEXT: amdgcn.s_waitcnt vmcnt(0)
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.s_waitcnt [0x4] vmcnt(0)
    amdgcn.cbranch [0x8] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.inst [0xc] v_add_u32_e32 "v1, v0, v0"
    amdgcn.inst [0x10] global_store_dword "v[4:5], v1, off"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.s_endpgm [0x18]
  }

  // MERGE-LABEL: amdgcn.kernel @within_the_count
  amdgcn.kernel @within_the_count attributes {descriptor = {}} {
    // One wait per use would be vmcnt(3) before each v_add (two waits where
    // the original had one). The second merges into the first with its
    // count lowered by the load issued in between: vmcnt(3) - 1.
    // MERGE: global_load_dword "v3, v[4:5], off offset:12"
    // MERGE-NEXT: amdgcn.s_waitcnt vmcnt(2)
    // MERGE-NEXT: v_add_u32_e32 "v10, v0, v0"
    // MERGE-NOT: s_waitcnt
    // MERGE: amdgcn.s_endpgm
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[4:5], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[4:5], off offset:12"
    amdgcn.s_waitcnt [0x20] vmcnt(0)
    amdgcn.inst [0x24] v_add_u32_e32 "v10, v0, v0"
    amdgcn.inst [0x28] global_load_dword "v6, v[4:5], off offset:16"
    amdgcn.inst [0x30] v_mov_b32_e32 "v20, 0"
    amdgcn.inst [0x34] v_mov_b32_e32 "v21, 0"
    amdgcn.inst [0x38] v_mov_b32_e32 "v22, 0"
    amdgcn.inst [0x3c] v_add_u32_e32 "v11, v1, v1"
    amdgcn.inst [0x40] v_add_u32_e32 "v12, v20, v20"
    amdgcn.s_endpgm [0x44]
  }

  // MERGE-LABEL: amdgcn.kernel @into_a_loop
  amdgcn.kernel @into_a_loop attributes {descriptor = {}} {
    // The use is in a loop: a wait there would run on every iteration
    // where the original waited once, so the original wait stays.
    // MERGE: global_load_dword "v0, v[4:5], off"
    // MERGE-NEXT: amdgcn.s_waitcnt [0x8] vmcnt(0)
    // MERGE: ^bb1:
    // MERGE-NOT: s_waitcnt
    // MERGE: amdgcn.cbranch
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.inst [0xc] v_mov_b32_e32 "v1, 0"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x10] v_add_u32_e32 "v1, v0, v1"
    amdgcn.inst [0x14] s_sub_u32 "s0, s0, 1"
    amdgcn.cbranch [0x18] s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm [0x1c]
  }

  // CHECK-LABEL: amdgcn.kernel @flat_two_waits
  // MERGE-LABEL: amdgcn.kernel @flat_two_waits
  amdgcn.kernel @flat_two_waits attributes {descriptor = {}} {
    // A FLAT load counts on vmcnt and lgkmcnt; LLVM waits for them in two
    // s_waitcnt (lgkmcnt(0) for the s_load, later vmcnt(0) for the use).
    // The load is complete only after both: the vmcnt(0) stays (it was
    // dropped when completion needed both counters in one wait, and the use
    // was then taken for one the original already made in flight; a rocBLAS
    // rotm kernel verified NOT EQUIVALENT).
    // CHECK: amdgcn.s_waitcnt {{.*}}lgkmcnt(0)
    // CHECK-NEXT: s_and_b64
    // CHECK: ^bb1:
    // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt(0)
    // CHECK-NEXT: v_add_f32_e32 "v6, s4, v2"
    // MERGE: ^bb1:
    // MERGE-NEXT: amdgcn.s_waitcnt [0x24] vmcnt(0)
    // MERGE-NEXT: v_add_f32_e32 "v6, s4, v2"
    amdgcn.inst [0x0] flat_load_dword "v2, v[4:5]"
    amdgcn.inst [0x8] s_load_dwordx2 "s[4:5], s[6:7], 0x0"
    amdgcn.s_waitcnt [0x10] lgkmcnt(0)
    amdgcn.inst [0x14] s_and_b64 "vcc, exec, s[4:5]"
    amdgcn.inst [0x18] v_mov_b32_e32 "v7, 0"
    amdgcn.cbranch [0x20] s_cbranch_vccz ^bb2, ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0x24] vmcnt(0)
    amdgcn.inst [0x28] v_add_f32_e32 "v6, s4, v2"
    amdgcn.inst [0x2c] flat_store_dword "v[4:5], v6"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.s_endpgm [0x34]
  }

  // CHECK-LABEL: amdgcn.kernel @flat_vmcnt_only
  amdgcn.kernel @flat_vmcnt_only attributes {descriptor = {}} {
    // The original reads v2 with only vmcnt(0) after the FLAT load: by the
    // model the load may still be counted on lgkmcnt there, a violation of
    // the input that is tolerated, but only on lgkmcnt: the vmcnt(0) the
    // original had stays (it was dropped when the tolerance was per op).
    // CHECK: v_mov_b32_e32 "v7, 0"
    // CHECK-NEXT: amdgcn.s_waitcnt {{.*}}vmcnt(0)
    // CHECK-NEXT: v_add_f32_e32 "v6, v7, v2"
    amdgcn.inst [0x0] flat_load_dword "v2, v[4:5]"
    amdgcn.inst [0x8] v_mov_b32_e32 "v7, 0"
    amdgcn.s_waitcnt [0xc] vmcnt(0)
    amdgcn.inst [0x10] v_add_f32_e32 "v6, v7, v2"
    amdgcn.inst [0x14] global_store_dword "v[4:5], v6, off"
    amdgcn.s_endpgm [0x1c]
  }

  // NOMODEL-LABEL: amdgcn.kernel @wait_is_a_wait_state
  amdgcn.kernel @wait_is_a_wait_state attributes {descriptor = {}} {
    // The vmcnt(0) for v_cndmask could merge into the vmcnt(1) before
    // v_cmp (one op apart), but it is also the second of the 2 wait states
    // v_cndmask needs after v_cmp writes VCC (valu-sgpr-valu): an s_nop
    // would take its place, no slot saved and an earlier wait. It stays.
    // NOMODEL: amdgcn.s_waitcnt [0x10] vmcnt(1)
    // NOMODEL-NEXT: v_cmp_gt_u32_e32 "vcc, 8, v0"
    // NOMODEL-NEXT: v_add_u32_e32 "v5, v6, v7"
    // NOMODEL-NEXT: amdgcn.s_waitcnt [0x1c] vmcnt(0)
    // NOMODEL-NEXT: v_cndmask_b32_e32 "v2, v1, v3, vcc"
    // NOMODEL-NOT: s_nop
    // NOMODEL: s_endpgm
    amdgcn.inst [0x0] global_load_dword "v0, v[10:11], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[10:11], off offset:4"
    amdgcn.s_waitcnt [0x10] vmcnt(1)
    amdgcn.inst [0x14] v_cmp_gt_u32_e32 "vcc, 8, v0"
    amdgcn.inst [0x18] v_add_u32_e32 "v5, v6, v7"
    amdgcn.s_waitcnt [0x1c] vmcnt(0)
    amdgcn.inst [0x20] v_cndmask_b32_e32 "v2, v1, v3, vcc"
    amdgcn.inst [0x24] global_store_dword "v[10:11], v2, off"
    amdgcn.inst [0x2c] global_store_dword "v[12:13], v5, off"
    amdgcn.s_endpgm [0x34]
  }

  // MERGE-LABEL: amdgcn.kernel @budget_merge_keeps_wait_state
  // Four planned waits (v0..v3 each just before its use) for a block that
  // had three: one pair must merge. The closest pair is the waits of
  // v_cmp and v_cndmask, but the wait before v_cndmask is also the second
  // of its 2 wait states after v_cmp wrote VCC (valu-sgpr-valu); merged,
  // an s_nop would take its place. The next closest pair merges instead:
  // v13's vmcnt(1) moves up into v_cndmask's wait.
  // MERGE: amdgcn.s_waitcnt vmcnt(3)
  // MERGE-NEXT: v_cmp_gt_u32_e32 "vcc, 8, v0"
  // MERGE-NEXT: v_add_u32_e32 "v5, v6, v7"
  // MERGE-NEXT: amdgcn.s_waitcnt vmcnt(1)
  // MERGE-NEXT: v_cndmask_b32_e32 "v8, v1, v9, vcc"
  // MERGE-NOT: s_nop
  // MERGE: amdgcn.s_waitcnt vmcnt(0)
  // MERGE-NEXT: v_add_u32_e32 "v14, v3, v6"
  amdgcn.kernel @budget_merge_keeps_wait_state attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[20:21], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[20:21], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[20:21], off offset:12"
    amdgcn.s_waitcnt [0x20] vmcnt(0)
    amdgcn.inst [0x24] v_cmp_gt_u32_e32 "vcc, 8, v0"
    amdgcn.inst [0x28] v_add_u32_e32 "v5, v6, v7"
    amdgcn.s_waitcnt [0x2c] vmcnt(0)
    amdgcn.inst [0x30] v_cndmask_b32_e32 "v8, v1, v9, vcc"
    amdgcn.inst [0x34] v_add_u32_e32 "v10, v6, v7"
    amdgcn.inst [0x38] v_add_u32_e32 "v11, v6, v7"
    amdgcn.inst [0x3c] v_add_u32_e32 "v12, v6, v7"
    amdgcn.s_waitcnt [0x40] vmcnt(0)
    amdgcn.inst [0x44] v_add_u32_e32 "v13, v2, v6"
    amdgcn.inst [0x48] v_add_u32_e32 "v15, v6, v7"
    amdgcn.inst [0x4c] v_add_u32_e32 "v16, v6, v7"
    amdgcn.inst [0x50] v_add_u32_e32 "v17, v6, v7"
    amdgcn.inst [0x54] v_add_u32_e32 "v14, v3, v6"
    amdgcn.inst [0x58] global_store_dword "v[22:23], v8, off"
    amdgcn.inst [0x60] global_store_dword "v[22:23], v13, off offset:4"
    amdgcn.inst [0x68] global_store_dword "v[22:23], v14, off offset:8"
    amdgcn.s_endpgm [0x70]
  }

  // MERGE-LABEL: amdgcn.kernel @wait_is_a_later_wait_state
  // The wait for v1 could merge into v_cmp's (no op between), and v_add
  // itself needs no wait state; but it is one of the 2 that v_cndmask,
  // the op after it, needs after v_cmp wrote VCC: merged, an s_nop would
  // take its place. It stays; the budget merges v14's wait into v13's.
  // MERGE: amdgcn.s_waitcnt vmcnt(3)
  // MERGE-NEXT: v_cmp_gt_u32_e32 "vcc, 8, v0"
  // MERGE-NEXT: amdgcn.s_waitcnt vmcnt(2)
  // MERGE-NEXT: v_add_u32_e32 "v5, v1, v7"
  // MERGE-NEXT: v_cndmask_b32_e32 "v8, v6, v9, vcc"
  // MERGE-NOT: s_nop
  // MERGE: vmcnt(0)
  // MERGE-NEXT: v_add_u32_e32 "v13, v2, v6"
  // MERGE-NOT: s_waitcnt
  // MERGE: s_endpgm
  amdgcn.kernel @wait_is_a_later_wait_state attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v0, v[20:21], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[20:21], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[20:21], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[20:21], off offset:12"
    amdgcn.s_waitcnt [0x20] vmcnt(0)
    amdgcn.inst [0x24] v_cmp_gt_u32_e32 "vcc, 8, v0"
    amdgcn.s_waitcnt [0x28] vmcnt(0)
    amdgcn.inst [0x2c] v_add_u32_e32 "v5, v1, v7"
    amdgcn.inst [0x30] v_cndmask_b32_e32 "v8, v6, v9, vcc"
    amdgcn.inst [0x34] v_add_u32_e32 "v10, v6, v7"
    amdgcn.inst [0x38] v_add_u32_e32 "v11, v6, v7"
    amdgcn.inst [0x3c] v_add_u32_e32 "v12, v6, v7"
    amdgcn.s_waitcnt [0x40] vmcnt(0)
    amdgcn.inst [0x44] v_add_u32_e32 "v13, v2, v6"
    amdgcn.inst [0x48] v_add_u32_e32 "v15, v6, v7"
    amdgcn.inst [0x4c] v_add_u32_e32 "v16, v6, v7"
    amdgcn.inst [0x50] v_add_u32_e32 "v17, v6, v7"
    amdgcn.inst [0x54] v_add_u32_e32 "v14, v3, v6"
    amdgcn.inst [0x58] global_store_dword "v[22:23], v8, off"
    amdgcn.inst [0x60] global_store_dword "v[22:23], v5, off offset:4"
    amdgcn.inst [0x68] global_store_dword "v[22:23], v13, off offset:8"
    amdgcn.inst [0x70] global_store_dword "v[22:23], v14, off offset:12"
    amdgcn.s_endpgm [0x78]
  }

  // MERGE-LABEL: amdgcn.kernel @memory_bound_loop
  // The loop of bench l2_matmul_swish_sum_groupnorm: merging vmcnt(3),
  // vmcnt(2) and vmcnt(1) into one vmcnt(1) saves two issue slots but
  // waits for two more loads, whose data come back through the memory path
  // one after the other (sched::VmemReturnSlots): no faster in the
  // whole-block model, the waits stay (merged, the kernel was 28 cycles
  // slower in the cost model).
  // MERGE: amdgcn.s_waitcnt [0x1e38] vmcnt(4) lgkmcnt(1)
  // MERGE: amdgcn.s_waitcnt [0x1e4c] vmcnt(3) lgkmcnt(0)
  // MERGE-NEXT: v_fmac_f32_e32 "v6, v12, v19"
  // MERGE-NEXT: amdgcn.s_waitcnt [0x1e54] vmcnt(2)
  // MERGE-NEXT: v_fmac_f32_e32 "v6, v13, v20"
  // MERGE-NEXT: amdgcn.s_waitcnt [0x1e5c] vmcnt(1)
  amdgcn.kernel @memory_bound_loop attributes {descriptor = {}} {
    amdgcn.inst [0x1da8] s_mov_b32 "s14, 0"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x1dac] v_lshl_add_u64 "v[8:9], v[2:3], 2, s[4:5]"
    amdgcn.inst [0x1db4] global_load_dword "v7, v[4:5], off offset:-4096"
    amdgcn.inst [0x1dbc] global_load_dword "v16, v[4:5], off offset:-3072"
    amdgcn.inst [0x1dc4] global_load_dword "v17, v[4:5], off offset:-2048"
    amdgcn.inst [0x1dcc] global_load_dword "v18, v[8:9], off"
    amdgcn.inst [0x1dd4] v_add_u32_e32 "v8, 0x400, v2"
    amdgcn.inst [0x1ddc] v_mov_b32_e32 "v9, v3"
    amdgcn.inst [0x1de0] v_lshl_add_u64 "v[8:9], v[8:9], 2, s[4:5]"
    amdgcn.inst [0x1de8] global_load_dword "v19, v[8:9], off"
    amdgcn.inst [0x1df0] global_load_dword "v20, v[4:5], off"
    amdgcn.inst [0x1df8] global_load_dword "v21, v[4:5], off offset:1024"
    amdgcn.inst [0x1e00] global_load_dword "v22, v[4:5], off offset:2048"
    amdgcn.inst [0x1e08] v_mov_b32_e32 "v12, s13"
    amdgcn.inst [0x1e0c] ds_read_b128 "v[8:11], v12"
    amdgcn.inst [0x1e14] ds_read_b128 "v[12:15], v12 offset:16"
    amdgcn.inst [0x1e1c] s_add_i32 "s14, s14, 8"
    amdgcn.inst [0x1e20] s_add_i32 "s13, s13, 32"
    amdgcn.inst [0x1e24] v_add_u32_e32 "v2, 0x800, v2"
    amdgcn.inst [0x1e2c] v_lshl_add_u64 "v[4:5], v[4:5], 0, s[10:11]"
    amdgcn.inst [0x1e34] s_cmp_eq_u32 "s8, s14"
    amdgcn.s_waitcnt [0x1e38] vmcnt(4) lgkmcnt(1)
    amdgcn.inst [0x1e3c] v_fmac_f32_e32 "v6, v8, v18"
    amdgcn.inst [0x1e40] v_fmac_f32_e32 "v6, v9, v7"
    amdgcn.inst [0x1e44] v_fmac_f32_e32 "v6, v10, v16"
    amdgcn.inst [0x1e48] v_fmac_f32_e32 "v6, v11, v17"
    amdgcn.s_waitcnt [0x1e4c] vmcnt(3) lgkmcnt(0)
    amdgcn.inst [0x1e50] v_fmac_f32_e32 "v6, v12, v19"
    amdgcn.s_waitcnt [0x1e54] vmcnt(2)
    amdgcn.inst [0x1e58] v_fmac_f32_e32 "v6, v13, v20"
    amdgcn.s_waitcnt [0x1e5c] vmcnt(1)
    amdgcn.inst [0x1e60] v_fmac_f32_e32 "v6, v14, v21"
    amdgcn.s_waitcnt [0x1e64] vmcnt(0)
    amdgcn.inst [0x1e68] v_fmac_f32_e32 "v6, v15, v22"
    amdgcn.cbranch [0x1e6c] s_cbranch_scc0 ^bb1, ^bb2
  ^bb2:
    amdgcn.inst [0x1e70] global_store_dword "v[2:3], v6, off"
    amdgcn.s_endpgm [0x1e78]
  }

  // MERGE-LABEL: amdgcn.kernel @merge_no_gain
  amdgcn.kernel @merge_no_gain attributes {descriptor = {}} {
    // One vmcnt(0) before the first add would do for all three, one wait
    // instead of three, but the first adds would then wait for every load:
    // slower in the whole-block model (98 -> 100 issue slots), so the
    // block keeps its waits (merging waits made l1_matmul_mfma, rmsnorm
    // and conv1d_relu_maxpool of bench/ slower in the cost model).
    // MERGE: amdgcn.s_waitcnt [0x20] vmcnt(3)
    // MERGE-NEXT: v_add_u32_e32 "v10, v0, v0"
    // MERGE-NEXT: amdgcn.s_waitcnt [0x28] vmcnt(2)
    // MERGE-NEXT: v_add_u32_e32 "v11, v1, v1"
    // MERGE-NEXT: amdgcn.s_waitcnt [0x30] vmcnt(0)
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] global_load_dword "v1, v[4:5], off offset:4"
    amdgcn.inst [0x10] global_load_dword "v2, v[4:5], off offset:8"
    amdgcn.inst [0x18] global_load_dword "v3, v[4:5], off offset:12"
    amdgcn.s_waitcnt [0x20] vmcnt(3)
    amdgcn.inst [0x24] v_add_u32_e32 "v10, v0, v0"
    amdgcn.s_waitcnt [0x28] vmcnt(2)
    amdgcn.inst [0x2c] v_add_u32_e32 "v11, v1, v1"
    amdgcn.s_waitcnt [0x30] vmcnt(0)
    amdgcn.inst [0x34] v_add_u32_e32 "v12, v2, v3"
    amdgcn.inst [0x38] global_store_dword "v[6:7], v10, off"
    amdgcn.inst [0x40] global_store_dword "v[6:7], v11, off"
    amdgcn.inst [0x48] global_store_dword "v[6:7], v12, off"
    amdgcn.s_endpgm [0x50]
  }

  // CHECK-LABEL: amdgcn.func @device_function
  amdgcn.func @device_function {
    // A device function starts with unknown memory ops in flight: the entry
    // wait stays.
    // CHECK: amdgcn.s_waitcnt [0x0] vmcnt(0) expcnt(0) lgkmcnt(0)
    // CHECK-NEXT: v_add_u32_e32 "v0, v1, v0"
    amdgcn.s_waitcnt [0x0] vmcnt(0) expcnt(0) lgkmcnt(0)
    amdgcn.inst [0x4] v_add_u32_e32 "v0, v1, v0"
    amdgcn.indirect [0x8] s_setpc_b64 "s[30:31]"
  }
}

// SUMMARY: amdgcn-waitcnt-relax: 9 function(s) changed
