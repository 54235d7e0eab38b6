// amdgcn-peephole: exactly equivalent local rewrites.
// RUN: asmevo-opt %s --pipeline='amdgcn-peephole{summary=1 verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @fusions
  amdgcn.kernel @fusions attributes {descriptor = {}} {
    // CHECK: amdgcn.inst [0x4] v_lshl_add_u32 "v2, v1, 2, v3"
    // CHECK-NEXT: amdgcn.inst [0xc] v_add3_u32 "v5, v2, v4, v6"
    // CHECK-NEXT: amdgcn.inst [0x14] v_lshl_or_b32 "v8, v1, 4, v9"
    // CHECK-NEXT: amdgcn.inst [0x1c] v_and_or_b32 "v11, v1, v9, v12"
    // CHECK-NEXT: global_store_dword
    amdgcn.inst [0x0] v_lshlrev_b32_e32 "v7, 2, v1"
    amdgcn.inst [0x4] v_add_u32_e32 "v2, v7, v3"
    amdgcn.inst [0x8] v_add_u32_e32 "v7, v2, v4"
    amdgcn.inst [0xc] v_add_u32_e32 "v5, v7, v6"
    amdgcn.inst [0x10] v_lshlrev_b32_e32 "v7, 4, v1"
    amdgcn.inst [0x14] v_or_b32_e32 "v8, v7, v9"
    amdgcn.inst [0x18] v_and_b32_e32 "v7, v1, v9"
    amdgcn.inst [0x1c] v_or_b32_e32 "v11, v7, v12"
    amdgcn.inst [0x20] global_store_dwordx4 "v[14:15], v[8:11], off"
    amdgcn.inst [0x28] global_store_dwordx2 "v[14:15], v[2:3], off offset:16"
    amdgcn.inst [0x30] global_store_dword "v[14:15], v5, off offset:32"
    amdgcn.s_endpgm [0x38]
  }

  // CHECK-LABEL: amdgcn.kernel @refused
  amdgcn.kernel @refused attributes {descriptor = {}} {
    // The shifted value is also stored: the shift must stay, no fusion.
    // CHECK: v_lshlrev_b32_e32 "v7, 2, v1"
    // CHECK-NEXT: v_add_u32_e32 "v2, v7, v3"
    // The source changes in between: no fusion.
    // CHECK: v_lshlrev_b32_e32 "v8, 2, v1"
    // CHECK-NEXT: v_mov_b32_e32 "v1, 0"
    // CHECK-NEXT: v_add_u32_e32 "v4, v8, v3"
    // Floating point: mul + add is not an fma (rounding), carry adds write
    // VCC: none of these change.
    // CHECK: v_mul_f32_e32 "v9, v1, v2"
    // CHECK-NEXT: v_add_f32_e32 "v10, v9, v3"
    // CHECK-NEXT: v_lshlrev_b32_e32 "v11, 2, v1"
    // CHECK-NEXT: v_add_co_u32_e32 "v12, vcc, v11, v3"
    amdgcn.inst [0x0] v_lshlrev_b32_e32 "v7, 2, v1"
    amdgcn.inst [0x4] v_add_u32_e32 "v2, v7, v3"
    amdgcn.inst [0x8] global_store_dwordx2 "v[14:15], v[6:7], off"
    amdgcn.inst [0x10] v_lshlrev_b32_e32 "v8, 2, v1"
    amdgcn.inst [0x14] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x18] v_add_u32_e32 "v4, v8, v3"
    amdgcn.inst [0x1c] v_mul_f32_e32 "v9, v1, v2"
    amdgcn.inst [0x20] v_add_f32_e32 "v10, v9, v3"
    amdgcn.inst [0x24] v_lshlrev_b32_e32 "v11, 2, v1"
    amdgcn.inst [0x28] v_add_co_u32_e32 "v12, vcc, v11, v3"
    amdgcn.inst [0x2c] global_store_dwordx4 "v[14:15], v[10:13], off"
    amdgcn.inst [0x34] global_store_dwordx2 "v[14:15], v[2:3], off offset:16"
    amdgcn.inst [0x3c] global_store_dword "v[14:15], v4, off offset:32"
    amdgcn.inst [0x44] global_store_dword "v[14:15], v9, off offset:48"
    amdgcn.s_endpgm [0x4c]
  }

  // CHECK-LABEL: amdgcn.kernel @redundant
  amdgcn.kernel @redundant attributes {descriptor = {}} {
    // A move to itself goes away; so does a compare that repeats the one
    // before with nothing changed; not when an input changed.
    // CHECK: v_cmp_eq_u32_e32 "vcc, v0, v1"
    // CHECK-NEXT: v_cndmask_b32_e32 "v2, v3, v4, vcc"
    // CHECK-NEXT: v_mov_b32_e32 "v20, 0"
    // CHECK-NEXT: v_cndmask_b32_e32 "v5, v3, v4, vcc"
    // CHECK-NEXT: v_mov_b32_e32 "v0, 7"
    // CHECK-NEXT: v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.inst [0x0] v_mov_b32_e32 "v3, v3"
    amdgcn.inst [0x4] v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.inst [0x8] v_cndmask_b32_e32 "v2, v3, v4, vcc"
    amdgcn.inst [0xa] v_mov_b32_e32 "v20, 0"
    amdgcn.inst [0xc] v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.inst [0x10] v_cndmask_b32_e32 "v5, v3, v4, vcc"
    amdgcn.inst [0x14] v_mov_b32_e32 "v0, 7"
    amdgcn.inst [0x18] v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.inst [0x1c] v_cndmask_b32_e32 "v6, v3, v4, vcc"
    amdgcn.inst [0x20] global_store_dwordx4 "v[8:9], v[2:5], off"
    amdgcn.inst [0x28] global_store_dword "v[8:9], v6, off offset:16"
    amdgcn.inst [0x2c] global_store_dword "v[8:9], v20, off offset:20"
    amdgcn.s_endpgm [0x30]
  }

  // CHECK-LABEL: amdgcn.kernel @indexed_is_not_a_self_move
  amdgcn.kernel @indexed_is_not_a_self_move attributes {descriptor = {}} {
    // With VGPR indexing on, `v_mov_b32 v28, v28` reads v[28 + s24]: it
    // stays (rocBLAS trsm; deleting it made the kernel NOT EQUIVALENT).
    // CHECK: s_set_gpr_idx_on "s24, gpr_idx(SRC0)"
    // CHECK-NEXT: v_mov_b32_e32 "v28, v28"
    // CHECK-NEXT: s_set_gpr_idx_off
    amdgcn.inst [0x0] s_set_gpr_idx_on "s24, gpr_idx(SRC0)"
    amdgcn.inst [0x8] v_mov_b32_e32 "v28, v28"
    amdgcn.inst [0xc] s_set_gpr_idx_off ""
    amdgcn.inst [0x10] global_store_dword "v[8:9], v28, off"
    amdgcn.s_endpgm [0x18]
  }
}

// LOG: fused [0x0] v_lshlrev_b32_e32 v7, 2, v1 and [0x4] v_add_u32_e32 v2, v7, v3 into v_lshl_add_u32 v2, v1, 2, v3
// LOG: refused: erasing [0x0] v_lshlrev_b32_e32 v7, 2, v1: its result v7 is still read afterwards
// LOG: erasing [0x8] v_mov_b32_e32 v28, v28 as redundant: it does not repeat its own source with everything it reads unchanged
// LOG: amdgcn-peephole: 2 function(s) changed, fused 4, deleted 2, 2 refused
