// amdgcn-hazard: s_nops where the hazard table requires wait states.
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{skip=valu-sgpr-vmem,mfma-valu-read}' -o - | FileCheck %s --check-prefix=SKIP
// RUN: asmevo-opt %s --pipeline='amdgcn-hazard{fix-carry-reads=1}' -o - | FileCheck %s --check-prefix=CARRY

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @valu_sgpr_vmem
  // SKIP-LABEL: amdgcn.kernel @valu_sgpr_vmem
  // SKIP: v_mov_b32_e32 "v3, 0"
  // SKIP-NEXT: global_load_dword
  amdgcn.kernel @valu_sgpr_vmem attributes {descriptor = {}} {
    // VALU writes s4, VMEM reads s[4:5]: 5 wait states, one is there.
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: v_mov_b32_e32 "v3, 0"
    // CHECK-NEXT: amdgcn.s_nop 3
    // CHECK-NEXT: global_load_dword "v0, v2, s[4:5]"
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.s_endpgm [0x14]
  }

  // CHECK-LABEL: amdgcn.kernel @mfma_result_read
  amdgcn.kernel @mfma_result_read attributes {descriptor = {}} {
    // An 8-pass XDL MFMA result read by a VALU: passes + 3 = 11; more than
    // one s_nop can give (16), so one s_nop 10.
    // CHECK: v_mfma_f32_32x32x8_f16
    // CHECK-NEXT: amdgcn.s_nop 10
    // CHECK-NEXT: v_accvgpr_read_b32 "v0, a3"
    amdgcn.inst [0x0] v_mfma_f32_32x32x8_f16 "a[0:15], v[0:1], v[2:3], a[0:15]"
    amdgcn.inst [0x8] v_accvgpr_read_b32 "v0, a3"
    amdgcn.s_endpgm [0xc]
  }

  // CHECK-LABEL: amdgcn.kernel @across_blocks
  amdgcn.kernel @across_blocks attributes {descriptor = {}} {
    // The producer is in the predecessor: the path has s_branch (1), the
    // rule needs 4.
    // CHECK: ^bb1:
    // CHECK-NEXT: amdgcn.s_nop 2
    // CHECK-NEXT: v_div_fmas_f32
    amdgcn.inst [0x0] v_cmp_eq_u32_e32 "vcc, v0, v1"
    amdgcn.s_branch [0x4] ^bb1
  ^bb1:
    amdgcn.inst [0x8] v_div_fmas_f32 "v0, v1, v2, v3"
    amdgcn.s_endpgm [0x10]
  }

  // CHECK-LABEL: amdgcn.kernel @satisfied
  amdgcn.kernel @satisfied attributes {descriptor = {}} {
    // Enough independent instructions already: nothing to add.
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: amdgcn.s_nop [0x4] 4
    // CHECK-NEXT: global_load_dword
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.s_nop [0x4] 4
    amdgcn.inst [0x8] global_load_dword "v0, v2, s[4:5]"
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.s_endpgm [0x14]
  }

  // CHECK-LABEL: amdgcn.kernel @carry_reads
  // CARRY-LABEL: amdgcn.kernel @carry_reads
  amdgcn.kernel @carry_reads attributes {descriptor = {}} {
    // valu-sgpr-valu where the consumer reads VCC or s[6:7] only as the
    // carry-in of a 64-bit add (Tensile's address arithmetic): left as the
    // input had it (AMD's gfx94x table: no wait states for a carry read);
    // fix-carry-reads=1 follows LLVM (2 wait states).
    // CHECK: v_add_co_u32_e32 "v2, vcc, v0, v4"
    // CHECK-NEXT: v_addc_co_u32_e32 "v3, vcc, v1, v5, vcc"
    // CHECK-NEXT: v_add_co_u32_e64 "v6, s[6:7], v0, v4"
    // CHECK-NEXT: v_addc_co_u32_e64 "v7, s[8:9], v1, 0, s[6:7]"
    // CARRY: v_add_co_u32_e32 "v2, vcc, v0, v4"
    // CARRY-NEXT: amdgcn.s_nop 1
    // CARRY-NEXT: v_addc_co_u32_e32 "v3, vcc, v1, v5, vcc"
    // CARRY-NEXT: v_add_co_u32_e64 "v6, s[6:7], v0, v4"
    // CARRY-NEXT: amdgcn.s_nop 1
    // CARRY-NEXT: v_addc_co_u32_e64 "v7, s[8:9], v1, 0, s[6:7]"
    amdgcn.inst [0x0] v_add_co_u32_e32 "v2, vcc, v0, v4"
    amdgcn.inst [0x4] v_addc_co_u32_e32 "v3, vcc, v1, v5, vcc"
    amdgcn.inst [0x8] v_add_co_u32_e64 "v6, s[6:7], v0, v4"
    amdgcn.inst [0x10] v_addc_co_u32_e64 "v7, s[8:9], v1, 0, s[6:7]"
    // Not a carry: the mask of v_cndmask; the s_nop goes in.
    // CHECK-NEXT: v_cmp_lt_u32_e64 "s[10:11], v6, v10"
    // CHECK-NEXT: amdgcn.s_nop 1
    // CHECK-NEXT: v_cndmask_b32_e64 "v6, v10, v6, s[10:11]"
    amdgcn.inst [0x18] v_cmp_lt_u32_e64 "s[10:11], v6, v10"
    amdgcn.inst [0x20] v_cndmask_b32_e64 "v6, v10, v6, s[10:11]"
    amdgcn.inst [0x28] global_store_dwordx4 "v[20:21], v[2:5], off"
    amdgcn.inst [0x30] global_store_dwordx4 "v[20:21], v[6:9], off"
    amdgcn.s_endpgm [0x38]
  }

  // A function recovery could not model is left alone.
  // CHECK-LABEL: amdgcn.func @opaque
  // CHECK: v_cmpx_eq_u32_e32
  // CHECK-NEXT: v_mov_b32_dpp
  amdgcn.func @opaque attributes {not_relocatable = "test"} {
    amdgcn.inst [0x0] v_cmpx_eq_u32_e32 "v0, v1"
    amdgcn.inst [0x4] v_mov_b32_dpp "v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"
    amdgcn.indirect [0xc] s_setpc_b64 "s[30:31]"
  }
}

// SUMMARY: amdgcn-hazard: 4 function(s) changed, hazards fixed 4, wait states added 20, carry reads left as in the input 2
