#!/usr/bin/env python3
"""Tier 2 from real host libraries: capture, check, mutation-test.

    utils/tier2-real.py --build BUILD [--corpus CORPUS] [--work DIR]
                        [--per-kernel N] [--jobs N] [--timeout S]
                        [--mode-timeout S] [--modes tier1,tier2,both]
                        [--report FILE] [--no-mutate] [--kernels REGEX]

1. Unpacks Debian's hipcc-built ROCm libraries from CORPUS/debs (git-ignored,
   fetched by utils/fetch-rocm-corpus.sh): librocsparse0 5.3 and librocrand1
   5.3 (their gfx90a code objects) and librocrand1 7.2.4 (gfx942).
2. Runs BUILD/bin/asmevo-tier2-libs on them against the test HIP runtime
   (BUILD/lib/asmevo-testrt: libamdhip64.so.5/.7 on the emulator) with
   ASMEVO_TESTRT_CAPTURE_DIR, so that every dispatch the libraries make is
   kept as a capture; the program checks each library result against a host
   computation (exit 1 here when one is wrong).
3. For every captured kernel, runs asmevo-mutate on the capture's embedded
   code object three times with the same mutants: tier 1 alone (synthesized
   inputs), tier 2 alone (--capture ... --no-tier1) and both, and reports the
   kill rates side by side (docs/verification.md, "Tier 2 from real host
   libraries").

Exit 0 when the host checks pass (the mutation rates are measurements, not
a gate), 1 when a host check fails, 2 on missing inputs.
"""

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import struct
import subprocess
import sys

# (deb package prefix, which library flag, target processor)
LIBS = [
    ("librocsparse0_5.3", "--rocsparse", "gfx90a", "librocsparse.so.0"),
    ("librocrand1_5.3", "--rocrand", "gfx90a", "librocrand.so.1"),
    ("librocrand1_7.2", "--rocrand", "gfx942", "librocrand.so.1"),
]


def log(msg):
    print(f"[tier2-real] {msg}", file=sys.stderr, flush=True)


def unpack(corpus, work, prefix):
    debs = sorted(glob.glob(os.path.join(corpus, "debs", prefix + "*.deb")))
    if not debs:
        return None
    dest = os.path.join(work, "libs", os.path.basename(debs[0])[:-4])
    if not os.path.isdir(dest):
        log(f"unpacking {os.path.basename(debs[0])}")
        os.makedirs(dest + ".tmp", exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", debs[0], dest + ".tmp"], check=True)
        os.rename(dest + ".tmp", dest)
    return os.path.join(dest, "usr", "lib", "x86_64-linux-gnu")


def read_capture(path):
    """The header and the embedded code object of a capture file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"ASMEVCAP":
        raise ValueError(f"{path}: not a capture")
    (hlen,) = struct.unpack_from("<Q", data, 16)
    header = json.loads(data[24:24 + hlen])
    blobs = 24 + hlen
    off, size = header["code_object"]["blob"]
    return header, data[blobs + off:blobs + off + size]


RATE = re.compile(r"kill rate: ([0-9.]+)% of all mutants; ([0-9.]+)% of "
                  r"mutants that are reached")
MUTANTS = re.compile(r"^mutants: (\d+)", re.M)
KILLED = re.compile(r"^  killed: (\d+)", re.M)
SKIPPED = re.compile(r": skipped: (.*)")


def mutate(args, obj, kernel, caps, mode, out_path):
    cmd = [os.path.join(args.build, "bin", "asmevo-mutate"), obj,
           "--kernel", kernel, "--per-kernel", str(args.per_kernel),
           "--equivalents", "0", "--jobs", str(args.jobs),
           "--timeout", str(args.timeout), "--min-kill-rate", "0",
           # Reviewed survivors: their reasons in the report files.
           "--annotations", os.path.join(
               os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
               "test", "Verify", "tier2-mutation-survivors.txt")]
    if mode in ("tier2", "both"):
        for c in caps:
            cmd += ["--capture", c]
    if mode == "tier2":
        cmd.append("--no-tier1")
    try:
        r = subprocess.run(["nice"] + cmd, capture_output=True, text=True,
                           timeout=args.mode_timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.mode_timeout:.0f} s"}
    with open(out_path, "w") as f:
        f.write(r.stdout + r.stderr)
    m = RATE.search(r.stdout)
    if not m:
        s = SKIPPED.search(r.stdout)
        return {"error": (s.group(1) if s else
                          (r.stderr.strip().splitlines() or ["?"])[-1])[:160]}
    return {"all": float(m.group(1)), "reached": float(m.group(2)),
            "mutants": int(MUTANTS.search(r.stdout).group(1)),
            "killed": int(KILLED.search(r.stdout).group(1))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus", default=os.path.join(root, "corpus"))
    ap.add_argument("--work")
    ap.add_argument("--per-kernel", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--mode-timeout", type=float, default=900,
                    help="seconds for one asmevo-mutate run (one kernel, "
                    "one tier)")
    ap.add_argument("--modes", default="tier1,tier2,both",
                    help="comma-separated subset of tier1,tier2,both; "
                    "'both' alone lists the survivors in a third of the time")
    ap.add_argument("--report")
    ap.add_argument("--no-mutate", action="store_true")
    ap.add_argument("--kernels",
                    help="mutate only the captured kernels whose mangled "
                    "name matches this regular expression (re.search); the "
                    "host program still runs every call")
    args = ap.parse_args()
    modes = [m for m in ("tier1", "tier2", "both")
             if m in args.modes.split(",")]
    if not modes:
        log(f"--modes {args.modes}: none of tier1, tier2, both")
        return 2
    args.build = os.path.abspath(args.build)
    work = os.path.abspath(args.work or os.path.join(args.build, "tier2-real"))
    os.makedirs(work, exist_ok=True)
    host = os.path.join(args.build, "bin", "asmevo-tier2-libs")
    rt = os.path.join(args.build, "lib", "asmevo-testrt")
    if not os.access(host, os.X_OK) or not os.path.isdir(rt):
        log(f"missing {host} or {rt}: build asmevo-tier2-libs asmevo-testrt")
        return 2

    # 1 + 2: run the libraries, one target at a time.
    by_target = collections.defaultdict(list)
    for prefix, flag, target, soname in LIBS:
        d = unpack(args.corpus, work, prefix)
        if not d:
            log(f"no {prefix}*.deb under {args.corpus}/debs: skipped "
                "(utils/fetch-rocm-corpus.sh fetches it)")
            continue
        by_target[target] += [flag, os.path.join(d, soname)]
    if not by_target:
        return 2
    failed = False
    caps = []
    for target, flags in by_target.items():
        capdir = os.path.join(work, "caps-" + target)
        for old in glob.glob(os.path.join(capdir, "*.cap")):
            os.remove(old)
        os.makedirs(capdir, exist_ok=True)
        # Up to 8 captures per kernel: asmevo-tier2-libs runs each routine
        # on six matrices, the last ones with long rows.
        env = dict(os.environ, LD_LIBRARY_PATH=rt, ASMEVO_TESTRT_TARGET=target,
                   ASMEVO_TESTRT_CAPTURE_DIR=capdir,
                   ASMEVO_TESTRT_CAPTURE_PER_KERNEL="8",
                   ASMEVO_TESTRT_CAPTURE_MAX="400")
        log(f"{target}: asmevo-tier2-libs {' '.join(flags)}")
        r = subprocess.run(["nice", host] + flags, env=env, text=True,
                           capture_output=True)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        if r.returncode != 0:
            log(f"{target}: host checks FAILED (exit {r.returncode})")
            failed = True
        caps += sorted(glob.glob(os.path.join(capdir, "*.cap")))
    log(f"{len(caps)} captures")

    # 3: group captures by (code object, kernel); mutate each kernel.
    objdir = os.path.join(work, "objects")
    os.makedirs(objdir, exist_ok=True)
    groups = collections.OrderedDict()
    for c in caps:
        header, co = read_capture(c)
        sha = hashlib.sha256(co).hexdigest()
        obj = os.path.join(objdir, sha[:16] + ".co")
        if not os.path.exists(obj):
            with open(obj, "wb") as f:
                f.write(co)
        groups.setdefault((obj, header["kernel"], header["target"]),
                          []).append(c)
    lines = [f"{len(caps)} captures of {len(groups)} kernels"]
    totals = {m: [0, 0] for m in ("tier1", "tier2", "both")}
    t1only = [0, 0, 0]
    for (obj, kernel, target), cs in ([] if args.no_mutate
                                      else groups.items()):
        if args.kernels and not re.search(args.kernels, kernel):
            continue
        short = kernel if len(kernel) < 90 else kernel[:87] + "..."
        row = {}
        for mode in modes:
            out = os.path.join(work, f"mutate-{os.path.basename(obj)}-"
                               f"{hashlib.sha1(kernel.encode()).hexdigest()[:8]}"
                               f"-{mode}.txt")
            row[mode] = mutate(args, obj, kernel, cs, mode, out)
        # Totals over the kernels all three modes could run, so that the
        # rates compare the same mutants.
        if all("killed" in r for r in row.values()):
            for mode, r in row.items():
                totals[mode][0] += r["killed"]
                totals[mode][1] += r["mutants"]
        elif "killed" in row.get("tier2", {}):
            # Tier 1 cannot run K0 (a fault on synthesized arguments...):
            # only the captures can judge these kernels.
            t1only[0] += 1
            t1only[1] += row["tier2"]["killed"]
            t1only[2] += row["tier2"]["mutants"]

        def cell(r):
            if r is None:
                return "not run (--modes)"
            if "error" in r:
                return "skipped (" + r["error"] + ")"
            return (f"{r['killed']}/{r['mutants']} ({r['all']:.1f} %; "
                    f"reached {r['reached']:.1f} %)")

        line = (f"{target.split('--')[-1]} {short} [{len(cs)} capture(s)]\n"
                f"    tier 1: {cell(row.get('tier1'))}\n"
                f"    tier 2: {cell(row.get('tier2'))}\n"
                f"    both:   {cell(row.get('both'))}")
        log(line)
        lines.append(line)
    for mode, (k, n) in totals.items():
        if n:
            lines.append(f"total {mode}: {k}/{n} killed "
                         f"({100.0 * k / n:.1f} % of all mutants)")
    if t1only[0]:
        lines.append(f"kernels only tier 2 could run: {t1only[0]}, "
                     f"{t1only[1]}/{t1only[2]} mutants killed by tier 2")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
