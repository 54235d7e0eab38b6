#!/usr/bin/env python3
"""Checks corpus specs (test/Verify/corpus-specs/, utils/gen-corpus-specs.py)
against a host reference: runs the original kernel on each spec with
asmevo-run and compares its output with what the launch must compute, so a
spec is known to be a valid launch and not merely one K0 survives.

  utils/check-corpus-specs.py --run BUILD/bin/asmevo-run --object OBJ.co \\
      --kernel SYMBOL SPEC.json...

Families (by the spec's file name):
  csrgemm/numeric_fill_wf_*      C = alpha A B + beta D on group 0's rows
  csrmm/row_split_*              C = alpha A B + beta C, columns [start, end)
  csrmm/merge_path_host_*        C += alpha A B, columns [ncol_offset, n)
Values are small integers, so every sum is exact in any order and the
comparison is bit for bit. The csrmm families' C before the launch is what
the kernel leaves for alpha = 0 and beta = 1 (its own early return), read
from a second run with those scalars by value. bfloat16 data is skipped.
Exit 0 when every spec matches, 1 otherwise.
"""
import argparse, json, os, struct, subprocess, sys, tempfile


def arr(b, fmt):
    n = struct.calcsize(fmt)
    return [struct.unpack_from('<' + fmt, b, k)[0] for k in range(0, len(b) - n + 1, n)]


class Launch:
    def __init__(s, spec, out):
        s.spec, s.out = spec, out
        s.d = json.load(open(spec))
        s.a = s.d['args']
        s.cplx = '_c64' in os.path.basename(spec)

    def raw(s, i):
        a = s.a[i]
        if 'buffer' in a:
            return open(os.path.join(os.path.dirname(s.spec), a['buffer']), 'rb').read()
        return open(os.path.join(s.out, f'arg{i}.bin'), 'rb').read()

    def vals(s, b):
        f = arr(b, 'f')
        return [complex(f[k], f[k + 1]) for k in range(0, len(f), 2)] if s.cplx else f

    def scal(s, i):
        a = s.a[i]
        if 'bytes' in a:
            f = struct.unpack('<ff', bytes.fromhex(a['bytes'][:16]))
            return complex(*f) if s.cplx else f[0]
        return s.vals(s.raw(i))[0]

    def int_(s, i):
        return next(iter(s.a[i].values()))


def run(asmevo_run, obj, kernel, spec, out):
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([asmevo_run, obj, '--kernel', kernel, '--spec', spec, '--out', out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'{spec}: asmevo-run failed: {r.stderr.strip()}')


def c_before(args, spec, tmp, alpha_i, beta_i, host_i, c_i):
    # The kernel returns before reading A or B for alpha 0 and beta 1: its C
    # after that run is the spec's C before.
    d = json.load(open(spec))
    a = d['args']
    a[alpha_i] = {'bytes': '0' * 16}
    a[beta_i] = {'bytes': '0000803f' + '0' * 8}
    a[host_i] = {'u8': 1}
    for x in a:
        if 'buffer' in x:
            x['buffer'] = os.path.join(os.path.dirname(os.path.abspath(spec)), x['buffer'])
    p = os.path.join(tmp, 'before.json')
    json.dump(d, open(p, 'w'))
    run(args.run, args.object, args.kernel, p, os.path.join(tmp, 'before'))
    return open(os.path.join(tmp, 'before', f'arg{c_i}.bin'), 'rb').read()


def csrgemm(L, tmp):
    A = L.a
    J = 'q' if 'i64' in A[0] else 'i'
    I = 'q' if '_i64_' in os.path.basename(L.spec) else 'i'
    m = L.int_(0)
    perm = arr(L.raw(3), J) if 'buffer' in A[3] else None
    bA, bB, bC, bD = (A[18 + k]['u32'] for k in range(4))
    mul, add = A[22]['u8'], A[23]['u8']
    pA, cA, vA = arr(L.raw(5), I), arr(L.raw(6), J), arr(L.raw(7), 'f')
    pB, cB, vB = arr(L.raw(8), I), arr(L.raw(9), J), arr(L.raw(10), 'f')
    pD, cD, vD = arr(L.raw(12), I), arr(L.raw(13), J), arr(L.raw(14), 'f')
    pC, cC, vC = arr(L.raw(15), I), arr(L.raw(16), J), arr(L.raw(17), 'f')
    al = L.scal(4) if mul else 0
    be = L.scal(11) if add else 0
    n = bad = 0
    for i in range(m):
        r = perm[i] if perm else i
        acc = {}
        if mul:
            for j in range(pA[r] - bA, pA[r + 1] - bA):
                c = cA[j] - bA
                for k in range(pB[c] - bB, pB[c + 1] - bB):
                    acc[cB[k] - bB] = acc.get(cB[k] - bB, 0) + al * vA[j] * vB[k]
        if add:
            for j in range(pD[r] - bD, pD[r + 1] - bD):
                acc[cD[j] - bD] = acc.get(cD[j] - bD, 0) + be * vD[j]
        cols = [cC[k] - bC for k in range(pC[r] - bC, pC[r + 1] - bC)]
        if sorted(acc) != cols:
            return f'row {r}: C\'s columns are not the union of the products\''
        for k, c in zip(range(pC[r] - bC, pC[r + 1] - bC), cols):
            n += 1
            bad += vC[k] != acc[c]
    return n, bad


def row_split(L, tmp):
    A = L.a
    J = 'q' if 'i64' in A[3] else 'i'
    I = 'q' if ('_c64_' in L.spec or '_bf16_' in L.spec) else 'i'
    start, end, M = L.int_(3), L.int_(4), L.int_(5)
    sA, sV = A[7]['i64'], A[8]['i64']
    ptr, col = arr(L.raw(9), I), arr(L.raw(10), J)
    va, vb = L.vals(L.raw(11)), L.vals(L.raw(12))
    ldb, sB, ldc, sC = A[13]['i64'], A[14]['i64'], A[16]['i64'], A[17]['i64']
    order, base = A[18]['u32'], A[19]['u32']
    conj_a, conj_b = L.cplx and A[20]['u8'], L.cplx and A[21]['u8']
    alpha, beta = L.scal(0), L.scal(1)
    cin = L.vals(c_before(args, L.spec, tmp, 0, 1, 2, 15))
    cout = L.vals(L.raw(15))
    n = bad = 0
    for b in range(L.d['workgroups'][1]):
        for r in range(M):
            for c in range(start, end):
                s = 0
                for j in range(ptr[sA * b + r] - base, ptr[sA * b + r + 1] - base):
                    x = va[sV * b + j]
                    y = vb[sB * b + ldb * (col[sV * b + j] - base) + c]
                    s += (x.conjugate() if conj_a else x) * (y.conjugate() if conj_b else y)
                k = sC * b + (r + ldc * c if order == 1 else ldc * r + c)
                if alpha == 0 and beta == 1:
                    want = cin[k]
                else:
                    want = alpha * s if beta == 0 else beta * cin[k] + alpha * s
                n += 1
                bad += cout[k] != want
    return n, bad


def merge_path(L, tmp):
    A = L.a
    J = 'q' if 'i64' in A[3] else 'i'
    I = 'q' if 'i64' in A[6] else 'i'
    off, M, N = L.int_(2), L.int_(3), L.int_(4)
    ptr, col = arr(L.raw(8), I), arr(L.raw(9), J)
    base, ldb, ldc, order = A[19]['u32'], A[14]['i64'], A[17]['i64'], A[18]['u32']
    va, vb = L.vals(L.raw(10)), L.vals(L.raw(13))
    alpha, beta = L.scal(7), L.scal(15)
    cin = L.vals(c_before(args, L.spec, tmp, 7, 15, 20, 16))
    cout = L.vals(L.raw(16))
    n = bad = 0
    for r in range(M):
        for c in range(N):
            k = r + ldc * c if order == 1 else ldc * r + c
            want = cin[k]
            if c >= off and not (alpha == 0 and beta == 1):
                want = want + alpha * sum(va[j] * vb[ldb * (col[j] - base) + c]
                                          for j in range(ptr[r] - base, ptr[r + 1] - base))
            n += 1
            bad += cout[k] != want
    return n, bad


ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--run', required=True, help='asmevo-run')
ap.add_argument('--object', required=True, help='code object holding the kernel')
ap.add_argument('--kernel', required=True, help='kernel symbol')
ap.add_argument('specs', nargs='+')
args = ap.parse_args()

failed = False
for spec in args.specs:
    name = os.path.basename(spec)
    check = (csrgemm if name.startswith('numeric_fill_wf_') else
             row_split if name.startswith('row_split_') else
             merge_path if name.startswith('merge_path_host_') else None)
    if check is None or '_bf16_' in name:
        print(f'{name}: skipped (no host reference for it here)')
        continue
    with tempfile.TemporaryDirectory() as tmp:
        run(args.run, args.object, args.kernel, spec, os.path.join(tmp, 'out'))
        res = check(Launch(spec, os.path.join(tmp, 'out')), tmp)
    if isinstance(res, str):
        print(f'{name}: INVALID: {res}')
        failed = True
        continue
    n, bad = res
    print(f'{name}: {n} values checked, {bad} differ from the host reference')
    failed |= bad > 0 or n == 0
sys.exit(1 if failed else 0)
