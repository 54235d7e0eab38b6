// Tensile's long-branch sequence over a short distance
// (test/CodeObject/tensile-branch.test): the distance is a label difference,
// so the assembler encodes it as a literal even when it is small enough for
// an inline constant, and LLVM decodes that literal as lit(...).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl first
.p2align 8
.type first,@function
first:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v1, 5
  v_mov_b32_e32 v2, 0
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v1, s[2:3]
  s_endpgm
.Lfirst_end:
.size first, .Lfirst_end-first

.globl short_jump
.p2align 8
.type short_jump,@function
short_jump:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v1, 7
  v_mov_b32_e32 v2, 0
  s_getpc_b64 s[4:5]
.Lpc:
  // Target = .Lpc + (lit + 4): lit = 0x10 lands on .Ltarget.
  s_add_i32 s6, .Ltarget - .Lpc - 4, 4
  s_add_u32 s4, s4, s6
  s_addc_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
  s_endpgm
  v_mov_b32_e32 v1, 9
.Ltarget:
  s_waitcnt lgkmcnt(0)
  global_store_dword v2, v1, s[2:3]
  s_endpgm
.Lshort_jump_end:
.size short_jump, .Lshort_jump_end-short_jump

.rodata
.p2align 6
.amdhsa_kernel first
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel short_jump
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: first
    .symbol: first.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 3
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: short_jump
    .symbol: short_jump.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 3
    .max_flat_workgroup_size: 256
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
