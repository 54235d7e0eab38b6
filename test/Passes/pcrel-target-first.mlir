// Legality: a PC-relative literal (a long branch, a jump table) names its
// target by the id of the instruction there, and emission lands it on that
// instruction or on new ops put right before it. Moving another instruction
// in front of the target would make the branch skip it: refused. New ops
// may go before it.
// RUN: echo '{"version": 1, "edits": [{"action": "move", "id": "0x1c", "before": "0x18"}]}' > %t.move.json
// RUN: not asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.move.json}' -o - 2>&1 | FileCheck %s --check-prefix=MOVE
// MOVE: edit 0 (move) refused: structure: [0x18] v_mov_b32_e32 v1, 0 is the target of a PC-relative reference (jump table or long branch): it must stay first in its block
// RUN: echo '{"version": 1, "edits": [{"action": "insert", "before": "0x18", "text": "s_nop 0"}]}' > %t.insert.json
// RUN: asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.insert.json}' -o - | FileCheck %s --check-prefix=INSERT
// INSERT: ^bb1:
// INSERT-NEXT: amdgcn.s_nop 0
// INSERT-NEXT: amdgcn.inst [0x18] v_mov_b32_e32 "v1, 0"

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  amdgcn.kernel @k attributes {addr = 0 : i64, descriptor = {}} {
    amdgcn.inst [0x0] s_getpc_b64 "s[22:23]"
    amdgcn.inst [0x4] s_add_u32 "s22, s22, 0x14" pcrel(lo, 0x18 from 0x0)
    amdgcn.inst [0xc] s_addc_u32 "s23, s23, 0" pcrel(hi, 0x18 from 0x0)
    amdgcn.indirect [0x14] s_setpc_b64 "s[22:23]" -> [^bb1]
  ^bb1:
    amdgcn.inst [0x18] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x1c] v_mov_b32_e32 "v2, 0"
    amdgcn.s_endpgm [0x20]
  }
}
