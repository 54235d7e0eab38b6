// amdgcn-apply-edits: a JSON edit script through the legality checks.
// RUN: rm -rf %t && split-file %s %t
// RUN: asmevo-opt %t/input.mlir --pipeline='amdgcn-apply-edits{edits=%t/ok.json report=%t/ok.report summary=1}' -o - 2>%t/ok.err | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=OKSUM < %t/ok.err
// RUN: FileCheck %s --check-prefix=OKREPORT < %t/ok.report
// RUN: not asmevo-opt %t/input.mlir --pipeline='amdgcn-apply-edits{edits=%t/bad.json report=%t/bad.report}' -o /dev/null 2>%t/bad.err
// RUN: FileCheck %s --check-prefix=BAD < %t/bad.err
// RUN: FileCheck %s --check-prefix=BADREPORT < %t/bad.report
// RUN: asmevo-opt %t/input.mlir --pipeline='amdgcn-apply-edits{edits=%t/atomic.json allow-refusals=1}' -o - 2>%t/atomic.err | FileCheck %s --check-prefix=ATOMIC
// RUN: FileCheck %s --check-prefix=ATOMICERR < %t/atomic.err

// OK: amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
// OK-NEXT: amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
// OK-NEXT: amdgcn.s_waitcnt [0x10] vmcnt(0)
// OK-NEXT: amdgcn.inst v_mov_b32_e32 "v10, 3"
// OK-NEXT: amdgcn.s_nop 0
// OK-NEXT: amdgcn.inst v_add_u32_e32 "v2, v1, v0"
// OK-NEXT: amdgcn.inst [0x18] global_store_dword
// OKSUM: amdgcn-apply-edits: 4 applied, 0 refused, 0 error(s)
// OKREPORT: "applied": 4,
// BAD: edit 0 (move) refused: dependence: dependence reversed: wait before use on v0: [0x10] s_waitcnt vmcnt(0) must stay before [0x14] v_add_u32_e32 v2, v0, v1 (the wait completes [0x0] global_load_dword v0, v[4:5], off)
// BAD: edit 1 (delete) refused: side effect: erasing [0x18] global_store_dword v[4:5], v2, off removes a memory write and no new op of the same kind replaces it
// BAD: edit 2 (delete) refused: live value: erasing [0x8] v_mov_b32_e32 v1, 1: its result v1 is still read afterwards
// BAD: edit 3 (insert) error: cannot assemble 'v_bogus v0'
// BAD: edit 4 (delete) error: no instruction has id 0x1234
// BAD: edit 5 (insert) error: branches and terminators cannot be inserted ('s_branch 0')
// BADREPORT: "applied": 0,
// BADREPORT: "errors": 3,
// BADREPORT: "refused": 3
// The second edit is refused, so neither is applied.
// ATOMIC: amdgcn.inst [0xc] v_mov_b32_e32 "v9, 5"
// ATOMICERR: edit 0 (delete) refused: the atomic script was refused: @k: live value: erasing [0x8] v_mov_b32_e32 v1, 1: its result v1 is still read afterwards

//--- input.mlir
amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  amdgcn.kernel @k attributes {descriptor = {}} {
    amdgcn.inst [0x0] global_load_dword "v0, v[4:5], off"
    amdgcn.inst [0x8] v_mov_b32_e32 "v1, 1"
    amdgcn.inst [0xc] v_mov_b32_e32 "v9, 5"
    amdgcn.s_waitcnt [0x10] vmcnt(0)
    amdgcn.inst [0x14] v_add_u32_e32 "v2, v0, v1"
    amdgcn.inst [0x18] global_store_dword "v[4:5], v2, off"
    amdgcn.s_endpgm [0x20]
  }
}

//--- ok.json
{
  "version": 1,
  "edits": [
    {"action": "delete", "id": "0xc"},
    {"action": "move", "id": "0x8", "before": "0x0"},
    {"action": "insert", "before": "0x14", "text": ["v_mov_b32_e32 v10, 3", "s_nop 0"]},
    {"action": "replace", "ids": ["0x14"],
     "text": "amdgcn.inst v_add_u32_e32 \"v2, v1, v0\""}
  ]
}

//--- bad.json
{
  "edits": [
    {"action": "move", "id": "0x14", "before": "0x10"},
    {"action": "delete", "id": "0x18"},
    {"action": "delete", "id": "0x8"},
    {"action": "insert", "before": "0x14", "text": "v_bogus v0"},
    {"action": "delete", "id": "0x1234"},
    {"action": "insert", "after": "0x8", "text": "s_branch 0"}
  ]
}

//--- atomic.json
{
  "atomic": true,
  "edits": [
    {"action": "delete", "id": "0xc"},
    {"action": "delete", "id": "0x8"}
  ]
}

