#!/usr/bin/env python3
"""The rewrite pipeline over corpus code objects, verified by asmevo-verify.

  utils/pipeline-corpus.py --manifest corpus/manifest.txt --bin build/bin
      [--arch gfx942] [--filter S]... [--exclude S]... [--max-objects N]
      [--max-kernels N] [--kernel-offset N] [--kernel-match RE] [--jobs N]
      [--pipeline P]
      [--report FILE] [--checkpoint FILE] [--spec-dir DIR]...
      [--tensile-specs]

For every selected code object K0 (each step is its own process, so a crash
or a hang costs one object or one kernel, never the run):
  1. asmevo-opt K0 --pipeline=P -o K1. A non-zero exit is a refusal
     (recovery or emission declined the object) and is counted with its
     reason; death by a signal is a crash (a failure).
  2. K1 passes the round-trip gate (asmevo-opt K1 --roundtrip-check).
  3. The kernels whose instructions the pipeline changed (all of them with
     --max-kernels 0, else up to that many, evenly spaced; with
     --kernel-match RE only those whose names match) are checked with
     asmevo-verify K0 K1 --kernels-file F (tier 1 on the CPU emulator;
     with --spec-dir also the specs whose "match" names the kernel, e.g.
     test/Verify/corpus-specs: docs/run-spec.md; with --tensile-specs,
     for Tensile objects, the launches utils/gen-tensile-specs.py writes
     for the sampled kernels, so that kernels tier 1 cannot run get
     decided),
     --verify-batch kernels per process, --timeout-verify seconds per
     kernel: EQUIVALENT, NOT EQUIVALENT (a pass bug: a failure, K1 kept),
     CANNOT DECIDE (the emulator or the input synthesis refused, counted
     with its reason) or a timeout.

Prints a line per object as it finishes (its kernels' verdict counts, so a
log cut short still tells failures from refusals), then the counts per
category and the reasons, most frequent first. With --checkpoint, each
finished object's results are appended to that file (one JSON line) as it
finishes; a later run with the same file skips those objects and counts
them in its summary, so a run that was killed resumes where it stopped.
Exit status: 0 when nothing was not equivalent, crashed or failed the gate;
1 otherwise; 2 on bad arguments.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asmevo_ir import functions, wait_states, without_branches  # noqa: E402,E501

DEFAULT_PIPELINE = ("amdgcn-waitcnt-relax,amdgcn-schedule,amdgcn-hazard,"
                    "amdgcn-dce,amdgcn-peephole,amdgcn-regcompact")


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


def reason(text):
    """A message reduced to its kind: names, addresses and numbers elided."""
    lines = [l for l in text.splitlines() if l.strip()]
    # Passes report what they left unchanged on stderr too: the error is the
    # line that says so, else the last one.
    line = next((l for l in lines if "error" in l or "failed" in l),
                lines[-1] if lines else "(no message)")
    line = re.sub(r"^asmevo-\w+: (error: )?", "", line.strip())
    line = re.sub(r"@?[_A-Za-z][\w.$]{24,}", "<name>", line)
    line = re.sub(r"/\S+", "<path>", line)
    line = re.sub(r"0x[0-9a-fA-F]+", "<hex>", line)
    line = re.sub(r"\d+", "N", line)
    return line[:160]


def sample(items, n, offset=0):
    """n items evenly spaced, each `offset` positions after its slot's
    first (another sample of the same list: offset < len(items) / n)."""
    if n <= 0 or len(items) <= n:
        return list(items)
    return [items[(i * len(items) // n + offset) % len(items)]
            for i in range(n)]


def verify_kernels(a, verify, k0, k1, work, kernels, spec_dirs=()):
    """[(kernel, verdict, why)] for kernels of K1, checked by asmevo-verify.

    Up to --verify-batch kernels share one asmevo-verify process (K0 and K1
    are read, and their code loaded into the emulator, once per process).
    --timeout-verify applies to each kernel: a kernel without a verdict in
    that time is a timeout, the process is killed and the kernels after it
    go to a new process."""
    out = []
    todo = list(kernels)
    while todo:
        batch = todo[:max(1, a.verify_batch)]
        lst = os.path.join(work, "kernels.txt")
        with open(lst, "w") as f:
            f.write("".join(k + "\n" for k in batch))
        p = subprocess.Popen(["nice", verify, k0, k1, "--kernels-file", lst,
                              "--seeds", str(a.seeds)] +
                             [x for d in list(a.spec_dir) + list(spec_dirs)
                              for x in ("--spec-dir", d)] +
                             (["--assume-d16-zero-fill"]
                              if a.assume_d16_zero_fill else []),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace")
        lines = queue.Queue()

        def pump(stream, q):
            for line in stream:
                q.put(line)
            q.put(None)

        threading.Thread(target=pump, args=(p.stdout, lines),
                         daemon=True).start()
        errs = []
        threading.Thread(target=lambda: errs.extend(p.stderr),
                         daemon=True).start()
        got = []  # [kernel, verdict text, detail lines]
        timed_out = False
        while len(got) < len(batch):
            try:
                line = lines.get(timeout=a.timeout_verify)
            except queue.Empty:
                timed_out = True
                break
            if line is None:
                break
            nxt = batch[len(got)]
            if line.startswith(nxt + ": "):
                got.append([nxt, line[len(nxt) + 2:].strip(), []])
            elif line.startswith("CANNOT DECIDE: "):
                # Bad input before any kernel (e.g. K0 does not parse): the
                # tool's one verdict holds for every kernel of the batch.
                got += [[k, line.strip(), []] for k in batch[len(got):]]
            elif got:
                got[-1][2].append(line.rstrip("\n"))
        if timed_out:
            p.kill()
        # Detail lines of the last kernel.
        while not timed_out:
            try:
                line = lines.get(timeout=a.timeout_verify)
            except queue.Empty:
                p.kill()
                break
            if line is None:
                break
            if got:
                got[-1][2].append(line.rstrip("\n"))
        rc = p.wait()
        for fn, text, detail in got:
            if text.startswith("EQUIVALENT"):
                out.append((fn, "equivalent", ""))
            elif text.startswith("NOT EQUIVALENT"):
                out.append((fn, "not-equivalent",
                            "\n".join([text] + detail)))
            elif text.startswith("CANNOT DECIDE"):
                why = text[len("CANNOT DECIDE"):].lstrip(": ")
                out.append((fn, "cannot-decide", reason(why)))
            else:
                out.append((fn, "crash", "unexpected verdict: " + text))
        todo = todo[len(got):]
        if len(got) == len(batch):
            continue
        # The process stopped before the next kernel's verdict.
        if timed_out:
            out.append((todo[0], "timeout", "asmevo-verify timed out"))
        else:
            tail = "".join(errs).strip()[-300:]
            out.append((todo[0], "crash",
                        f"asmevo-verify exit {rc} before a verdict: {tail}"))
        todo = todo[1:]
    return out


def is_tensile(path):
    """Whether gen-tensile-specs.py writes launches for this object's
    kernels (rocBLAS's and hipSPARSELt's Tensile libraries, and the GSU
    helper kernels of rocBLAS's Kernels.so objects)."""
    b = os.path.basename(path)
    return b.startswith("TensileLibrary_") or b.startswith("Kernels.so")


def tensile_specs(a, k0, work, kernels):
    """Writes gen-tensile-specs.py's launches of kernels into work/specs:
    (spec directory or None, specs written, why none)."""
    lst = os.path.join(work, "tensile-kernels.txt")
    with open(lst, "w") as f:
        f.write("".join(k + "\n" for k in kernels))
    out = os.path.join(work, "specs")
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "gen-tensile-specs.py")
    rc, _, err = run(["nice", sys.executable, gen, "--out", out,
                      "--kernels-file", lst, k0], a.timeout_opt)
    m = re.search(r"^(\d+) specs written", err or "", re.M)
    n = int(m.group(1)) if m else 0
    if rc != 0 or not m:
        return None, 0, ("gen-tensile-specs.py " +
                         ("timed out" if rc is None else f"exit {rc}") +
                         ": " + reason(err or ""))
    return out, n, ""


def do_object(a, k0, index):
    """Returns a dict of results for one code object."""
    res = dict(path=k0, status="ok", reason="", kernels=0, changed=0,
               before=0, after=0, waits_before=0, waits_after=0,
               nops_before=0, nops_after=0, nop_ws_before=0, nop_ws_after=0,
               verdicts=[], opt_s=0.0,
               verify_s=0.0)
    opt = os.path.join(a.bin, "asmevo-opt")
    verify = os.path.join(a.bin, "asmevo-verify")
    work = os.path.join(a.work, str(index))
    os.makedirs(work, exist_ok=True)
    k1 = os.path.join(work, "k1.co")
    t = time.monotonic()
    only = (["--only-kernels=" + a.kernel_match]
            if a.opt_only_matching and a.kernel_match else [])
    rc, out, err = run(["nice", opt, k0, "--pipeline=" + a.pipeline, "-o", k1]
                       + only, a.timeout_opt)
    res["opt_s"] = time.monotonic() - t
    if rc is None:
        res.update(status="opt-timeout", reason="asmevo-opt timed out")
        return res
    if rc < 0:
        res.update(status="crash", reason=f"asmevo-opt killed by signal {-rc}"
                   f": {err.strip()[-300:]}")
        return res
    if rc != 0:
        res.update(status="refused", reason=reason(err))
        shutil.rmtree(work, ignore_errors=True)
        return res
    rc, out, err = run([opt, k1, "--roundtrip-check"], a.timeout_opt)
    if rc != 0:
        res.update(status="gate", reason=reason(out + err))
        return res
    rc0, m0, e0 = run([opt, k0, "--elide-image", "-o", "-"], a.timeout_opt)
    rc1, m1, e1 = run([opt, k1, "--elide-image", "-o", "-"], a.timeout_opt)
    if rc0 != 0 or rc1 != 0:
        res.update(status="gate", reason="cannot print the dialect: " +
                   reason(e0 + e1))
        return res
    f0, f1 = functions(m0), functions(m1)
    changed = []
    for fn, f in f0.items():
        kind, insts = f.kind, without_branches(f.insts)
        new = without_branches(f1[fn].insts) if fn in f1 else []
        res["before"] += len(insts)
        res["after"] += len(new)
        res["waits_before"] += sum(x.startswith("amdgcn.s_waitcnt")
                                   for x in insts)
        res["waits_after"] += sum(x.startswith("amdgcn.s_waitcnt")
                                  for x in new)
        res["nops_before"] += sum(x.startswith("amdgcn.s_nop") for x in insts)
        res["nops_after"] += sum(x.startswith("amdgcn.s_nop") for x in new)
        res["nop_ws_before"] += wait_states(insts)
        res["nop_ws_after"] += wait_states(new)
        if kind != "kernel":
            continue
        res["kernels"] += 1
        if insts != new:
            changed.append(fn)
    res["changed"] = len(changed)
    if a.kernel_match:
        changed = [fn for fn in changed if re.search(a.kernel_match, fn)]
    todo = sample(changed, a.max_kernels, a.kernel_offset)
    extra = []
    if a.tensile_specs and todo and is_tensile(k0):
        d, res["tensile_specs"], why = tensile_specs(a, k0, work, todo)
        if d:
            extra.append(d)
        else:
            res["reason"] = why
    t = time.monotonic()
    res["verdicts"] = verify_kernels(a, verify, k0, k1, work, todo, extra)
    res["verify_s"] = time.monotonic() - t
    keep = any(v in ("not-equivalent", "crash") for _, v, _ in res["verdicts"])
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        res["kept"] = k1
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="directory of asmevo tools")
    ap.add_argument("--manifest", help="corpus manifest.txt")
    ap.add_argument("--list", help="file with one code object path a line")
    ap.add_argument("objects", nargs="*", help="code objects")
    ap.add_argument("--arch", default="gfx942",
                    help="with --manifest: these architectures (comma list)")
    ap.add_argument("--filter", action="append", default=[],
                    help="keep paths containing one of these strings")
    ap.add_argument("--exclude", action="append", default=[],
                    help="drop paths containing this string")
    ap.add_argument("--max-objects", type=int, default=0,
                    help="at most this many objects, evenly spaced (0 = all)")
    ap.add_argument("--max-kernels", type=int, default=4,
                    help="changed kernels verified per object, evenly "
                         "spaced (0 = all)")
    ap.add_argument("--kernel-offset", type=int, default=0,
                    help="verify the changed kernels this many positions "
                         "after the evenly spaced ones (another sample)")
    ap.add_argument("--kernel-match", metavar="RE",
                    help="verify only the changed kernels whose names "
                         "match RE (re.search; sampled after the match)")
    ap.add_argument("--opt-only-matching", action="store_true",
                    help="run the pipeline only on the kernels --kernel-match "
                         "selects (asmevo-opt --only-kernels; an LLVM "
                         "regular expression there): faster on large objects, "
                         "and the counts cover those kernels only")
    ap.add_argument("--checkpoint",
                    help="append each finished object's results here (JSON "
                         "lines); objects already in it are not run again")
    ap.add_argument("--seeds", type=int, default=2,
                    help="tier-1 data seeds per launch shape")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout-opt", type=float, default=900)
    ap.add_argument("--timeout-verify", type=float, default=300,
                    help="seconds per kernel verified")
    ap.add_argument("--verify-batch", type=int, default=64,
                    help="kernels checked by one asmevo-verify process")
    ap.add_argument("--spec-dir", action="append", default=[],
                    help="asmevo-verify --spec-dir: specs picked per kernel "
                         "by their \"match\" (docs/run-spec.md), e.g. "
                         "test/Verify/corpus-specs")
    ap.add_argument("--tensile-specs", action="store_true",
                    help="for Tensile objects (TensileLibrary_*, Kernels.so"
                    "*), also verify the sampled kernels on the launches "
                    "utils/gen-tensile-specs.py writes for them (its "
                    "default variants); tier 1 alone cannot run most GEMM "
                    "kernels")
    ap.add_argument("--assume-d16-zero-fill", action="store_true",
                    help="asmevo-verify --assume-d16-zero-fill: the kernels "
                    "run only with SRAM ECC on, where D16 loads are assumed "
                    "to zero the unused half (docs/verification.md)")
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    ap.add_argument("--work", default="/tmp/asmevo-pipeline-corpus",
                    help="scratch directory (K1 of failing objects is kept)")
    ap.add_argument("--report", help="write one line per object and kernel")
    a = ap.parse_args()
    if a.opt_only_matching and not a.kernel_match:
        ap.error("--opt-only-matching needs --kernel-match")

    paths = list(a.objects)
    if a.list:
        paths += [l.strip() for l in open(a.list)
                  if l.strip() and not l.startswith("#")]
    if a.manifest:
        archs = set(a.arch.split(","))
        base = os.path.dirname(os.path.abspath(a.manifest))
        for l in open(a.manifest):
            if l.startswith("#"):
                continue
            f = l.rstrip("\n").split("\t")
            if len(f) >= 2 and f[1] in archs:
                paths.append(os.path.join(base, f[0]))
    paths = [p for p in paths
             if (not a.filter or any(s in p for s in a.filter))
             and not any(s in p for s in a.exclude)]
    paths = sample(paths, a.max_objects)
    if not paths:
        print("pipeline-corpus: no code objects selected", file=sys.stderr)
        return 2
    for tool in ("asmevo-opt", "asmevo-verify"):
        if not os.access(os.path.join(a.bin, tool), os.X_OK):
            print(f"pipeline-corpus: {a.bin}/{tool} missing", file=sys.stderr)
            return 2
    os.makedirs(a.work, exist_ok=True)

    start = time.monotonic()
    results = []
    done = {}
    if a.checkpoint and os.path.exists(a.checkpoint):
        with open(a.checkpoint) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill
                r["verdicts"] = [tuple(v) for v in r["verdicts"]]
                done[r["path"]] = r
    prior = [done[p] for p in paths if p in done]
    if prior:
        print(f"checkpoint: {len(prior)} of {len(paths)} objects already "
              "done, not run again", flush=True)
    # Work directories keep the index in the whole selection (a kept K1
    # of an earlier run is not overwritten).
    todo = [(i, p) for i, p in enumerate(paths) if p not in done]
    paths = [p for _, p in todo]
    ckpt = open(a.checkpoint, "a") if a.checkpoint else None
    ckpt_lock = threading.Lock()

    def run_object(p, i):
        r = do_object(a, p, i)
        if ckpt:
            with ckpt_lock:
                ckpt.write(json.dumps(r) + "\n")
                ckpt.flush()
        return r

    interrupted = False
    ex = concurrent.futures.ThreadPoolExecutor(max(1, a.jobs))
    futs = [ex.submit(run_object, p, i) for i, p in todo]
    # SIGINT or SIGTERM stops the run and summarizes the objects finished
    # (a shell starts background jobs with SIGINT ignored).
    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        for i, f in enumerate(futs):
            r = f.result()
            results.append(r)
            vc = collections.Counter(v for _, v, _ in r["verdicts"])
            rest = "".join(f", {vc[k]} {k}" for k in (
                "not-equivalent", "cannot-decide", "timeout", "crash")
                if vc[k])
            print(f"[{i + 1}/{len(paths)}] {os.path.basename(r['path'])}: "
                  f"{r['status']} {r['reason']} kernels {r['kernels']}, "
                  f"changed {r['changed']}, verified {vc['equivalent']}/"
                  f"{len(r['verdicts'])} equivalent{rest}"
                  + (f", {r['tensile_specs']} tensile specs"
                     if "tensile_specs" in r else "") + " (opt "
                  f"{r['opt_s']:.0f} s, verify {r['verify_s']:.0f} s)",
                  flush=True)
    except KeyboardInterrupt:
        interrupted = True
        ex.shutdown(wait=False, cancel_futures=True)
        # With --jobs > 1, objects after the one awaited may have finished.
        results += [f.result() for f in futs[len(results):]
                    if f.done() and not f.cancelled()
                    and f.exception() is None]
    results = prior + results
    paths = [r["path"] for r in prior] + paths

    objs = collections.Counter(r["status"] for r in results)
    kv = collections.Counter()
    why = collections.defaultdict(collections.Counter)
    failures = []
    tot = collections.Counter()
    for r in results:
        for k in ("kernels", "changed", "before", "after", "waits_before",
                  "waits_after", "nops_before", "nops_after", "nop_ws_before",
                  "nop_ws_after", "opt_s", "verify_s", "tensile_specs"):
            tot[k] += r.get(k, 0)  # checkpoints of older runs lack some
        name = os.path.basename(r["path"])
        if r["status"] != "ok":
            why[r["status"]][r["reason"]] += 1
        if r["status"] in ("crash", "gate"):
            failures.append(f"{name}: {r['status']}: {r['reason']}")
        for fn, v, w in r["verdicts"]:
            kv[v] += 1
            if v in ("cannot-decide", "timeout"):
                why["kernel " + v][w] += 1
            if v in ("not-equivalent", "crash"):
                failures.append(f"{name} @{fn}: {v} (K1 kept at "
                                f"{r.get('kept')}):\n{w}")
    if a.report:
        with open(a.report, "w") as rep:
            for r in results:
                rep.write(f"{r['path']}\t{r['status']}\t{r['reason']}\t"
                          f"kernels={r['kernels']} changed={r['changed']}\n")
                for fn, v, w in r["verdicts"]:
                    rep.write(f"  {fn}\t{v}\t{w.splitlines()[0] if w else ''}"
                              "\n")

    if interrupted:
        print(f"interrupted: {len(results)} of {len(paths)} objects finished")
    print(f"pipeline: {a.pipeline}")
    print(f"objects: {len(results)}: " + ", ".join(
        f"{objs[k]} {k}" for k in ("ok", "refused", "opt-timeout", "gate",
                                   "crash") if objs[k]))
    print(f"kernels in rewritten objects: {tot['kernels']}, changed by the "
          f"pipeline: {tot['changed']}")
    print(f"instructions (all functions): {tot['before']} -> {tot['after']}; "
          f"s_waitcnt {tot['waits_before']} -> {tot['waits_after']}; "
          f"s_nop {tot['nops_before']} -> {tot['nops_after']} "
          f"({tot['nop_ws_before']} -> {tot['nop_ws_after']} wait states)")
    print(f"changed kernels verified: {sum(kv.values())}: " + ", ".join(
        f"{kv[k]} {k}" for k in ("equivalent", "not-equivalent",
                                 "cannot-decide", "timeout", "crash")))
    if a.tensile_specs:
        print(f"tensile specs written for the sampled kernels: "
              f"{tot['tensile_specs']}")
    nv = sum(kv.values())
    print(f"time: asmevo-opt {tot['opt_s']:.0f} s, asmevo-verify "
          f"{tot['verify_s']:.0f} s ({tot['verify_s'] / max(1, nv):.2f} s "
          f"per kernel verified), wall {time.monotonic() - start:.0f} s")
    for cat in sorted(why):
        print(f"reasons ({cat}):")
        for w, n in why[cat].most_common(12):
            print(f"  {n:5d}  {w}")
    for f in failures:
        print("FAIL: " + f)
    rc = 1 if failures else 0
    if interrupted:
        # Do not wait for the object in progress (its processes end alone).
        sys.stdout.flush()
        os._exit(rc)
    ex.shutdown()
    return rc


if __name__ == "__main__":
    sys.exit(main())
