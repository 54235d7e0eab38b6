#!/usr/bin/env python3
"""Checks that the built test kernels contain what they are meant to exercise.

For every code object listed in <dir>/kernels.tsv (written by
cmake/AsmevoKernels.cmake) this runs llvm-objdump -d and llvm-readelf
--notes/-h and checks:
  * the ELF ABI version matches the code object version (v4->2, v5->3, v6->4)
    and the metadata's amdhsa.target names the target id it was built for;
  * every regular expression listed for the kernel stem below matches the
    disassembly ("asm") or the metadata notes ("notes"), per architecture
    family ("all", "gfx942", "gfx90a").
Run by ctest (asmevo-test-kernels-instructions); exits 1 on any miss.
"""
import argparse
import os
import re
import subprocess
import sys

# stem -> {family -> {"asm": [...], "notes": [...]}}; family "all" applies
# to every target, "gfx942"/"gfx90a" to targets whose name starts with it.
EXPECT = {
    "elementwise": {
        "all": {"asm": [r"v_exp_f32", r"v_fmac?_f32", r"v_div_scale_f32",
                        r"global_load_dwordx4", r"global_store_dwordx4"]},
    },
    "reduce": {
        "all": {"asm": [r"s_barrier", r"ds_write_b32", r"ds_read2_b32",
                        r"v_exp_f32"],
                "notes": [r"hidden_dynamic_lds_size",
                          r"group_segment_fixed_size:\s+4096"]},
    },
    "control_flow": {
        "all": {"asm": [r"s_and_saveexec_b64", r"s_cbranch_execz",
                        r"s_cbranch_execnz", r"s_andn2_b64 exec",
                        r"v_rcp_iflag_f32"]},
    },
    "calls": {
        "all": {"asm": [r"s_getpc_b64", r"s_add_u32 s\d+, s\d+, 0x",
                        r"s_addc_u32", r"s_swappc_b64 s\[30:31\]",
                        r"s_setpc_b64 s\[30:31\]", r"v_writelane_b32",
                        r"v_readlane_b32"],
                "notes": [r"uses_dynamic_stack:\s+true",
                          r"private_segment_fixed_size:\s+[1-9]"]},
        "gfx942": {"asm": [r"scratch_store_dword off, v\d+, s33",
                           r"scratch_load_dword"]},
        "gfx90a": {"asm": [r"buffer_store_dword v\d+, off, s\[0:3\], s33",
                           r"buffer_load_dword"]},
    },
    "crosslane": {
        "all": {"asm": [r"_dpp .*row_shr:1\b", r"_dpp .*row_shr:8",
                        r"_dpp .*row_bcast:15", r"_dpp .*row_bcast:31",
                        r"_dpp .*quad_perm:\[3,2,1,0\]", r"_dpp .*wave_shr:1",
                        r"ds_swizzle_b32 .*swizzle\(REVERSE,32\)",
                        r"ds_swizzle_b32 .*swizzle\(QUAD_PERM",
                        r"ds_bpermute_b32", r"v_readfirstlane_b32",
                        r"v_readlane_b32", r"v_mbcnt_lo_u32_b32",
                        r"v_mbcnt_hi_u32_b32", r"s_bcnt1_i32_b64"]},
    },
    "mfma": {
        "all": {"asm": [r"v_accvgpr_write_b32", r"v_accvgpr_read_b32",
                        r"v_mfma\S* a\[", r"s_barrier", r"ds_read"],
                "notes": [r"agpr_count:\s+[1-9]\d+",
                          r"vgpr_count:\s+[3-5]\d\d"]},
        "gfx942": {"asm": [r"v_mfma_f32_32x32x8_f16", r"v_mfma_f32_16x16x16_f16",
                           r"v_mfma_f32_16x16x16_bf16",
                           r"v_mfma_f32_32x32x8_bf16",
                           r"v_mfma_f32_32x32x2_f32", r"v_mfma_f64_16x16x4_f64",
                           r"v_mfma_i32_16x16x32_i8",
                           r"v_mfma_f32_16x16x32_fp8_fp8",
                           r"v_mfma_f32_16x16x8_xf32"]},
        "gfx90a": {"asm": [r"v_mfma_f32_32x32x8f16", r"v_mfma_f32_16x16x16f16",
                           r"v_mfma_f32_16x16x16bf16_1k",
                           r"v_mfma_f32_32x32x8bf16_1k",
                           r"v_mfma_f32_32x32x2f32", r"v_mfma_f64_16x16x4f64",
                           r"v_mfma_i32_16x16x16i8"]},
    },
    "atomics": {
        "all": {"asm": [r"global_atomic_add v", r"global_atomic_add_x2",
                        r"global_atomic_smax", r"global_atomic_umin",
                        r"global_atomic_swap", r"global_atomic_cmpswap v",
                        r"global_atomic_cmpswap_x2", r"ds_add_u32",
                        r"ds_add_rtn_u32", r"ds_min_i32", r"ds_max_i32",
                        r"ds_or_b32", r"ds_xor_b32", r"s_ff1_i32_b64"]},
        "gfx942": {"asm": [r"global_atomic_add_f32"]},
    },
    "transpose": {
        "all": {"asm": [r"ds_write_b32", r"ds_read_b32", r"s_barrier",
                        r"v_bfe_u32 v\d+, v0, 10, 10",
                        r"v_bfe_u32 v\d+, v0, 20, 10"],
                "notes": [r"group_segment_fixed_size:\s+4224"]},
    },
    "switch": {
        "all": {"asm": [r"s_andn2_saveexec_b64", r"s_cbranch_execz",
                        r"s_xor_b64 exec"]},
    },
    "switch-longbranch": {
        "all": {"asm": [r"s_getpc_b64", r"s_setpc_b64 s\[", r"s_add_u32",
                        r"s_addc_u32"]},
    },
    "scratch": {
        "all": {"asm": [r"s_set_gpr_idx_on s\d+, gpr_idx\(SRC0\)",
                        r"s_set_gpr_idx_on s\d+, gpr_idx\(DST\)",
                        r"s_set_gpr_idx_off", r"v_cndmask_b32"],
                "notes": [r"private_segment_fixed_size:\s+1040",
                          r"private_segment_fixed_size:\s+272"]},
        "gfx942": {"asm": [r"scratch_load_dword v\d+, v\d+, off",
                           r"scratch_store_dword v\d+, v\d+, off"]},
        "gfx90a": {"asm": [r"buffer_load_dword v\d+, v\d+, s\[0:3\], 0 offen",
                           r"buffer_store_dword v\d+, v\d+, s\[0:3\], 0 offen"]},
    },
    "intdiv": {
        "all": {"asm": [r"v_rcp_iflag_f32", r"v_mul_hi_u32", r"v_mul_hi_i32",
                        r"s_mul_hi_u32", r"v_addc_co_u32", r"v_subb_co_u32",
                        r"v_mad_u64_u32"]},
    },
    "double": {
        "all": {"asm": [r"v_div_scale_f64", r"v_div_fmas_f64",
                        r"v_div_fixup_f64", r"v_rsq_f64", r"v_fma_f64",
                        r"v_cvt_f64_i32", r"v_cvt_f32_f64", r"v_cvt_i32_f64",
                        r"v_floor_f64|v_fract_f64", r"ds_write_b64",
                        r"ds_read2_b64", r"global_load_dwordx2"]},
    },
    "half": {
        "all": {"asm": [r"v_fma_f16", r"v_pk_fma_f16", r"v_pk_mul_f16",
                        r"v_cvt_f32_f16", r"global_load_ushort",
                        r"global_store_short"]},
    },
    "manyargs": {
        "all": {"asm": [r"s_load_dwordx16"],
                "notes": [r"kernarg_segment_size:\s+536",
                          r"\.size:\s+256", r"\.size:\s+40",
                          r"\.offset:\s+48\s+\.size:\s+2"]},
    },
    "globals": {
        "all": {"asm": [r"s_getpc_b64", r"s_add_u32 s\d+, s\d+, 0x",
                        r"s_addc_u32"]},
    },
    "relocs": {
        "all": {"asm": [r"s_swappc_b64 s\[30:31\], s\[\d+:\d+\]",
                        r"v_readfirstlane_b32"]},
    },
    "buffer": {
        "all": {"asm": [r"buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], 0 offen",
                        r"buffer_load_dwordx2", r"buffer_load_dwordx4",
                        r"buffer_store_dword ", r"buffer_store_dwordx4",
                        r"buffer_load_dword v\d+, s\[\d+:\d+\], 0 offen lds",
                        r"s_mov_b32 m0"]},
        "gfx942": {"asm": [r"global_load_lds_dword"]},
    },
    "special": {
        "all": {"asm": [r"v_perm_b32", r"v_alignbyte_b32", r"v_bfe_u32",
                        r"v_bfe_i32", r"v_sad_u8", r"v_sad_hi_u8",
                        r"v_msad_u8", r"v_lerp_u8", r"v_med3_f32",
                        r"v_frexp_mant_f32", r"v_frexp_exp_i32_f32",
                        r"v_sin_f32", r"v_cos_f32", r"v_fract_f32",
                        r"v_cmp_class_f32", r"v_ldexp_f32", r"v_log_f32",
                        r"s_sleep 1", r"s_setprio 2", r"s_nop 3",
                        r"s_getreg_b32", r"s_memtime"]},
    },
    "opencl_kernels": {
        "all": {"asm": [r"<__clang_ocl_kern_imp_cl_vadd4>:", r"s_barrier",
                        r"global_load_dwordx4"],
                "notes": [r"dynamic_shared_pointer", r"hidden_global_offset_x",
                          r"\.language:\s+OpenCL C"]},
    },
    "ir_kernels": {
        "all": {"asm": [r"v_readfirstlane_b32", r"<ir_scale_add>:",
                        r"<ir_uniform_loop>:"]},
    },
}

ABI_VERSION = {"4": "2", "5": "3", "6": "4"}


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", required=True, help="directory with kernels.tsv")
    ap.add_argument("--objdump", default="llvm-objdump-22")
    ap.add_argument("--readelf", default="llvm-readelf-22")
    args = ap.parse_args()

    rows = []
    with open(os.path.join(args.dir, "kernels.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    if not rows:
        print("no kernels listed", file=sys.stderr)
        return 1

    failures = 0
    unknown = set()
    for row in rows:
        path, target, cov = row["path"], row["target"], row["cov"]
        name = os.path.basename(path)
        suffix = "-%s-v%s.hsaco" % (target.replace(":", "_"), cov)
        stem = name[:-len(suffix)] if name.endswith(suffix) else None
        misses = []
        if not os.path.exists(path):
            misses.append("file missing")
        else:
            asm = run([args.objdump, "-d", path])
            notes = run([args.readelf, "--notes", path])
            header_text = run([args.readelf, "-h", path])
            m = re.search(r"ABI Version:\s+(\d+)", header_text)
            if not m or m.group(1) != ABI_VERSION.get(cov):
                misses.append("ABI version %s for code object v%s"
                              % (m.group(1) if m else "?", cov))
            if not re.search(r"amdhsa\.target:\s+'?amdgcn-amd-amdhsa--%s'?\s*$"
                             % re.escape(target), notes, re.M):
                misses.append("amdhsa.target is not %s" % target)
            exp = EXPECT.get(stem)
            if exp is None:
                unknown.add(stem)
                exp = {}
            for family, kinds in exp.items():
                if family != "all" and not target.startswith(family):
                    continue
                for kind, pats in kinds.items():
                    text = asm if kind == "asm" else notes
                    for pat in pats:
                        if not re.search(pat, text, re.M):
                            misses.append("%s: no match for /%s/" % (kind, pat))
        if misses:
            failures += 1
            print("FAIL %s" % name)
            for miss in misses:
                print("     %s" % miss)
        else:
            print("ok   %s" % name)
    for stem in sorted(s for s in unknown if s):
        print("note: no expectations for kernel stem '%s'" % stem)
    print("%d of %d code objects failed" % (failures, len(rows)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
