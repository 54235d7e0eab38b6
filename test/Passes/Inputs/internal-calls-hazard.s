// A kernel whose subroutines (called as Tensile's activation functions
// are: SGetPositivePCOffset into s[10:11], s_swappc_b64 s[30:31], return
// with s_setpc_b64 s[30:31]) hold hazard pairs with too few wait states:
// actA's v_cmp writes VCC and the next VALU reads it as a mask (Tensile's
// relu: valu-sgpr-valu, 2 wait states); actB's first op selects a lane
// with s16, which the VALU right before the call wrote (rwlane-lane-select,
// 4; the call gives 1), and its v_readlane result is read by the next VALU.
// out[tid] = relu(in[tid]) (selector 0, as floats) or in[tid] + in[0].
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl act_hz
.p2align 8
.type act_hz,@function
act_hz:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dwordx2 s[12:13], s[0:1], 0x8
  s_load_dword s8, s[0:1], 0x10
  v_lshlrev_b32_e32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v4, v5, s[12:13]
  s_waitcnt vmcnt(0)
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
  s_swappc_b64 s[30:31], s[10:11]
  global_store_dword v5, v4, s[2:3]
  s_endpgm
.LactA:
  v_mov_b32_e32 v8, 0
  v_cmp_ge_f32_e64 vcc, v4, 0
  v_cndmask_b32_e32 v4, v8, v4, vcc
  s_setpc_b64 s[30:31]
.LactB:
  v_readlane_b32 s17, v4, s16
  v_add_u32_e32 v4, s17, v4
  s_setpc_b64 s[30:31]
.Lact_hz_end:
.size act_hz, .Lact_hz_end-act_hz

.rodata
.p2align 6
.amdhsa_kernel act_hz
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 12
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: act_hz
    .symbol: act_hz.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 9
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: by_value, .value_type: u32 }
...
.end_amdgpu_metadata
