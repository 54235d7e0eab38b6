// amdgcn-waitcnt-relax around an internal call (test/Passes/
// internal-calls-wait.test): before the call the original waits for both
// loads, but the subroutines read v4 only, not v6.
// out[tid] = f(in[tid]) + in[tid + 64] + 1, f(x) = 2x (selector 0) or
// x + 7.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl act_wait
.p2align 8
.type act_wait,@function
act_wait:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x8
  s_load_dword s8, s[0:1], 0x10
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
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
  global_load_dword v4, v5, s[12:13]
  s_waitcnt vmcnt(0)
  global_load_dword v6, v5, s[12:13] offset:256
  s_waitcnt vmcnt(0)
  s_swappc_b64 s[30:31], s[10:11]
  v_mov_b32_e32 v7, 1
  v_add_u32_e32 v7, v7, v4
  v_add_u32_e32 v7, v7, v6
  global_store_dword v5, v7, s[2:3]
  s_endpgm
.LactA:
  v_lshlrev_b32_e32 v4, 1, v4
  s_setpc_b64 s[30:31]
.LactB:
  v_add_u32_e32 v4, 7, v4
  s_setpc_b64 s[30:31]
.Lact_wait_end:
.size act_wait, .Lact_wait_end-act_wait

.rodata
.p2align 6
.amdhsa_kernel act_wait
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_wait
    .symbol: act_wait.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value, .value_type: u32 }
...
.end_amdgpu_metadata
