// asmevo-opt --only-kernels=RE runs the pipeline only on the kernels and
// functions whose name matches; the others are emitted as recovered, and
// the attribute that holds them back (amdgcn.frozen) is gone afterwards.
// RUN: asmevo-opt %s --pipeline=amdgcn-dce --only-kernels='^keep' -o - | FileCheck %s
// RUN: asmevo-opt %s --pipeline=amdgcn-dce --only-kernels='^keep' -o - | FileCheck %s --check-prefix=FROZEN
// RUN: asmevo-opt %s --pipeline=amdgcn-dce -o - | FileCheck %s --check-prefix=ALL
// RUN: not asmevo-opt %s --pipeline=amdgcn-dce --only-kernels='^nothing$' -o - 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not asmevo-opt %s --pipeline=amdgcn-dce --only-kernels='(' -o - 2>&1 | FileCheck %s --check-prefix=BADRE

// FROZEN-NOT: frozen
// NONE: error: --only-kernels '^nothing$' matches no kernel or function of
// BADRE: error: invalid --only-kernels '(':

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @keep_a
  // CHECK-NOT: v_add_u32_e32
  // CHECK: global_store_dword
  // ALL-LABEL: amdgcn.kernel @keep_a
  // ALL-NOT: v_add_u32_e32
  amdgcn.kernel @keep_a attributes {descriptor = {}} {
    amdgcn.inst [0x0] v_mov_b32_e32 "v5, 7"
    amdgcn.inst [0x4] v_add_u32_e32 "v6, v5, v5"
    amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0xc] global_store_dword "v[2:3], v1, off"
    amdgcn.s_endpgm [0x14]
  }

  // The same dead code, not selected: it stays.
  // CHECK-LABEL: amdgcn.kernel @other
  // CHECK: v_mov_b32_e32 "v5, 7"
  // CHECK-NEXT: v_add_u32_e32 "v6, v5, v5"
  // ALL-LABEL: amdgcn.kernel @other
  // ALL-NOT: v_add_u32_e32
  // ALL: global_store_dword
  amdgcn.kernel @other attributes {descriptor = {}} {
    amdgcn.inst [0x0] v_mov_b32_e32 "v5, 7"
    amdgcn.inst [0x4] v_add_u32_e32 "v6, v5, v5"
    amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0xc] global_store_dword "v[2:3], v1, off"
    amdgcn.s_endpgm [0x14]
  }
}
