// The worked example of docs/WritingPasses.md: amdgcn-merge-nops.
// RUN: asmevo-opt %s --pipeline='amdgcn-merge-nops{summary=1}' -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
//
// The guide shows this file and the pass verbatim; keep them in sync.
// RUN: sed -n '/^<!-- BEGIN merge-nops.mlir -->$/,/^<!-- END merge-nops.mlir -->$/p' %S/../../docs/WritingPasses.md | sed '1,2d;$d' | sed '$d' | diff - %s
// RUN: sed -n '/^<!-- BEGIN MergeNops.cpp -->$/,/^<!-- END MergeNops.cpp -->$/p' %S/../../docs/WritingPasses.md | sed '1,2d;$d' | sed '$d' | diff - %S/../../lib/Passes/MergeNops.cpp

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  // CHECK-LABEL: amdgcn.kernel @merge
  amdgcn.kernel @merge attributes {descriptor = {}} {
    // 2 + 3 + 1 wait states become one s_nop 5 (6 wait states), keeping
    // the first one's id.
    // CHECK: v_readfirstlane_b32 "s4, v1"
    // CHECK-NEXT: amdgcn.s_nop [0x4] 5
    // CHECK-NEXT: global_load_dword
    amdgcn.inst [0x0] v_readfirstlane_b32 "s4, v1"
    amdgcn.s_nop [0x4] 1
    amdgcn.s_nop [0x8] 2
    amdgcn.s_nop [0xc] 0
    amdgcn.inst [0x10] global_load_dword "v0, v2, s[4:5]"
    amdgcn.s_waitcnt [0x18] vmcnt(0)
    amdgcn.s_endpgm [0x1c]
  }

  // More than 16 wait states do not fit in one s_nop: kept apart.
  // CHECK-LABEL: amdgcn.kernel @too_many
  // CHECK: amdgcn.s_nop [0x0] 15
  // CHECK-NEXT: amdgcn.s_nop [0x4] 3
  amdgcn.kernel @too_many attributes {descriptor = {}} {
    amdgcn.s_nop [0x0] 15
    amdgcn.s_nop [0x4] 3
    amdgcn.s_endpgm [0x8]
  }
}

// SUMMARY: amdgcn-merge-nops: 1 function(s) changed, s_nops merged 2
