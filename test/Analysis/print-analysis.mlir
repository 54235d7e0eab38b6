// amdgcn-print-analysis: the dependence graph, hazards, memory ops in
// flight, liveness and pressure that passes and proposers see.
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=deps}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=DEPS
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=hazards}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=HAZ
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=waits}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WAITS
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=liveness}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=LIVE
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=pressure function=k}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=PRESSURE
// RUN: asmevo-opt %s --pipeline='amdgcn-print-analysis{what=dot}' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=DOT

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v0, v[2:3], off"
    amdgcn.inst [0x8] v_readfirstlane_b32 "s4, v1"
    amdgcn.cbranch [0xc] s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.inst [0x14] v_add_u32_e32 "v1, v0, v0"
    amdgcn.inst [0x18] global_load_dword "v5, v6, s[4:5]"
    amdgcn.s_waitcnt [0x20] vmcnt(0)
    amdgcn.inst [0x24] global_store_dword "v[2:3], v5, off"
    amdgcn.fallthrough ^bb2
  ^bb2:
    amdgcn.s_endpgm [0x2c]
  }
}

// DEPS: @k:
// DEPS: ^bb0 dependences (3 ops):
// DEPS: control: [0x8] v_readfirstlane_b32 s4, v1 must stay before [0xc] s_cbranch_scc1
// DEPS: ^bb1 dependences (6 ops):
// DEPS: RAW on v5: [0x18] global_load_dword v5, v6, s[4:5] must stay before [0x24] global_store_dword v[2:3], v5, off
// DEPS: memory on mem.global: [0x18] global_load_dword v5, v6, s[4:5] must stay before [0x24] global_store_dword v[2:3], v5, off
// DEPS: wait before fence: [0x10] s_waitcnt vmcnt(0) must stay before [0x24] global_store_dword v[2:3], v5, off
// DEPS: wait before use on v0: [0x10] s_waitcnt vmcnt(0) must stay before [0x14] v_add_u32_e32 v1, v0, v0 (the wait completes [0x0] global_load_dword v0, v[2:3], off)
// DEPS: wait count: [0x18] global_load_dword v5, v6, s[4:5] must stay before [0x20] s_waitcnt vmcnt(0)

// HAZ: VIOLATED valu-sgpr-vmem: [0x8] v_readfirstlane_b32 s4, v1 -> [0x18] global_load_dword v5, v6, s[4:5]: needs 5, has 3

// WAITS: ^bb0 in flight at entry: nothing
// WAITS: ^bb1 in flight at entry:
// WAITS-NEXT: [0x0] global_load_dword v0, v[2:3], off (vmcnt in order, 0 younger)
// WAITS: ^bb2 in flight at entry:
// WAITS-NEXT: [0x0] global_load_dword v0, v[2:3], off (vmcnt in order, 0 younger)
// WAITS-NEXT: [0x24] global_store_dword v[2:3], v5, off (vmcnt in order, 0 younger)

// LIVE: ^bb0 live in: v[1:3], v6, s5, exec, scc
// LIVE: ^bb0 live out: v0, v[2:3], v6, s[4:5], exec
// LIVE: ^bb2 live in:{{ *$}}

// PRESSURE: max pressure: SGPR 2, VGPR 5, AGPR 0

// DOT: digraph deps {
// DOT: n0 -> n2 [label="control"];
