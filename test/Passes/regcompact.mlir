// amdgcn-regcompact: squeeze unused aligned register groups out, lower the
// descriptor and metadata counts.
// RUN: asmevo-opt %s --pipeline='amdgcn-regcompact{summary=1 verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // v0 (workitem id) and s[0:1] (kernarg pointer) are live at entry and
  // keep their numbers; v28/v29 move down to v2/v3 (13 unused pairs), s20
  // to s8 (3 unused groups of 4: s[8:19]), s[4:5] stays.
  // (Descriptor fields that become zero are omitted: accum_offset 4 and one
  // block of 8 VGPRs encode as 0.)
  // CHECK-LABEL: amdgcn.kernel @holes
  // CHECK-SAME: descriptor = {granulated_wavefront_sgpr_count = 1 : i64, user_sgpr_count = 2 : i64}
  // s0..s8 plus the 6 extra SGPRs of gfx942 (architected flat scratch):
  // 15, above the 24 - 12 the (hand-written) original count would give.
  // CHECK-SAME: ".sgpr_count" = 15 : i64
  // CHECK-SAME: ".vgpr_count" = 4 : i64
  // CHECK: s_load_dwordx2 "s[4:5], s[0:1], 0x0"
  // CHECK: v_mov_b32_e32 "v2, s4"
  // CHECK-NEXT: amdgcn.inst [0x10] s_mov_b32 "s8, 5"
  // CHECK-NEXT: amdgcn.inst [0x14] v_add_u32_e32 "v3, s8, v0"
  // CHECK-NEXT: amdgcn.inst [0x18] global_store_dword "v[2:3], v3, off"
  amdgcn.kernel @holes attributes {addr = 0 : i64, descriptor = {accum_offset = 7 : i64, granulated_wavefront_sgpr_count = 3 : i64, granulated_workitem_vgpr_count = 3 : i64, user_sgpr_count = 2 : i64}, metadata = {".agpr_count" = 0 : i64, ".sgpr_count" = 24 : i64, ".vgpr_count" = 30 : i64}} {
    amdgcn.inst [0x0] s_load_dwordx2 "s[4:5], s[0:1], 0x0"
    amdgcn.s_waitcnt [0x8] lgkmcnt(0)
    amdgcn.inst [0xc] v_mov_b32_e32 "v28, s4"
    amdgcn.inst [0x10] s_mov_b32 "s20, 5"
    amdgcn.inst [0x14] v_add_u32_e32 "v29, s20, v0"
    amdgcn.inst [0x18] global_store_dword "v[28:29], v29, off"
    amdgcn.s_endpgm [0x20]
  }

  // Nothing to squeeze: unchanged.
  // CHECK-LABEL: amdgcn.kernel @dense
  // CHECK: v_add_u32_e32 "v1, v0, v0"
  amdgcn.kernel @dense attributes {addr = 256 : i64, descriptor = {}, metadata = {".vgpr_count" = 2 : i64}} {
    amdgcn.inst [0x100] v_add_u32_e32 "v1, v0, v0"
    amdgcn.s_endpgm [0x104]
  }

  // A call, but no device function in the code object: not renamed.
  // CHECK-LABEL: amdgcn.kernel @calls
  // CHECK: v_mov_b32_e32 "v40, 0"
  amdgcn.kernel @calls attributes {addr = 512 : i64, descriptor = {}} {
    amdgcn.inst [0x200] v_mov_b32_e32 "v40, 0"
    amdgcn.inst [0x204] s_swappc_b64 "s[30:31], s[4:5]"
    amdgcn.s_endpgm [0x208]
  }
}

// LOG: amdgcn-regcompact: @holes: VGPR 30 -> 4, SGPR 24 -> 15, AGPR 0 -> 0; waves/SIMD (VGPR limit) 8 -> 8
// LOG: amdgcn-regcompact: @calls skipped: calls, but the code object has no device function they can reach
// LOG: amdgcn-regcompact: 1 function(s) changed, instructions renamed 4, VGPRs saved 26, SGPRs saved 12, AGPRs saved 0
