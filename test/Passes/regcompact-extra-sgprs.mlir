// amdgcn-regcompact on gfx90a: the new SGPR count is the renamed SGPRs plus
// the extra SGPRs LLVM reserves (IsaInfo::getNumExtraSGPRs): none without
// VCC, FLAT_SCRATCH and XNACK, 2 for VCC, 4 with XNACK on or unspecified.
// (A flat +6 would keep one more block of 8 SGPRs with XNACK off.)
// RUN: asmevo-opt %s --pipeline='amdgcn-regcompact{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err
// RUN: sed 's/:xnack-//' %s > %t.any.mlir
// RUN: asmevo-opt %t.any.mlir --pipeline='amdgcn-regcompact{summary=1}' -o - 2>%t.any.err | FileCheck %s --check-prefix=ANY
// RUN: FileCheck %s --check-prefix=ANYLOG < %t.any.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx90a:xnack-" {
  // s[0:1] (kernarg pointer) stay; s20 moves to s4: 5 numbered SGPRs.
  // CHECK-LABEL: amdgcn.kernel @novcc
  // CHECK-SAME: descriptor = {user_sgpr_count = 2 : i64}
  // LOG: @novcc: VGPR 2 -> 2, SGPR 21 -> 5,
  // ANY-LABEL: amdgcn.kernel @novcc
  // ANY-SAME: descriptor = {granulated_wavefront_sgpr_count = 1 : i64, user_sgpr_count = 2 : i64}
  // ANYLOG: @novcc: VGPR 2 -> 2, SGPR 21 -> 9,
  amdgcn.kernel @novcc attributes {addr = 0 : i64, descriptor = {granulated_wavefront_sgpr_count = 3 : i64, user_sgpr_count = 2 : i64}, metadata = {".vgpr_count" = 2 : i64}} {
    amdgcn.inst [0x0] s_mov_b32 "s20, 5"
    amdgcn.inst [0x4] v_add_u32_e32 "v1, s20, v0"
    amdgcn.s_endpgm [0x8]
  }

  // VCC written: 5 + 2 with XNACK off, 5 + 4 with XNACK unspecified.
  // CHECK-LABEL: amdgcn.kernel @vcc
  // CHECK-SAME: descriptor = {user_sgpr_count = 2 : i64}
  // LOG: @vcc: VGPR 2 -> 1, SGPR 21 -> 7,
  // ANYLOG: @vcc: VGPR 2 -> 1, SGPR 21 -> 9,
  amdgcn.kernel @vcc attributes {addr = 256 : i64, descriptor = {granulated_wavefront_sgpr_count = 3 : i64, user_sgpr_count = 2 : i64}, metadata = {".vgpr_count" = 2 : i64}} {
    amdgcn.inst [0x100] s_mov_b32 "s20, 5"
    amdgcn.inst [0x104] v_cmp_eq_u32_e32 "vcc, s20, v0"
    amdgcn.s_endpgm [0x108]
  }
}
