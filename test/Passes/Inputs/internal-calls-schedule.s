// amdgcn-schedule in a kernel with internal calls whose call block, if
// reordered, would put a hazard pair into a subroutine
// (test/Passes/internal-calls-schedule.test): actB's v_readlane selects
// its lane with s16, which the v_readfirstlane of the call's block writes
// (rwlane-lane-select, 4 wait states: the three adds and the call give
// them). The list scheduler issues the adds after the call (they feed
// only code after it), which leaves 1. The entry block has loads to hoist.
// out[tid] = f(in[tid]) + in[tid + 32] + in[tid + 16] + 3 * (in[tid] + 1)
// + 18, f = relu of the float (selector 0) or x + in[0].
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl act_sched
.p2align 8
.type act_sched,@function
act_sched:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x8
  s_load_dword s8, s[0:1], 0x10
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v4, v5, s[12:13]
  v_mov_b32_e32 v6, 0
  s_waitcnt vmcnt(0)
  v_add_u32_e32 v6, 1, v4
  global_load_dword v7, v5, s[12:13] offset:64
  v_mov_b32_e32 v9, 5
  v_mov_b32_e32 v10, 6
  v_mov_b32_e32 v11, 7
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
  v_readfirstlane_b32 s16, v0
  v_add_u32_e32 v9, v9, v6
  v_add_u32_e32 v10, v10, v6
  v_add_u32_e32 v11, v11, v6
  s_swappc_b64 s[30:31], s[10:11]
  global_load_dword v12, v5, s[12:13] offset:128
  s_waitcnt vmcnt(0)
  v_add3_u32 v4, v4, v12, v9
  v_add3_u32 v4, v4, v10, v11
  v_add_u32_e32 v4, v4, v7
  global_store_dword v5, v4, s[2:3]
  s_endpgm
.LactA:
  v_mov_b32_e32 v8, 0
  v_cmp_ge_f32_e64 vcc, v4, 0
  s_nop 1
  v_cndmask_b32_e32 v4, v8, v4, vcc
  s_setpc_b64 s[30:31]
.LactB:
  v_readlane_b32 s17, v4, s16
  s_nop 1
  v_add_u32_e32 v4, s17, v4
  s_setpc_b64 s[30:31]
.Lact_sched_end:
.size act_sched, .Lact_sched_end-act_sched

.rodata
.p2align 6
.amdhsa_kernel act_sched
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 13
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 16
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_sched
    .symbol: act_sched.kd
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
