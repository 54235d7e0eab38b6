#!/usr/bin/env python3
"""The rewrite pipeline over every in-tree kernel (ctest asmevo-pipeline-kernels).

For each code object K0 listed in kernels.txt:
  1. asmevo-opt K0 --pipeline=P -o K1 (every pass with summary=1);
  2. K1 passes the round-trip gate (recover + emit gives its bytes back) and
     recovers to the same instructions the pipeline produced;
  3. asmevo-verify K0 K1 (tier 1 on the CPU emulator): exit 0 equivalent,
     1 not equivalent (a failure), 2 cannot decide (e.g. a target or an
     opcode the emulator does not run: counted, not a failure).
Prints a summary: kernels changed, instructions removed, waits relaxed,
wait states, registers saved, equivalence verdicts.

Exit status: 0 when no object failed, 1 otherwise.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "utils"))
from asmevo_ir import functions, wait_states, without_branches  # noqa: E402,E501

DEFAULT_PIPELINE = ("amdgcn-waitcnt-relax,amdgcn-schedule,amdgcn-hazard,"
                    "amdgcn-dce,amdgcn-peephole,amdgcn-regcompact")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def with_summary(pipeline):
    out = []
    for p in pipeline.split(","):
        p = p.strip()
        if not p:
            continue
        if "{" in p:
            out.append(p[:-1] + " summary=1}")
        else:
            out.append(p + "{summary=1}")
    return ",".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="directory of asmevo tools")
    ap.add_argument("--kernels", required=True, help="kernels.txt")
    ap.add_argument("--extra", default="",
                    help="a file listing more code objects (e.g. corpus "
                         "objects); kernels the emulator cannot run count as "
                         "'cannot decide'")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    ap.add_argument("--no-verify", action="store_true",
                    help="skip asmevo-verify (equivalence)")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()

    opt = os.path.join(a.bin, "asmevo-opt")
    verify = os.path.join(a.bin, "asmevo-verify")
    have_verify = os.path.exists(verify) and not a.no_verify
    os.makedirs(a.work, exist_ok=True)
    paths = [l.strip() for l in open(a.kernels) if l.strip()]
    if a.extra:
        paths += [l.strip() for l in open(a.extra)
                  if l.strip() and not l.startswith("#")]

    failures = []
    tot = dict(objects=0, kernels=0, changed=0, before=0, after=0,
               waits_before=0, waits_after=0, nops_before=0, nops_after=0,
               nop_ws_before=0, nop_ws_after=0,
               vgpr_saved=0, sgpr_saved=0, agpr_saved=0, equivalent=0,
               undecided=0, not_equivalent=0)
    pass_lines = {}
    for k0 in paths:
        name = os.path.basename(k0)
        k1 = os.path.join(a.work, str(tot["objects"]) + "-" + name)
        tot["objects"] += 1
        r = run([opt, k0, "--pipeline=" + with_summary(a.pipeline), "-o", k1])
        if r.returncode != 0:
            failures.append(f"{name}: pipeline failed: {r.stderr.strip()}")
            continue
        for line in r.stderr.splitlines():
            m = re.match(r"(amdgcn-[\w-]+): (.*)", line)
            if m:
                pass_lines.setdefault(m.group(1), []).append(m.group(2))
            elif line.strip():
                failures.append(f"{name}: {line.strip()}")
        # Emitted object: the round-trip gate, and it recovers to what the
        # pipeline produced.
        g = run([opt, k1, "--roundtrip-check"])
        if g.returncode != 0:
            failures.append(f"{name}: emitted object fails the round-trip "
                            f"gate: {g.stdout.strip()} {g.stderr.strip()}")
            continue
        m0 = run([opt, k0, "--elide-image", "-o", "-"])
        mp = run([opt, k0, "--pipeline=" + a.pipeline, "--elide-image",
                  "-o", "-"])
        m1 = run([opt, k1, "--elide-image", "-o", "-"])
        if m0.returncode or mp.returncode or m1.returncode:
            failures.append(f"{name}: cannot print the dialect")
            continue
        f0, fp, f1 = functions(m0.stdout), functions(mp.stdout), functions(
            m1.stdout)
        for fn, (_, insts, counts) in f0.items():
            tot["kernels"] += 1
            new, new_counts = (f1[fn].insts, f1[fn].counts) if fn in f1 else (
                [], {})
            piped = fp[fn].insts if fn in fp else []
            # Recovery of the emitted object sees the same instructions the
            # pipeline produced (branch/fallthrough shapes may differ).
            if len(without_branches(new)) != len(without_branches(piped)):
                failures.append(f"{name} @{fn}: emitted object recovers "
                                f"{len(new)} ops, the pipeline made "
                                f"{len(piped)}")
            if insts != new:
                tot["changed"] += 1
            tot["before"] += len(insts)
            tot["after"] += len(new)
            tot["waits_before"] += sum(x.startswith("amdgcn.s_waitcnt")
                                       for x in insts)
            tot["waits_after"] += sum(x.startswith("amdgcn.s_waitcnt")
                                      for x in new)
            tot["nops_before"] += sum(x.startswith("amdgcn.s_nop")
                                      for x in insts)
            tot["nops_after"] += sum(x.startswith("amdgcn.s_nop") for x in new)
            tot["nop_ws_before"] += wait_states(insts)
            tot["nop_ws_after"] += wait_states(new)
            for r_ in ("vgpr", "sgpr", "agpr"):
                if r_ in counts and r_ in new_counts:
                    tot[r_ + "_saved"] += counts[r_] - new_counts[r_]
        if have_verify:
            v = run([verify, k0, k1])
            out = (v.stdout + v.stderr).strip()
            if v.returncode == 0:
                tot["equivalent"] += 1
            elif v.returncode == 2:
                tot["undecided"] += 1
                if a.v:
                    print(f"{name}: cannot decide: {out.splitlines()[0]}")
            else:
                tot["not_equivalent"] += 1
                failures.append(f"{name}: NOT EQUIVALENT:\n{out}")

    print(f"pipeline: {a.pipeline}")
    print(f"objects: {tot['objects']}, functions: {tot['kernels']}, "
          f"functions changed: {tot['changed']}")
    print(f"instructions: {tot['before']} -> {tot['after']} "
          f"({tot['before'] - tot['after']} removed)")
    print(f"s_waitcnt: {tot['waits_before']} -> {tot['waits_after']}, "
          f"s_nop: {tot['nops_before']} -> {tot['nops_after']} "
          f"({tot['nop_ws_before']} -> {tot['nop_ws_after']} wait states)")
    print(f"registers saved (metadata counts, summed over kernels): "
          f"VGPR {tot['vgpr_saved']}, SGPR {tot['sgpr_saved']}, "
          f"AGPR {tot['agpr_saved']}")
    for p, lines in sorted(pass_lines.items()):
        changed = [l for l in lines if not l.startswith("0 function")]
        print(f"  {p}: {len(changed)} object(s) changed")
        for l in changed[:3] if a.v else []:
            print(f"    {l}")
    if have_verify:
        print(f"equivalence (asmevo-verify tier 1): {tot['equivalent']} "
              f"equivalent, {tot['undecided']} cannot decide, "
              f"{tot['not_equivalent']} not equivalent")
    else:
        print("equivalence: not checked (asmevo-verify not built)")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
