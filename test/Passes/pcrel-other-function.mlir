// Legality: a PC-relative literal of another function (here @f computes
// addresses inside the kernels) lands on the instruction it names or on new
// ops put right before it. A target first in its block stays first (new ops
// may go before it); a block entered in the middle is not edited at all.
// RUN: echo '{"version": 1, "edits": [{"action": "move", "id": "0x10c", "before": "0x108"}]}' > %t.first.json
// RUN: not asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.first.json}' -o - 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: edit 0 (move) refused: structure: [0x108] v_mov_b32_e32 v2, 0 is the target of a PC-relative reference from @f: it must stay first in its block
// RUN: echo '{"version": 1, "edits": [{"action": "delete", "id": "0x108"}]}' > %t.del.json
// RUN: not asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.del.json}' -o - 2>&1 | FileCheck %s --check-prefix=DELETE
// DELETE: edit 0 (delete) refused: structure: [0x108] v_mov_b32_e32 v2, 0 is the target of a PC-relative reference from @f: it must stay first in its block
// RUN: echo '{"version": 1, "edits": [{"action": "insert", "before": "0x108", "text": "s_nop 0"}]}' > %t.insert.json
// RUN: asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.insert.json}' -o - | FileCheck %s --check-prefix=INSERT
// INSERT: amdgcn.s_nop 0
// INSERT-NEXT: amdgcn.inst [0x108] v_mov_b32_e32 "v2, 0"
// RUN: echo '{"version": 1, "edits": [{"action": "move", "id": "0x20c", "before": "0x208"}]}' > %t.mid.json
// RUN: not asmevo-opt %s --pipeline='amdgcn-apply-edits{edits=%t.mid.json}' -o - 2>&1 | FileCheck %s --check-prefix=MIDDLE
// MIDDLE: edit 0 (move) refused: structure: [0x210] v_mov_b32_e32 v4, 0 is the target of a PC-relative reference from @f: its block is entered in the middle there and is not edited
// The passes meet the same refusal: amdgcn-dce would delete the dead move
// at 0x10c but leaves the block of @m2 alone.
// RUN: asmevo-opt %s --pipeline='amdgcn-dce' -o - | FileCheck %s --check-prefix=DCE
// DCE-LABEL: amdgcn.kernel @m1
// DCE-NOT: [0x10c]
// DCE-LABEL: amdgcn.kernel @m2
// DCE: amdgcn.inst [0x20c] v_mov_b32_e32 "v3, 0"

amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {
  amdgcn.func @f attributes {addr = 0 : i64} {
    amdgcn.inst [0x0] s_getpc_b64 "s[4:5]"
    amdgcn.inst [0x4] s_add_u32 "s4, s4, 0x104" pcrel(lo, 0x108 from 0x0)
    amdgcn.inst [0xc] s_addc_u32 "s5, s5, 0" pcrel(hi, 0x108 from 0x0)
    amdgcn.inst [0x14] s_getpc_b64 "s[6:7]"
    amdgcn.inst [0x18] s_add_u32 "s6, s6, 0x1f4" pcrel(lo, 0x210 from 0x14)
    amdgcn.inst [0x20] s_addc_u32 "s7, s7, 0" pcrel(hi, 0x210 from 0x14)
    amdgcn.indirect [0x28] s_setpc_b64 "s[30:31]"
  }
  amdgcn.kernel @m1 attributes {addr = 256 : i64, descriptor = {}} {
    amdgcn.inst [0x100] v_mov_b32_e32 "v1, 0"
    amdgcn.fallthrough ^bb1
  ^bb1:
    amdgcn.inst [0x108] v_mov_b32_e32 "v2, 0"
    amdgcn.inst [0x10c] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x110] global_store_dword "v[8:9], v2, off"
    amdgcn.s_endpgm [0x118]
  }
  amdgcn.kernel @m2 attributes {addr = 512 : i64, descriptor = {}} {
    amdgcn.inst [0x200] v_mov_b32_e32 "v1, 0"
    amdgcn.inst [0x208] v_mov_b32_e32 "v2, 0"
    amdgcn.inst [0x20c] v_mov_b32_e32 "v3, 0"
    amdgcn.inst [0x210] v_mov_b32_e32 "v4, 0"
    amdgcn.inst [0x214] global_store_dword "v[8:9], v2, off"
    amdgcn.s_endpgm [0x21c]
  }
}
