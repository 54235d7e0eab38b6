// amdgcn-waitcnt-relax where its plan would put an s_nop into a subroutine
// (test/Passes/internal-calls-relax.test). The vmcnt(1) before the call is
// not needed for the loads (the vmcnt(0) after it waits for both), but it
// gives the 4th wait state between the VALU write of s16 and the
// subroutines' v_readlane selecting the lane with it. The wait in the
// entry block can move down to its use.
// out[tid] = in[tid + 16] + 1 + in[tid + 64] + in[tid + 32] + f(tid),
// f(x) = 2x (selector 0) or x + 7.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl act_relax
.p2align 8
.type act_relax,@function
act_relax:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x8
  s_load_dword s8, s[0:1], 0x10
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v7, v5, s[12:13] offset:64
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v20, 1
  v_mov_b32_e32 v4, v0
  v_add_u32_e32 v8, v7, v20
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
  global_load_dword v6, v5, s[12:13] offset:256
  global_load_dword v9, v5, s[12:13] offset:128
  v_readfirstlane_b32 s16, v1
  s_waitcnt vmcnt(1)
  s_nop 0
  s_waitcnt vmcnt(0)
  s_swappc_b64 s[30:31], s[10:11]
  v_add_u32_e32 v11, v6, v4
  v_add3_u32 v11, v11, v8, v9
  global_store_dword v5, v11, s[2:3]
  s_endpgm
.LactA:
  v_readlane_b32 s15, v4, s16
  v_lshlrev_b32_e32 v4, 1, v4
  s_setpc_b64 s[30:31]
.LactB:
  v_readlane_b32 s15, v4, s16
  v_add_u32_e32 v4, 7, v4
  s_setpc_b64 s[30:31]
.Lact_relax_end:
.size act_relax, .Lact_relax_end-act_relax

.rodata
.p2align 6
.amdhsa_kernel act_relax
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 21
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 24
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_relax
    .symbol: act_relax.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 21
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value, .value_type: u32 }
...
.end_amdgpu_metadata
