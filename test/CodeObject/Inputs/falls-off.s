// A kernel and a device function whose code runs off its end (no return):
// recovery keeps the function in place as not relocatable, with a reason
// that names "the function" (test/CodeObject/corpus-reasons.test).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_endpgm
.Lk_end:
.size k, .Lk_end-k

.globl f
.p2align 2
.type f,@function
f:
  v_mov_b32_e32 v0, 0
  v_mov_b32_e32 v1, 1
.Lf_end:
.size f, .Lf_end-f

.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 6
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
...
.end_amdgpu_metadata
