// A kernel that calls subroutines in its own code the way Tensile's
// activation functions are called (test/CodeObject/tensile-getpc-forms.s:
// SGetPositivePCOffset into s[10:11], s_swappc_b64 s[30:31], return with
// s_setpc_b64 s[30:31]), with work the default pipeline can do between the
// calls: a wait to move to the use that needs it, a dead move, a shift and
// add to fuse. One load (v6) stays in flight through the first call; the
// subroutines read v4.
// out[tid] = f(in[tid] + 1) + 4 * tid + in[tid + 64] + in[tid + 32] + f(tid),
// f(x) = 2x (selector 0) or x + 7.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl act_pipe
.p2align 8
.type act_pipe,@function
act_pipe:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x8
  s_load_dword s8, s[0:1], 0x10
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v4, v5, s[12:13]
  global_load_dword v6, v5, s[12:13] offset:256
  v_mov_b32_e32 v9, 0
  s_waitcnt vmcnt(1)
  v_add_u32_e32 v4, 1, v4
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .LtoA
.LtoB:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .LactB, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .Lcall
.LtoA:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .LactA, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .Lcall
.Lcall:
  s_nop 7
  s_nop 7
  s_nop 7
  s_swappc_b64 s[30:31], s[10:11]
  s_nop 7
  s_nop 7
  s_nop 7
  s_waitcnt vmcnt(0)
  global_load_dword v12, v5, s[12:13] offset:128
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v9, v4
  v_mov_b32_e32 v10, 5
  v_lshlrev_b32_e32 v10, 2, v0
  v_add_u32_e32 v11, v10, v9
  v_add_u32_e32 v11, v11, v6
  v_add_u32_e32 v11, v11, v12
  v_mov_b32_e32 v4, v0
  s_nop 7
  s_nop 7
  s_nop 7
  s_swappc_b64 s[30:31], s[10:11]
  s_nop 7
  s_nop 7
  s_nop 7
  v_add_u32_e32 v11, v11, v4
  global_store_dword v5, v11, s[2:3]
  s_endpgm
.LactA:
  v_lshlrev_b32_e32 v4, 1, v4
  s_setpc_b64 s[30:31]
.LactB:
  v_add_u32_e32 v4, 7, v4
  s_setpc_b64 s[30:31]
.Lact_pipe_end:
.size act_pipe, .Lact_pipe_end-act_pipe

.rodata
.p2align 6
.amdhsa_kernel act_pipe
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 13
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_pipe
    .symbol: act_pipe.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 13
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value, .value_type: u32 }
...
.end_amdgpu_metadata
