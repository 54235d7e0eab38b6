#!/usr/bin/env python3
"""Where the s_nops of a code object come from, before and after a pipeline.

  utils/nop-sources.py --bin build/bin K0.co [K0.co...] [--pipeline P]

For each object: s_nop count, their wait states (s_nop N gives N + 1) and
s_waitcnt count, of the original and of the pipeline's output (all
functions); then, for each, the hazard pairs that need wait states once every
s_nop is removed, by rule of the hazard table (amdgcn-hazard{verbose=1} on
the module without its s_nops): pairs and missing wait states per rule. The
difference between the two columns is what the pipeline's orders ask for.
Wait states beyond what these pairs need are s_nops no rule asks for
(alignment padding, LLVM's own margins). Carry reads amdgcn-hazard leaves as
the input had them are not counted (see docs/WritingPasses.md).

Exit status: 0, or 1 when asmevo-opt fails on an object.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asmevo_ir import functions, wait_states  # noqa: E402

DEFAULT_PIPELINE = ("amdgcn-waitcnt-relax,amdgcn-schedule,amdgcn-hazard,"
                    "amdgcn-dce,amdgcn-peephole,amdgcn-regcompact")
PAIR_RE = re.compile(r"amdgcn-hazard: hazard (\S+) .*\((\d+) missing\)$")


def opt(a, args):
    r = subprocess.run([os.path.join(a.bin, "asmevo-opt")] + args,
                       capture_output=True, text=True, errors="replace")
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip()[-500:])
    return r


def counts(text):
    nops = ws = waits = 0
    for f in functions(text).values():
        nops += sum(x.startswith("amdgcn.s_nop") for x in f.insts)
        ws += wait_states(f.insts)
        waits += sum(x.startswith("amdgcn.s_waitcnt") for x in f.insts)
    return nops, ws, waits


def rules(a, text, work):
    """rule -> [pairs, missing wait states] with every s_nop removed."""
    path = os.path.join(work, "nonops.mlir")
    with open(path, "w") as f:
        f.write("\n".join(l for l in text.splitlines()
                          if not l.strip().startswith("amdgcn.s_nop")))
    r = opt(a, [path, "--pipeline=amdgcn-hazard{verbose=1}", "--elide-image",
                "-o", os.path.join(work, "out.mlir")])
    per = collections.defaultdict(lambda: [0, 0])
    for line in r.stderr.splitlines():
        m = PAIR_RE.match(line)
        if m:
            per[m.group(1)][0] += 1
            per[m.group(1)][1] += int(m.group(2))
    return per


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="directory of asmevo-opt")
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    ap.add_argument("objects", nargs="+")
    a = ap.parse_args()
    status = 0
    with tempfile.TemporaryDirectory() as work:
        for k0 in a.objects:
            try:
                m0 = opt(a, [k0, "--elide-image", "-o", "-"]).stdout
                m1 = opt(a, [k0, "--pipeline=" + a.pipeline, "--elide-image",
                             "-o", "-"]).stdout
                r0, r1 = rules(a, m0, work), rules(a, m1, work)
            except RuntimeError as e:
                print(f"{k0}: asmevo-opt failed: {e}")
                status = 1
                continue
            (n0, w0, s0), (n1, w1, s1) = counts(m0), counts(m1)
            print(f"{k0}")
            print(f"  s_nop {n0} -> {n1}, wait states {w0} -> {w1}, "
                  f"s_waitcnt {s0} -> {s1}")
            print("  pairs needing wait states without s_nops, by rule "
                  "(pairs / wait states): original -> pipeline")
            for rule in sorted(set(r0) | set(r1),
                               key=lambda k: -abs(r1[k][1] - r0[k][1])):
                print(f"    {rule}: {r0[rule][0]} / {r0[rule][1]} -> "
                      f"{r1[rule][0]} / {r1[rule][1]}")
    return status


if __name__ == "__main__":
    sys.exit(main())
