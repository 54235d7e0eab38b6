"""Reading asmevo-opt's printed `amdgcn` dialect (shared by the pipeline
scripts: utils/pipeline-corpus.py and unittests/Analysis/pipeline_kernels.py).
"""

import collections
import re

KERNEL_RE = re.compile(r"^\s*amdgcn\.(kernel|func) @(\S+)")
# An op's id: its address in the original code, before its text or at the
# end of the line (s_endpgm, s_barrier).
ID_RE = re.compile(r"\[0x[0-9a-f]+\]( |$)")
# A PC-relative operand's target and anchor addresses: only their distance
# is the code's; both move when emission moves the function.
PCREL_RE = re.compile(r"pcrel\((\w+), 0x([0-9a-f]+) from 0x([0-9a-f]+)")
COUNT_RE = re.compile(r'"\.(vgpr|sgpr|agpr)_count" = (\d+)')

# kind: "kernel" or "func"; insts: the op lines without their [0x..] ids
# and with PC-relative targets as distances, so that a function emission
# only moved compares equal (fallthrough markers left out); counts: the
# metadata register counts.
Function = collections.namedtuple("Function", "kind insts counts")

BRANCHES = ("amdgcn.s_branch", "amdgcn.cbranch")


def functions(mlir_text):
    """name -> Function, in the order printed."""
    funcs = {}
    cur = None
    for line in mlir_text.splitlines():
        m = KERNEL_RE.match(line)
        if m:
            cur = m.group(2)
            counts = {k: int(v) for k, v in COUNT_RE.findall(line)}
            funcs[cur] = Function(m.group(1), [], counts)
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("amdgcn.") and not s.startswith("amdgcn.fallthrough"):
            s = PCREL_RE.sub(lambda m: "pcrel(%s, %+#x" % (
                m.group(1), int(m.group(2), 16) - int(m.group(3), 16)),
                ID_RE.sub("", s))
            funcs[cur].insts.append(s)
    return funcs


NOP_RE = re.compile(r"amdgcn\.s_nop (\d+)")


def wait_states(insts):
    """Wait states of the s_nops among insts (s_nop N gives N + 1)."""
    return sum(int(m.group(1)) + 1 for m in map(NOP_RE.match, insts) if m)


def without_branches(insts):
    """The ops other than branches (whose shape emission may change)."""
    return [x for x in insts if not x.startswith(BRANCHES)]
