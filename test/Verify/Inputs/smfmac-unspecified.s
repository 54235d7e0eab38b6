// gfx942 kernels with one integer SMFMAC (exact, so not an approximate
// opcode) whose row 7 has the index pair (1,1) with nonzero A values
// (lane 7): the hardware does not specify that row's
// result. dep stores every row; indep stores the registers that hold rows
// with i % 4 < 3 only (row 7 lives in v75). With CAND defined, a candidate
// that changes an operand of row 7 only. test/Verify/smfmac-unspecified.test
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.macro smfmac_body
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v4, 0x01010101
  v_mov_b32_e32 v5, 0x01010101
  v_mov_b32_e32 v8, 0x01010101
  v_mov_b32_e32 v9, 0x01010101
  v_mov_b32_e32 v10, 0x01010101
  v_mov_b32_e32 v11, 0x01010101
  v_mov_b32_e32 v16, 0xe4e4
  v_mov_b32_e32 v17, 0xe4e5
  v_cmp_eq_u32_e32 vcc, 7, v0
  v_cndmask_b32_e32 v16, v16, v17, vcc
.ifdef CAND
  // The candidate: lane 7's first A value 2 instead of 1, an operand
  // of row 7 only.
  v_mov_b32_e32 v18, 0x01010102
  v_cndmask_b32_e32 v4, v4, v18, vcc
.endif
  v_mov_b32_e32 v72, 0
  v_mov_b32_e32 v73, 0
  v_mov_b32_e32 v74, 0
  v_mov_b32_e32 v75, 0
  s_nop 4
  v_smfmac_i32_16x16x64_i8 v[72:75], v[4:5], v[8:11], v16
  s_nop 7
  s_nop 7
  s_nop 7
  v_lshlrev_b32_e32 v3, 4, v0
  s_waitcnt lgkmcnt(0)
.endm

.globl dep
.p2align 8
.type dep,@function
dep:
  smfmac_body
  global_store_dwordx4 v3, v[72:75], s[2:3]
  s_endpgm
.Ldep_end:
.size dep, .Ldep_end-dep

.globl indep
.p2align 8
.type indep,@function
indep:
  smfmac_body
  global_store_dwordx3 v3, v[72:74], s[2:3]
  s_endpgm
.Lindep_end:
.size indep, .Lindep_end-indep

.rodata
.p2align 6
.amdhsa_kernel dep
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 76
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 76
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel
.amdhsa_kernel indep
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 76
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 76
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: dep
    .symbol: dep.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 76
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - .name: buf
        .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
  - .name: indep
    .symbol: indep.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 76
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - .name: buf
        .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
...
.end_amdgpu_metadata
