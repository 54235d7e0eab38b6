#!/usr/bin/env python3
"""A gfx942 kernel whose body is one basic block of about N instructions,
as MLIR (the amdgcn dialect), for timing the rewrite passes on long blocks
(bench/pipeline-scaling.sh: sizes such as 1k, 4k, 16k).

The block repeats a unit shaped like Tensile's unrolled loop bodies: loads
and waits, MFMAs and reads of their results, and the address arithmetic
every pass of the default pipeline works on: shift-then-add, add-then-add
and and-then-or pairs (amdgcn-peephole fuses them), a move of a register
to itself and a repeated instruction (it deletes them), wait states for a VALU-written SGPR read by a load, and an
s_waitcnt per unit.

  bench/long-block.py N > block.mlir
"""
import sys


def unit(k):
    off = (k % 16) * 16
    acc = 4 * (k % 4)
    return [
        ("global_load_dwordx4", "v[40:43], v[2:3], off offset:%d" % off, 8),
        ("v_lshlrev_b32_e32", "v10, 2, v1", 4),
        ("v_add_u32_e32", "v11, v10, v3", 4),
        ("v_add_u32_e32", "v12, v4, v5", 4),
        ("v_add_u32_e32", "v13, v12, v6", 4),
        ("v_mov_b32_e32", "v7, v7", 4),
        ("v_and_b32_e32", "v14, v1, v9", 4),
        ("v_or_b32_e32", "v15, v14, v8", 4),
        ("v_readfirstlane_b32", "s4, v11", 4),
        ("s_nop", "4", 4),
        ("global_load_dword", "v16, v17, s[4:5]", 8),
        ("s_waitcnt", "vmcnt(0)", 4),
        ("v_mfma_f32_16x16x16_f16",
         "a[%d:%d], v[40:41], v[42:43], a[%d:%d]" % (acc, acc + 3, acc,
                                                    acc + 3), 8),
        ("s_nop", "7", 4),
        ("s_nop", "3", 4),
        ("v_accvgpr_read_b32", "v18, a%d" % acc, 8),
        ("v_add_u32_e32", "v19, v18, v16", 4),
        ("v_xor_b32_e32", "v21, v4, v5", 4),
        ("global_store_dword", "v[2:3], v13, off offset:%d" % off, 8),
        ("v_xor_b32_e32", "v21, v4, v5", 4),
        ("global_store_dwordx2", "v[2:3], v[20:21], off offset:%d" %
         (off + 256), 8),
        ("global_store_dword", "v[2:3], v15, off offset:%d" % (off + 512), 8),
        ("global_store_dword", "v[2:3], v19, off offset:%d" % (off + 768),
         8),
    ]


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: long-block.py N")
    n = int(sys.argv[1])
    out = ['amdgcn.code_object "amdgcn-amd-amdhsa--gfx942:xnack-" {',
           '  amdgcn.kernel @long_block attributes {descriptor = {}} {']
    addr, count, k = 0, 0, 0
    while count < n:
        for mn, ops, size in unit(k):
            if mn == "s_nop":
                out.append("    amdgcn.s_nop [0x%x] %s" % (addr, ops))
            elif mn == "s_waitcnt":
                out.append("    amdgcn.s_waitcnt [0x%x] %s" % (addr, ops))
            else:
                out.append('    amdgcn.inst [0x%x] %s "%s"' % (addr, mn, ops))
            addr += size
            count += 1
        k += 1
    out.append("    amdgcn.s_endpgm [0x%x]" % addr)
    out += ["  }", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
