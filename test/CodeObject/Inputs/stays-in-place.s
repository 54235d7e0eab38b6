// A kernel that amdgcn-peephole shrinks (two self-moves), followed by a device
// function whose code runs off its end after s_trap 2 (like
// hipBLASLt's __assert_fail): the function must keep its address
// (test/CodeObject/stays-in-place.test).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.p2align 8
.type k,@function
k:
  v_mov_b32_e32 v1, v1
  v_mov_b32_e32 v2, v2
  s_endpgm
.Lk_end:
.size k, .Lk_end-k

.globl f
.p2align 2
.type f,@function
f:
  v_mov_b32_e32 v0, 0
  s_trap 2
.Lf_end:
.size f, .Lf_end-f

.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
