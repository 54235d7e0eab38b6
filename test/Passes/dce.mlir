// amdgcn-dce: erase instructions without side effects whose results are
// never read.
// RUN: asmevo-opt %s --pipeline='amdgcn-dce{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// RUN: asmevo-opt %s --pipeline='amdgcn-dce{loads=false}' -o - | FileCheck %s --check-prefix=NOLOADS

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @chain
  amdgcn.kernel @chain attributes {descriptor = {}} {
    // v5 feeds only v6, which nothing reads: both go (two rounds); the
    // store and what it reads stay.
    // CHECK: v_mov_b32_e32 "v1, 1"
    // CHECK-NEXT: global_store_dword "v[2:3], v1, off"
    // CHECK-NEXT: amdgcn.s_endpgm
    amdgcn.inst [0x0] v_mov_b32_e32 "v5, 7"
    amdgcn.inst [0x4] v_add_u32_e32 "v6, v5, v5"
    amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0xc] global_store_dword "v[2:3], v1, off"
    amdgcn.s_endpgm [0x14]
  }

  // CHECK-LABEL: amdgcn.kernel @dead_load
  amdgcn.kernel @dead_load attributes {descriptor = {}} {
    // The loaded value is never used: the load goes (its s_waitcnt is left
    // for amdgcn-waitcnt-relax; the wait counts are re-verified).
    // CHECK-NOT: global_load_dword
    // NOLOADS-LABEL: amdgcn.kernel @dead_load
    // NOLOADS: global_load_dword "v0, v[2:3], off"
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.s_waitcnt [0x8] vmcnt(0)
    amdgcn.s_endpgm [0xc]
  }

  // CHECK-LABEL: amdgcn.kernel @partial_exec
  amdgcn.kernel @partial_exec attributes {descriptor = {}} {
    // Under a partial EXEC the second write of v1 leaves the inactive
    // lanes' first value live: the first write is not dead.
    // CHECK: v_mov_b32_e32 "v1, 1"
    // CHECK: v_mov_b32_e32 "v1, 2"
    amdgcn.inst [0x0] s_and_saveexec_b64 "s[0:1], vcc"
    amdgcn.inst [0x4] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0x8] s_mov_b64 "exec, s[0:1]"
    amdgcn.inst [0xc] s_and_saveexec_b64 "s[0:1], s[4:5]"
    amdgcn.inst [0x10] v_mov_b32_e32 "v1, 2"
    amdgcn.inst [0x14] s_mov_b64 "exec, s[0:1]"
    amdgcn.inst [0x18] global_store_dword "v[2:3], v1, off"
    amdgcn.s_endpgm [0x20]
  }

  // CHECK-LABEL: amdgcn.kernel @side_effects
  amdgcn.kernel @side_effects attributes {descriptor = {}} {
    // Results unused, but reading the clock, the hardware registers and
    // messages are effects: all stay.
    // CHECK: s_memtime
    // CHECK-NEXT: s_getreg_b32
    // CHECK-NEXT: s_waitcnt
    amdgcn.inst [0x0] s_memtime "s[4:5]"
    amdgcn.inst [0x8] s_getreg_b32 "s2, hwreg(HW_REG_MODE)"
    amdgcn.s_waitcnt [0xc] lgkmcnt(0)
    amdgcn.s_endpgm [0x10]
  }

  // CHECK-LABEL: amdgcn.kernel @partial_writes
  amdgcn.kernel @partial_writes attributes {descriptor = {}} {
    // A conditional move and a d16 load keep part of the old value (LLVM's
    // operand lists do not say they read it): the first writes stay.
    // CHECK: s_mov_b32 "s4, 1"
    // CHECK: s_cmovk_i32 "s4, 0x4"
    // CHECK: v_mov_b32_e32 "v1, 0"
    // CHECK: global_load_short_d16_hi "v1, v[2:3], off"
    amdgcn.inst [0x0] s_mov_b32 "s4, 1"
    amdgcn.inst [0x4] s_cmp_eq_u32 "s5, 0"
    amdgcn.inst [0x8] s_cmovk_i32 "s4, 0x4"
    amdgcn.inst [0xc] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x10] global_load_short_d16_hi "v1, v[2:3], off"
    amdgcn.s_waitcnt [0x18] vmcnt(0)
    amdgcn.inst [0x1c] global_store_dword "v[2:3], v1, off"
    amdgcn.inst [0x24] s_store_dword "s4, s[6:7], 0x0"
    amdgcn.s_endpgm [0x2c]
  }

  // CHECK-LABEL: amdgcn.kernel @indexed
  amdgcn.kernel @indexed attributes {descriptor = {}} {
    // Between s_set_gpr_idx_on and _off the VGPR operands are offsets from
    // the index: "v0" may be any VGPR, so the write is not dead.
    // CHECK: s_set_gpr_idx_on "s8, gpr_idx(DST)"
    // CHECK-NEXT: v_mov_b32_e32 "v0, v20"
    amdgcn.inst [0x0] s_set_gpr_idx_on "s8, gpr_idx(DST)"
    amdgcn.inst [0x8] v_mov_b32_e32 "v0, v20"
    amdgcn.inst [0xc] s_set_gpr_idx_off ""
    amdgcn.inst [0x10] global_store_dword "v[2:3], v5, off"
    amdgcn.s_endpgm [0x18]
  }

  // CHECK-LABEL: amdgcn.func @device_function
  amdgcn.func @device_function {
    // At a return every register is live (calling convention): kept.
    // CHECK: v_mov_b32_e32 "v0, 1"
    amdgcn.inst [0x0] v_mov_b32_e32 "v0, 1"
    amdgcn.indirect [0x4] s_setpc_b64 "s[30:31]"
  }
}

// SUMMARY: amdgcn-dce: 2 function(s) changed, instructions removed 3
