#!/usr/bin/env python3
"""Host reference checks of suite kernels: is K0's output the right answer?

The oracle (asmevo-verify) says whether a rewrite computes what the original
computes; it cannot say whether a launch spec is right. For production
kernels whose argument layout was derived by hand (rocBLAS Tensile GEMMs take
their arguments by value with unnamed semantics), a wrong spec can still run
without a fault and produce garbage. A check file next to the spec says what
the dispatch computes; this module runs the original on the emulator
(asmevo-run --out) and compares its output with a host computation.

Check file (JSON), kind "gemm":
  d, c, a, b      explicit-argument indices of the D, C, A, B buffers
  m, n, k         sizes (D is m x n, column-major, leading dimension ldd)
  batch           1 (batched checks are not implemented)
  trans_a/trans_b A stored k x m (trans_a) or m x k, same for B (n)
  lda ldb ldc ldd leading dimensions in elements
  alpha, beta     scalars
  dtype           "f32" or "f16" (A, B, C and D of that type)
  dtypes          optional {"a": .., "b": .., "c": .., "d": ..}: a type a
                  tensor ("f32", "f16", "f64"; "bf16", "fp8", "bf8" (gfx942's
                  FNUZ) for A and B)
  c               may be left out when beta is 0
  slices, slice_stride
                  optional: D is the sum of that many parts, slice_stride
                  elements apart (Tensile's GSU MultipleBuffer workspace)
D = alpha * op(A) op(B) + beta * C, compared exactly: the specs fill A, B
and C with small integers (fill "int-f32"/"int-f16"), so every summation
order gives the same result.

Kind "sparse_gemm" (hipSPARSELt's TensileLite GEMMs, utils/gen-tensile-specs.py):
  d, c, a, b, meta  argument indices; sparse "a" or "b": that operand is
                  held compressed (K/2 values a row or column, two of every
                  4 k) with a metadata byte per 4 values (2 bits each: the
                  value's position in its group of 4 k)
  m, n, k, batch  sizes (k the dense K)
  a_layout, b_layout
                  [row, k, batch] strides: element (i, kk, b) of op(A) at
                  i * a_layout[0] + kk * a_layout[1] + b * a_layout[2] (kk
                  over K/2 for the compressed one; same for op(B) by column)
  c_layout, d_layout, meta_layout
                  [1, ld, batch stride] (metadata: bytes)
  alpha, beta, dtypes ("i8" also), act [type, alpha, beta] (none, abs,
  relu, leakyrelu, clippedrelu: the f32 activations that are exact),
  bias / sav {"arg", "dim" (0: along M, 1: along N), "stride" (a batch)}
D = act(alpha * sav * op(A) op(B) + beta * C + bias), rounded to D's type
(int8: half to even, saturated), compared exactly.

Kind "prune_strip" (hipSPARSELt's 2:4 structured pruning along dimension 2):
  in, out         buffer argument indices; dtype "f16" or "f32"
  m, n            sizes; element (i, j) at i * stride1 + j * stride2
In every group of 4 consecutive elements along j, the pair with the largest
|a| + |b| (the first such pair in (0,1), (0,2), ... (2,3) order) is kept
and the other two are zeroed.

Kind "gather" (rocSPARSE gthr): out[i] = src[index[i] - base], i < count;
index is an i32 buffer (fill "index-i32:SEED:N").

Kind "csrmv" (rocSPARSE csrmvn): y = alpha * A x + beta * y0 with A in CSR
(separate row_begin/row_end offset arrays, col, val); y0 is y as the spec
makes it (fills "arith-i32" for the offsets, "index-i32" for columns).

Used by bench/run-suite (column "host check") and on its own:
  bench/kernels/hostcheck.py --build BUILD [--corpus DIR] [--filter RE]
runs every suite entry that has a check:FILE token. Exit 1 when a check
fails, 0 otherwise (entries whose object is absent are skipped, and said).
"""

import argparse
import array
import json
import operator
import os
import re
import struct
import subprocess
import sys
import tempfile


def _load(path, dtype):
    with open(path, "rb") as f:
        raw = f.read()
    if dtype == "f32":
        a = array.array("f")
        a.frombytes(raw[: len(raw) // 4 * 4])
        return list(a)
    if dtype == "f16":
        n = len(raw) // 2
        return list(struct.unpack("<%de" % n, raw[: 2 * n]))
    if dtype == "f64":
        a = array.array("d")
        a.frombytes(raw[: len(raw) // 8 * 8])
        return list(a)
    if dtype == "bf16":
        n = len(raw) // 2
        return [struct.unpack("<f", b"\0\0" + raw[2 * i:2 * i + 2])[0]
                for i in range(n)]
    if dtype in ("fp8", "bf8"):
        return [_fnuz8(b, 3 if dtype == "fp8" else 2) for b in raw]
    if dtype == "i8":
        return list(struct.unpack("<%db" % len(raw), raw))
    if dtype == "i32":
        a = array.array("i")
        a.frombytes(raw[: len(raw) // 4 * 4])
        return list(a)
    raise ValueError("unknown dtype %s" % dtype)


def _fnuz8(b, mant):
    """gfx942's 8-bit floats (FNUZ: e4m3 bias 8, e5m2 bias 16, 0x80 NaN)."""
    if b == 0x80:
        return float("nan")
    e, m = (b & 0x7f) >> mant, b & ((1 << mant) - 1)
    bias = 8 if mant == 3 else 16
    v = (m / (1 << mant) * 2.0 ** (1 - bias) if e == 0 else
         (1 + m / (1 << mant)) * 2.0 ** (e - bias))
    return -v if b & 0x80 else v


def _round(x, dtype):
    if dtype == "f32":
        return struct.unpack("<f", struct.pack("<f", x))[0]
    if dtype == "f64":
        return x
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    if dtype == "bf16":
        # round to nearest even from f32 (NaN and infinity not expected)
        b = struct.unpack("<I", struct.pack("<f", x))[0]
        b = (b + 0x7fff + (b >> 16 & 1)) >> 16 << 16
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if dtype == "i8":
        # TensileLite's int8 D: v_rndne_f32 (half to even, as round()),
        # v_cvt_i32_f32, v_med3_i32 with -128 and 127
        return max(-128, min(127, round(x)))
    if dtype == "i32":
        return int(x)
    raise ValueError("no rounding to %s" % dtype)


def check_gemm(c, outdir):
    dt = dict.fromkeys("abcd", c.get("dtype", "f32"))
    dt.update(c.get("dtypes", {}))
    if c.get("batch", 1) != 1:
        return False, "batched gemm checks are not implemented"
    arg = lambda i: os.path.join(outdir, "arg%d.bin" % c[i])
    D, A, B = (_load(arg(x), dt[x]) for x in ("d", "a", "b"))
    alpha, beta = c["alpha"], c["beta"]
    if "c" not in c and beta != 0:
        return False, "no C for beta %r" % beta
    C = _load(arg("c"), dt["c"]) if "c" in c else None
    m, n, k = c["m"], c["n"], c["k"]
    lda, ldb, ldc, ldd = c["lda"], c["ldb"], c["ldc"], c["ldd"]
    slices, sstride = c.get("slices", 1), c.get("slice_stride", 0)
    need = {"A": (len(A), (m - 1) * lda + k if c["trans_a"] else
                  (k - 1) * lda + m),
            "B": (len(B), (k - 1) * ldb + n if c["trans_b"] else
                  (n - 1) * ldb + k),
            "D": (len(D), (slices - 1) * sstride + (n - 1) * ldd + m)}
    if C is not None:
        need["C"] = (len(C), (n - 1) * ldc + m)
    for name, (have, want) in need.items():
        if have < want:
            return False, "%s has %d elements, the check needs %d" % (
                name, have, want)
    # Rows of op(A) and columns of op(B) as contiguous lists.
    if c["trans_a"]:
        rows = [A[i * lda:i * lda + k] for i in range(m)]
    else:
        rows = [A[i::lda][:k] for i in range(m)]
    if c["trans_b"]:
        cols = [B[j::ldb][:k] for j in range(n)]
    else:
        cols = [B[j * ldb:j * ldb + k] for j in range(n)]
    bad, first, nonzero = 0, None, 0
    for j in range(n):
        col = cols[j]
        for i in range(m):
            ref = alpha * sum(map(operator.mul, rows[i], col))
            if beta != 0:
                ref += beta * C[i + j * ldc]
            ref = _round(ref, dt["d"])
            # the parts are exact integers: their sum in any order
            got = D[i + j * ldd]
            for s in range(1, slices):
                got += D[s * sstride + i + j * ldd]
            if ref != 0:
                nonzero += 1
            if got != ref and not (got != got and ref != ref):
                bad += 1
                if first is None:
                    first = (i, j, got, ref)
    if bad:
        i, j, got, ref = first
        return False, ("%d of %d elements of D differ from the host GEMM; "
                       "first D[%d,%d] = %r, expected %r"
                       % (bad, m * n, i, j, got, ref))
    if nonzero == 0:
        return False, "the reference is all zeros: the check proves nothing"
    return True, ("D matches the host GEMM exactly (%dx%dx%d, %d nonzero "
                  "elements)" % (m, n, k, nonzero))


# TensileLite's activations in f32 (tensilelite/Tensile/Activation.py):
# the ones that are exact for exact inputs
_ACT = {
    "none": lambda x, a, b: x,
    "abs": lambda x, a, b: abs(x),
    "relu": lambda x, a, b: max(x, 0.0),
    "leakyrelu": lambda x, a, b: x if x >= 0 else _round(x * a, "f32"),
    "clippedrelu": lambda x, a, b: min(x, b) if x > a else 0.0,
}


def check_sparse_gemm(c, outdir):
    """hipSPARSELt's GEMM with a 2:4 structured-sparse operand: D =
    act(alpha * sav * op(A) op(B) + beta * C + bias) per batch, op(A) or
    op(B) held compressed (K/2 values a row) with a metadata byte for every
    4 of them (2 bits each: the value's position in its group of 4 k, the
    two of a group strictly increasing)."""
    dt = c["dtypes"]
    if dt["d"] not in ("f32", "f16", "bf16", "i8", "i32"):
        return None, "not checked (D of type %s)" % dt["d"]
    act = c.get("act", ["none", 0, 0])
    if act[0] not in _ACT:
        return None, "not checked (activation %s is not exact)" % act[0]
    arg = lambda i: os.path.join(outdir, "arg%d.bin" % c[i])
    A, B, D = _load(arg("a"), dt["a"]), _load(arg("b"), dt["b"]), _load(
        arg("d"), dt["d"])
    C = _load(arg("c"), dt["c"]) if c["beta"] != 0 else None
    with open(arg("meta"), "rb") as f:
        meta = f.read()
    m, n, k, batch = c["m"], c["n"], c["k"], c["batch"]
    ml = c["meta_layout"]
    alpha, beta = c["alpha"], c["beta"]

    def rows(X, lay, count, sparse, b):
        rs, ks, bs = lay
        out = []
        for r in range(count):
            base = b * bs + r * rs
            if not sparse:
                out.append([X[base + kk * ks] for kk in range(k)])
                continue
            dense, mrow, prev = [0.0] * k, b * ml[2] + r * ml[1], 0
            for cc in range(k // 2):
                idx = meta[mrow + cc // 4] >> (2 * (cc % 4)) & 3
                if cc % 2 and idx <= prev:
                    raise ValueError("metadata pair not increasing at row "
                                     "%d, k %d" % (r, cc))
                prev = idx
                dense[4 * (cc // 2) + idx] = X[base + cc * ks]
            out.append(dense)
        return out

    vecs = {}
    for key in ("bias", "sav"):
        if key in c:
            path = os.path.join(outdir, "arg%d.bin" % c[key]["arg"])
            vecs[key] = (_load(path, "f32"), c[key]["dim"],
                         c[key]["stride"])
    bad, first, nonzero = 0, None, 0
    for b in range(batch):
        ra = rows(A, c["a_layout"], m, c["sparse"] == "a", b)
        cb = rows(B, c["b_layout"], n, c["sparse"] == "b", b)
        for j in range(n):
            col = cb[j]
            for i in range(m):
                x = float(sum(map(operator.mul, ra[i], col)))
                if "sav" in vecs:
                    v, dim, _ = vecs["sav"]
                    x *= v[i if dim == 0 else j]
                x = alpha * x
                if beta != 0:
                    cl = c["c_layout"]
                    x += beta * C[i + j * cl[1] + b * cl[2]]
                if "bias" in vecs:
                    v, dim, st = vecs["bias"]
                    x += v[b * st + (i if dim == 0 else j)]
                x = _round(x, "f32")
                ref = _round(_ACT[act[0]](x, act[1], act[2]), dt["d"])
                dl = c["d_layout"]
                got = D[i + j * dl[1] + b * dl[2]]
                # GSU parts (a MultipleBuffer workspace): exact integers
                for s in range(1, c.get("slices", 1)):
                    got += D[s * c["slice_stride"] + i + j * dl[1] +
                             b * dl[2]]
                nonzero += ref != 0
                if got != ref and not (got != got and ref != ref):
                    bad += 1
                    if first is None:
                        first = (b, i, j, got, ref)
    if bad:
        b, i, j, got, ref = first
        return False, ("%d of %d elements of D differ from the host 2:4 "
                       "sparse GEMM; first D[%d,%d] of batch %d = %r, "
                       "expected %r" % (bad, m * n * batch, i, j, b, got,
                                        ref))
    if nonzero == 0:
        return False, "the reference is all zeros: the check proves nothing"
    return True, ("D matches the host 2:4 sparse GEMM exactly (%dx%dx%d, "
                  "batch %d, %d nonzero elements)" % (m, n, k, batch,
                                                      nonzero))


def check_lite_postgsu(c, outdir):
    """hipSPARSELt's PostGSU kernel (utils/gen-tensile-specs.py): D =
    act(alpha * sav * (the sum of gsu parts of W) + beta * C + bias), the
    tensors in the regions d, w, c, bias, sav (asmevo-run --out: after the
    run, region-<name>.bin)."""
    dt = c["types"]
    reg = lambda r, t: _load(os.path.join(outdir, "region-%s.bin" % r), t)
    D, W, C = reg("d", dt["d"]), reg("w", dt["w"]), reg("c", dt["d"])
    bias, sav = reg("bias", dt["bias"]), reg("sav", "f32")
    m, n, batch, gsu, dim = c["m"], c["n"], c["batch"], c["gsu"], c["dim"]
    dl, cl, wl = c["d_layout"], c["c_layout"], c["w_layout"]
    act = c["act"]
    part = wl[2] * batch
    bad, first, nonzero = 0, None, 0
    for b in range(batch):
        for j in range(n):
            for i in range(m):
                w = i + j * wl[1] + b * wl[2]
                x = float(sum(W[w + g * part] for g in range(gsu)))
                v = i if dim == 0 else j
                x = _round(c["alpha"] * x, "f32")
                x = _round(x * sav[v], "f32")
                x = _round(x + c["beta"] * C[i + j * cl[1] + b * cl[2]],
                           "f32")
                x = _round(x + bias[b * c["bias_stride"] + v], "f32")
                ref = _round(_ACT[act[0]](x, act[1], act[2]), dt["d"])
                got = D[i + j * dl[1] + b * dl[2]]
                nonzero += ref != 0
                if got != ref and not (got != got and ref != ref):
                    bad += 1
                    if first is None:
                        first = (b, i, j, got, ref)
    if bad:
        b, i, j, got, ref = first
        return False, ("%d of %d elements of D differ from the host PostGSU; "
                       "first D[%d,%d] of batch %d = %r, expected %r"
                       % (bad, m * n * batch, i, j, b, got, ref))
    if nonzero == 0:
        return False, "the reference is all zeros: the check proves nothing"
    return True, ("D matches the host PostGSU exactly (%dx%d, batch %d, gsu "
                  "%d, %d nonzero elements)" % (m, n, batch, gsu, nonzero))


def check_prune_strip(c, outdir):
    dt = c.get("dtype", "f16")
    arg = lambda i: os.path.join(outdir, "arg%d.bin" % c[i])
    X, Y = _load(arg("in"), dt), _load(arg("out"), dt)
    m, n, s1, s2 = c["m"], c["n"], c["stride1"], c["stride2"]
    if n % 4:
        return False, "n must be a multiple of 4"
    last = (m - 1) * s1 + (n - 1) * s2
    if last >= len(X) or last >= len(Y):
        return False, "buffers smaller than the check's m x n"
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    bad, first, kept = 0, None, 0
    for i in range(m):
        for g in range(0, n, 4):
            pos = [i * s1 + (g + k) * s2 for k in range(4)]
            v = [X[p] for p in pos]
            best, keep = -1.0, (0, 0)
            for a, b in pairs:
                nv = abs(v[a]) + abs(v[b])
                if nv > best:
                    best, keep = nv, (a, b)
            for k in range(4):
                ref = v[k] if k in keep else 0.0
                kept += ref != 0
                if Y[pos[k]] != ref:
                    bad += 1
                    if first is None:
                        first = (i, g + k, Y[pos[k]], ref)
    if bad:
        i, j, got, ref = first
        return False, ("%d of %d elements differ from the host 2:4 pruning; "
                       "first out[%d,%d] = %r, expected %r"
                       % (bad, m * n, i, j, got, ref))
    if kept == 0:
        return False, "the reference is all zeros: the check proves nothing"
    return True, ("out matches the host 2:4 pruning exactly (%dx%d, %d kept "
                  "nonzero elements)" % (m, n, kept))


def check_gather(c, outdir):
    dt = c.get("dtype", "f32")
    arg = lambda i: os.path.join(outdir, "arg%d.bin" % c[i])
    src, out = _load(arg("src"), dt), _load(arg("out"), dt)
    with open(arg("index"), "rb") as f:
        idx = array.array("i")
        raw = f.read()
        idx.frombytes(raw[: len(raw) // 4 * 4])
    n, base = c["count"], c.get("base", 0)
    if len(idx) < n or len(out) < n:
        return False, "buffers smaller than the check's count"
    bad, first, distinct = 0, None, set()
    for i in range(n):
        k = idx[i] - base
        if not 0 <= k < len(src):
            return False, "index %d at %d is outside the source" % (k, i)
        distinct.add(k)
        if out[i] != src[k] and not (out[i] != out[i] and src[k] != src[k]):
            bad += 1
            if first is None:
                first = (i, out[i], src[k])
    if bad:
        i, got, ref = first
        return False, ("%d of %d gathered elements differ; first out[%d] = "
                       "%r, expected %r" % (bad, n, i, got, ref))
    if len(distinct) < 2:
        return False, "the indices hit fewer than 2 source elements: the " \
                      "check proves little"
    return True, ("out[i] = src[index[i]] for all %d elements (%d distinct "
                  "indices)" % (n, len(distinct)))


_manifests = {}


def corpus_object(corpus, rel):
    """(path, None) for a corpus object listed in corpus/manifest.txt and
    present, else (None, why it is skipped)."""
    manifest = os.path.join(corpus, "manifest.txt")
    if manifest not in _manifests:
        listed = None
        if os.path.isfile(manifest):
            with open(manifest) as f:
                listed = {ln.split("\t", 1)[0] for ln in f
                          if not ln.startswith("#")}
        _manifests[manifest] = listed
    listed = _manifests[manifest]
    if listed is None:
        return None, ("corpus absent (no %s; fetch it with "
                      "utils/fetch-rocm-corpus.sh)" % manifest)
    if rel not in listed:
        return None, ("%s is not in %s (another ROCm version?)"
                      % (rel, manifest))
    path = os.path.join(corpus, rel)
    if not os.path.isfile(path):
        return None, ("%s is listed in the manifest but missing; re-run "
                      "utils/fetch-rocm-corpus.sh" % path)
    return path, None


def _ints(path):
    with open(path, "rb") as f:
        raw = f.read()
    a = array.array("i")
    a.frombytes(raw[: len(raw) // 4 * 4])
    return a


def check_csrmv(c, outdir, before):
    """y = alpha * A x + beta * y0 (A in CSR with separate begin/end
    offsets); before holds the inputs (the spec's bytes of y)."""
    dt = c.get("dtype", "f32")
    arg = lambda i: os.path.join(outdir, "arg%d.bin" % c[i])
    rb, re_, col = _ints(arg("row_begin")), _ints(arg("row_end")), \
        _ints(arg("col"))
    val, x, y = _load(arg("val"), dt), _load(arg("x"), dt), \
        _load(arg("y"), dt)
    y0 = _load(os.path.join(before, "arg%d.bin" % c["y"]), dt)
    m, base, alpha, beta = c["m"], c.get("base", 0), c["alpha"], c["beta"]
    if min(len(rb), len(re_), len(y), len(y0)) < m:
        return False, "buffers smaller than the check's m"
    bad, first, nnz = 0, None, 0
    for r in range(m):
        s = 0.0
        for j in range(rb[r] - base, re_[r] - base):
            k = col[j] - base
            if not (0 <= j < len(val) and 0 <= k < len(x)):
                return False, "row %d: entry %d or column %d out of range" % (
                    r, j, k)
            s += alpha * val[j] * x[k]
            nnz += 1
        ref = _round(s + beta * y0[r] if beta != 0 else s, dt)
        if y[r] != ref:
            bad += 1
            if first is None:
                first = (r, y[r], ref)
    if bad:
        r, got, ref = first
        return False, ("%d of %d rows differ from the host SpMV; first y[%d] "
                       "= %r, expected %r" % (bad, m, r, got, ref))
    if nnz == 0:
        return False, "the matrix is empty: the check proves nothing"
    return True, ("y matches the host SpMV exactly (%d rows, %d nonzeros)"
                  % (m, nnz))


def run_check(asmevo_run, obj, kernel, spec, check_path, timeout=900):
    """(ok, message). Runs K0 with the spec and checks its output."""
    with open(check_path) as f:
        c = json.load(f)
    with tempfile.TemporaryDirectory(prefix="asmevo-hostcheck-") as out:
        before = os.path.join(out, "before")
        p = subprocess.run([asmevo_run, obj, "--kernel", kernel, "--spec",
                            spec, "--inputs", before, "--out", out,
                            "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        if p.returncode != 0:
            msg = (p.stderr or p.stdout).strip().splitlines()
            return False, "asmevo-run failed (exit %d): %s" % (
                p.returncode, msg[-1] if msg else "")
        if c.get("kind") == "gemm":
            return check_gemm(c, out)
        if c.get("kind") == "csrmv":
            return check_csrmv(c, out, before)
        if c.get("kind") == "gather":
            return check_gather(c, out)
        if c.get("kind") == "prune_strip":
            return check_prune_strip(c, out)
        return False, "unknown check kind %r" % c.get("kind")


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default=os.environ.get(
        "ASMEVO_BUILD_DIR", os.path.join(root, "build")))
    ap.add_argument("--corpus", default=os.environ.get(
        "ASMEVO_CORPUS", os.path.join(root, "corpus")))
    ap.add_argument("--suite", default=os.path.join(root, "bench", "kernels",
                                                    "suite.txt"))
    ap.add_argument("--filter", help="regex on suite names")
    args = ap.parse_args()
    asmevo_run = os.path.join(args.build, "bin", "asmevo-run")
    if not os.access(asmevo_run, os.X_OK):
        sys.exit("hostcheck: %s is not built" % asmevo_run)
    suite_dir = os.path.dirname(os.path.abspath(args.suite))
    failed = ran = 0
    with open(args.suite) as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            checks = [p[6:] for p in parts if p.startswith("check:")]
            if len(parts) < 5 or not checks:
                continue
            name, obj, kernel = parts[0], parts[2], parts[3]
            if args.filter and not re.search(args.filter, name):
                continue
            specs = [p for p in parts[4:] if not p.startswith("check:")]
            if obj.startswith("corpus:"):
                path, why = corpus_object(args.corpus, obj[7:])
            else:
                path = os.path.join(args.build, "test", "Kernels", obj)
                why = None if os.path.isfile(path) else "not built: " + path
            if why:
                print("%s: SKIPPED: %s" % (name, why))
                continue
            ok, msg = run_check(asmevo_run, path, kernel,
                                os.path.join(suite_dir, specs[0]),
                                os.path.join(suite_dir, checks[0]))
            ran += 1
            failed += not ok
            print("%s: %s: %s" % (name, "ok" if ok else "FAILED", msg),
                  flush=True)
    print("hostcheck: %d checked, %d failed" % (ran, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
