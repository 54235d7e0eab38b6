// amdgcn-regcompact in a kernel with calls: every register below the
// highest one a device function of the code object touches keeps its
// number (an indirect call may reach any of them); registers above move,
// and the legality check knows what a call reads and writes (the callees'
// registers) instead of treating it as reading everything.
// RUN: asmevo-opt %s --pipeline='amdgcn-regcompact{summary=1 verbose=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err
// A callee whose register use is not known (M0-relative): refused.
// RUN: sed 's/v_mov_b32_e32 "v3, 1"/s_movrels_b32 "s9, s10"/' %s > %t.unknown.mlir
// RUN: asmevo-opt %t.unknown.mlir --pipeline='amdgcn-regcompact{verbose=1}' -o - 2>&1 >/dev/null | FileCheck %s --check-prefix=UNKNOWN

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // The callee touches v3 and s[30:31] (and s9): v0..v3 and s0..s31 stay;
  // v40 moves to v4 (18 unused pairs); s32+ is unused.
  // CHECK-LABEL: amdgcn.kernel @calls
  // CHECK-SAME: ".vgpr_count" = 5 : i64
  // CHECK: v_mov_b32_e32 "v4, 0"
  // CHECK-NEXT: s_mov_b32 "s20, 5"
  // CHECK-NEXT: s_swappc_b64 "s[30:31], s[4:5]"
  // CHECK-NEXT: v_add_u32_e32 "v4, s20, v4"
  // CHECK-NEXT: v_add_u32_e32 "v1, v4, v0"
  // LOG: @calls: VGPR 41 -> 5, SGPR 40 -> 40,
  amdgcn.kernel @calls attributes {addr = 512 : i64, descriptor = {user_sgpr_count = 2 : i64}, metadata = {".sgpr_count" = 40 : i64, ".vgpr_count" = 41 : i64}} {
    amdgcn.inst [0x200] v_mov_b32_e32 "v40, 0"
    amdgcn.inst [0x204] s_mov_b32 "s20, 5"
    amdgcn.inst [0x208] s_swappc_b64 "s[30:31], s[4:5]"
    amdgcn.inst [0x20c] v_add_u32_e32 "v40, s20, v40"
    amdgcn.inst [0x210] v_add_u32_e32 "v1, v40, v0"
    amdgcn.s_endpgm [0x214]
  }

  // CHECK-LABEL: amdgcn.func @callee
  // CHECK: v_mov_b32_e32 "v3, 1"
  amdgcn.func @callee attributes {addr = 1024 : i64} {
    amdgcn.inst [0x400] v_mov_b32_e32 "v3, 1"
    amdgcn.inst [0x404] s_mov_b32 "s9, 1"
    amdgcn.indirect [0x408] s_setpc_b64 "s[30:31]"
  }
}

// UNKNOWN: amdgcn-regcompact: @calls skipped: a callee's register use is not known: [0x400] s_movrels_b32 s9, s10
