// PC-relative forms recovery does not model
// (test/CodeObject/tensile-getpc-forms.test): the kernels stay in place,
// not_relocatable with a reason that says what was found.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

// A negative offset sign-extended into the high half (s_addc_u32 with -1):
// not one of the sequences Tensile writes.
.globl sext_high
.p2align 8
.type sext_high,@function
sext_high:
  s_getpc_b64 s[4:5]
  s_add_i32 s6, .Lsext_target, 4
  s_add_u32 s4, s4, s6
  s_addc_u32 s5, s5, -1
  s_setpc_b64 s[4:5]
.Lsext_target:
  s_endpgm
.Lsext_high_end:
.size sext_high, .Lsext_high_end-sext_high

// A jump through a shared block: two blocks compute an address into
// s[10:11], a shared block jumps there with s_setpc_b64. The address form
// is modelled, the jump's targets are not (it is no return: s_getpc_b64
// writes the pair).
.globl shared_setpc
.p2align 8
.type shared_setpc,@function
shared_setpc:
  s_load_dword s8, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lto_a
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .Lshared_b, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .Lshared_jump
.Lto_a:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .Lshared_a, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch .Lshared_jump
.Lshared_jump:
  s_setpc_b64 s[10:11]
.Lshared_a:
  s_endpgm
.Lshared_b:
  s_endpgm
.Lshared_setpc_end:
.size shared_setpc, .Lshared_setpc_end-shared_setpc

// A long branch whose s_setpc_b64 a branch also reaches: the address there
// may come from elsewhere, so it is not the sequence's target.
.globl enters_middle
.p2align 8
.type enters_middle,@function
enters_middle:
  s_load_dword s8, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[10:11], s[0:1]
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lmiddle_jump
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .Lmiddle_target, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
.Lmiddle_jump:
  s_setpc_b64 s[10:11]
.Lmiddle_target:
  s_endpgm
.Lenters_middle_end:
.size enters_middle, .Lenters_middle_end-enters_middle

// A subroutine call whose return address is read after the call (here
// stepped past a word): that value would not follow the code when it moves.
.globl return_arith
.p2align 8
.type return_arith,@function
return_arith:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, .Lsub, 4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_swappc_b64 s[30:31], s[10:11]
  s_add_u32 s30, s30, 4
  s_endpgm
.Lsub:
  s_setpc_b64 s[30:31]
.Lreturn_arith_end:
.size return_arith, .Lreturn_arith_end-return_arith

// The backward sequence with a forward (positive) offset: s_abs_i32 keeps
// it positive and s_sub_u32 goes backward, not to the label.
.globl abs_forward
.p2align 8
.type abs_forward,@function
abs_forward:
  s_getpc_b64 s[4:5]
  s_add_i32 s6, .Labs_target, 4
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
.Labs_target:
  s_endpgm
.Labs_forward_end:
.size abs_forward, .Labs_forward_end-abs_forward

.rodata
.p2align 6
.amdhsa_kernel sext_high
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel abs_forward
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel shared_setpc
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 12
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel enters_middle
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 12
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel return_arith
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - .name: sext_high
    .symbol: sext_high.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args: []
  - .name: abs_forward
    .symbol: abs_forward.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args: []
  - .name: shared_setpc
    .symbol: shared_setpc.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 4, .value_kind: by_value, .value_type: u32 }
  - .name: enters_middle
    .symbol: enters_middle.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 4, .value_kind: by_value, .value_type: u32 }
  - .name: return_arith
    .symbol: return_arith.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 38
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 4, .value_kind: by_value, .value_type: u32 }
...
.end_amdgpu_metadata
