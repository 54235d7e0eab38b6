// amdgcn-nop-trim: keep exactly the wait states hazards need.
// RUN: asmevo-opt %s --pipeline='amdgcn-nop-trim{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: asmevo-opt %s --pipeline='amdgcn-nop-trim{keep-alignment=false}' -o - | FileCheck %s --check-prefix=NOALIGN

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @shrink
  amdgcn.kernel @shrink attributes {descriptor = {}} {
    // 5 needed, one instruction between: s_nop 7 (8) shrinks to s_nop 3 (4).
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: v_mov_b32_e32 "v3, 0"
    // CHECK-NEXT: amdgcn.s_nop [0x8] 3
    // CHECK-NEXT: global_load_dword
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.inst [0x4] v_mov_b32_e32 "v3, 0"
    amdgcn.s_nop [0x8] 7
    amdgcn.inst [0xc] global_load_dword "v0, v2, s[4:5]"
    amdgcn.s_waitcnt [0x14] vmcnt(0)
    amdgcn.s_endpgm [0x18]
  }

  // CHECK-LABEL: amdgcn.kernel @needed
  amdgcn.kernel @needed attributes {descriptor = {}} {
    // Exactly what the MFMA result read needs (11): kept.
    // CHECK: amdgcn.s_nop [0x8] 10
    amdgcn.inst [0x0] v_mfma_f32_32x32x8_f16 "a[0:15], v[0:1], v[2:3], a[0:15]"
    amdgcn.s_nop [0x8] 10
    amdgcn.inst [0xc] v_accvgpr_read_b32 "v0, a3"
    amdgcn.s_endpgm [0x10]
  }

  // CHECK-LABEL: amdgcn.kernel @useless
  amdgcn.kernel @useless attributes {descriptor = {}} {
    // No hazard around: deleted.
    // CHECK: v_add_u32_e32 "v0, v1, v2"
    // CHECK-NEXT: v_add_u32_e32 "v3, v0, v0"
    amdgcn.inst [0x0] v_add_u32_e32 "v0, v1, v2"
    amdgcn.s_nop [0x4] 3
    amdgcn.inst [0x8] v_add_u32_e32 "v3, v0, v0"
    amdgcn.s_endpgm [0xc]
  }

  // CHECK-LABEL: amdgcn.kernel @alignment
  amdgcn.kernel @alignment attributes {descriptor = {}} {
    // s_nops nothing branches to align the loop header: kept by default.
    // CHECK: ^bb1:  // no predecessors
    // CHECK-NEXT: amdgcn.s_nop [0x4] 0
    // NOALIGN-LABEL: amdgcn.kernel @alignment
    // NOALIGN: ^bb1:  // no predecessors
    // NOALIGN-NEXT: amdgcn.fallthrough
    amdgcn.s_branch [0x0] ^bb2
  ^bb1:
    amdgcn.s_nop [0x4] 0
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.s_endpgm [0x8]
  }

  // CHECK-LABEL: amdgcn.kernel @preload
  amdgcn.kernel @preload attributes {addr = 0 : i64, descriptor = {kernarg_preload_spec_length = 2 : i64}} {
    // Kernel arguments are preloaded: the first 256 bytes keep their
    // layout (firmware with preloading enters at +256).
    // CHECK: amdgcn.s_nop [0x8] 3
    amdgcn.inst [0x0] s_load_dwordx2 "s[2:3], s[0:1], 0x0"
    amdgcn.s_nop [0x8] 3
    amdgcn.s_waitcnt [0xc] lgkmcnt(0)
    amdgcn.s_endpgm [0x10]
  }
}

// SUMMARY: amdgcn-nop-trim: 2 function(s) changed, wait states removed 8, s_nops deleted 1
