#!/usr/bin/env python3
"""Runs the host-reference cases written by refgen through asmevo-run and
compares every output buffer with the host's (bit for bit, or within the
case's ULP/absolute bound for approximated float work).

  run_hostref.py --asmevo-run BIN --kernels DIR --cases DIR [--filter S]
"""
import argparse
import os
import struct
import subprocess
import sys


def ordered(bits, width):
    sign = 1 << (width - 1)
    return (sign - (bits & (sign - 1))) * -1 if bits & sign else bits


def compare(kind, ulps, absb, expect, got):
    if kind == "bytes":
        if expect == got:
            return None
        for i, (a, b) in enumerate(zip(expect, got)):
            if a != b:
                return "byte %d: expected %02x, got %02x" % (i, a, b)
        return "size %d vs %d" % (len(expect), len(got))
    fmt, width, ifmt = {"f32": ("f", 32, "I"), "f64": ("d", 64, "Q"),
                        "f16": ("e", 16, "H")}[kind]
    n = len(expect) * 8 // width
    if len(got) != len(expect):
        return "size %d vs %d" % (len(expect), len(got))
    ef = struct.unpack("<%d%s" % (n, fmt), expect)
    gf = struct.unpack("<%d%s" % (n, fmt), got)
    eb = struct.unpack("<%d%s" % (n, ifmt), expect)
    gb = struct.unpack("<%d%s" % (n, ifmt), got)
    worst = None
    for i in range(n):
        if eb[i] == gb[i]:
            continue
        if ef[i] != ef[i] and gf[i] != gf[i]:
            continue
        d = abs(ordered(eb[i], width) - ordered(gb[i], width))
        if d <= ulps or abs(ef[i] - gf[i]) <= absb:
            continue
        if worst is None or d > worst[1]:
            worst = (i, d, ef[i], gf[i])
    if worst:
        return "element %d: expected %r, got %r (%d ulp)" % (
            worst[0], worst[2], worst[3], worst[1])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asmevo-run", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--filter", default="")
    ap.add_argument("--threads", default="2")
    args = ap.parse_args()
    passed = failed = skipped = 0
    with open(os.path.join(args.cases, "cases.tsv")) as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    for row in rows:
        name, source, kernel, archs = row[:4]
        cmps = row[4:]
        if args.filter and args.filter not in name:
            continue
        case_dir = os.path.join(args.cases, name)
        for arch in archs.split(","):
            src = source
            if ":" in arch:  # arch:other-source-stem (a variant build)
                arch, src = arch.split(":", 1)
            obj = os.path.join(args.kernels, "%s-%s-v5.hsaco" % (src, arch))
            arch = arch if src == source else arch + "/" + src
            if not os.path.exists(obj):
                print("SKIP %s %s (no %s)" % (name, arch, obj))
                skipped += 1
                continue
            out = os.path.join(args.cases, "out", name + "-" + arch.replace("/", "-"))
            os.makedirs(out, exist_ok=True)
            cmd = [args.asmevo_run, obj, "--kernel", kernel, "--spec",
                   os.path.join(case_dir, "spec.json"), "--out", out,
                   "--quiet", "--threads", args.threads]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print("FAIL %s %s: asmevo-run exit %d: %s" % (
                    name, arch, p.returncode, p.stderr.strip()[-600:]))
                failed += 1
                continue
            problems = []
            for c in cmps:
                idx, kind, ulps, absb = c.split(":")
                with open(os.path.join(case_dir, "arg%s.expect.bin" % idx), "rb") as f:
                    expect = f.read()
                with open(os.path.join(out, "arg%s.bin" % idx), "rb") as f:
                    got = f.read()
                msg = compare(kind, float(ulps), float(absb), expect, got)
                if msg:
                    problems.append("arg%s: %s" % (idx, msg))
            if problems:
                print("FAIL %s %s: %s" % (name, arch, "; ".join(problems)))
                failed += 1
            else:
                print("PASS %s %s" % (name, arch))
                passed += 1
    print("%d passed, %d failed" % (passed, failed) +
          (", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
