// The PC-relative forms of Tensile's hand-written assembly that recovery
// models (test/CodeObject/tensile-getpc-forms.test), written as TensileLite's
// rocisa writes them (SGetPositivePCOffset, SLongBranch): the label operand
// of s_add_i32 assembles to a PC-relative literal, target - (literal's
// address), so LIT + 4 is the offset from the end of the s_getpc_b64.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

// Tensile's activation functions: each branch of a switch computes the
// address of one subroutine into s[10:11] and branches to a shared block,
// which calls it (twice) with s_swappc_b64; the subroutines return with
// s_setpc_b64 s[30:31]. out[tid] = f(f(tid + 1)), f(x) = 2x (selector 0)
// or x + 7.
.globl act_call
.p2align 8
.type act_call,@function
act_call:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dword s8, s[0:1], 0x8
  v_add_u32_e32 v4, 1, v0
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .LtoA
.LtoB:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .LactB, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .LsetEnd
.LtoA:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .LactA, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .LsetEnd
.LsetEnd:
  s_swappc_b64 s[30:31], s[10:11]
  s_swappc_b64 s[30:31], s[10:11]
  global_store_dword v5, v4, s[2:3]
  s_endpgm
.LactA:
  v_lshlrev_b32_e32 v4, 1, v4
  s_setpc_b64 s[30:31]
.LactB:
  v_add_u32_e32 v4, 7, v4
  s_setpc_b64 s[30:31]
.Lact_call_end:
.size act_call, .Lact_call_end-act_call

// Tensile's two-way long branch (SLongBranch): the sign of the offset picks
// add or subtract at run time. Once forward over v1 = 99, then three times
// back to .Ltop: out[0] = 15.
.globl two_way
.p2align 8
.type two_way,@function
two_way:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v1, 0
  v_mov_b32_e32 v2, 0
  s_mov_b32 s8, 3
  s_getpc_b64 s[4:5]
  s_add_i32 s6, .Ltop, 4
  s_cmp_ge_i32 s6, 0
  s_cbranch_scc1 .Lfwd_pos
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
.Lfwd_pos:
  s_add_u32 s4, s4, s6
  s_addc_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
  v_mov_b32_e32 v1, 99
.Ltop:
  v_add_u32_e32 v1, 5, v1
  s_sub_u32 s8, s8, 1
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Ldone
  s_getpc_b64 s[4:5]
  s_add_i32 s6, .Ltop, 4
  s_cmp_ge_i32 s6, 0
  s_cbranch_scc1 .Lback_pos
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
.Lback_pos:
  s_add_u32 s4, s4, s6
  s_addc_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
.Ldone:
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v1, s[2:3]
  s_endpgm
.Ltwo_way_end:
.size two_way, .Ltwo_way_end-two_way

// Tensile's backward long branch (SLongBranchNegative): the offset is
// negative, its absolute value is subtracted. Twice through .Lneg_top:
// out[0] = 6.
.globl back_only
.p2align 8
.type back_only,@function
back_only:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v1, 0
  v_mov_b32_e32 v2, 0
  s_mov_b32 s8, 2
.Lneg_top:
  v_add_u32_e32 v1, 3, v1
  s_sub_u32 s8, s8, 1
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lneg_done
  s_getpc_b64 s[4:5]
  s_add_i32 s6, .Lneg_top, 4
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
.Lneg_done:
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v1, s[2:3]
  s_endpgm
.Lback_only_end:
.size back_only, .Lback_only_end-back_only

.rodata
.p2align 6
.amdhsa_kernel act_call
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 6
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel two_way
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 10
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel back_only
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 10
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_call
    .symbol: act_call.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 6
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 4, .value_kind: by_value, .value_type: u32 }
  - .name: two_way
    .symbol: two_way.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 3
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: back_only
    .symbol: back_only.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 3
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
