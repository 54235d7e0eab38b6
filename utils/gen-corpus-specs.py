#!/usr/bin/env python3
"""Writes test/Verify/corpus-specs/: dispatch specs (docs/run-spec.md) for the
corpus kernel families whose arguments must agree (a sorted CSR/COO matrix
with its sizes, dense operands whose leading dimensions fit, the launch the
host code makes), so that asmevo-mutate/asmevo-verify --spec-dir run them on
valid launches (docs/verification.md, corpus mutation sample).

Each family below follows the kernel's parameters in the order of its
demangled signature (checked against the code object's kernarg metadata:
sizes and offsets) and the meaning rocSPARSE/rocBLAS give them (read in the
public sources; nothing copied). Every spec says in "about" what the launch
is. Run from anywhere: python3 utils/gen-corpus-specs.py (rewrites the
directory's files; review the diff); lit spec-dir.test checks that the
committed files are what this script writes.
"""
import json, os, re, shutil, struct

import argparse

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--out', default=os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', 'test', 'Verify',
    'corpus-specs'), help='directory to write (default: the repository\'s)')
OUT = ap.parse_args().out

def f32hex(*vals):
    return ''.join(struct.pack('<f', v).hex() for v in vals)

class Ty:
    def __init__(s, name, size, fill, comps=1):
        s.name, s.size, s.fill, s.comps = name, size, fill, comps
F32 = Ty('float', 4, 'int-f32')
CF32 = Ty('complex<float>', 8, 'int-f32', 2)
BF16 = Ty('bf16', 2, 'int-f16')
F64 = Ty('double', 8, 'int-f64')
CF64 = Ty('complex<double>', 16, 'int-f64', 2)
I32 = Ty('int', 4, None)
I64 = Ty('long', 8, None)
# Value types of the _Float16 and int8 instantiations (rocSPARSE computes
# int8 products in int): integer values get random bytes (integer sums are
# exact in any order) and integer scalars.
F16 = Ty('_Float16', 2, 'int-f16')
I8V = Ty('signed char', 1, 'random')
I32V = Ty('int', 4, 'random')
I32V.integer = True

def valhex(T, re_, im=0.0):
    # a scalar's bytes: an integer type takes the value truncated (1.5 -> 1)
    if getattr(T, 'integer', False):
        return struct.pack('<i', int(re_)).hex()
    if T.name == '_Float16':
        return (struct.pack('<e', re_).hex() + (struct.pack('<e', im).hex() if T.comps == 2 else ''))
    h = (lambda x: struct.pack('<d', x).hex()) if T.fill == 'int-f64' else f32hex
    return (h(re_) + (h(im) if T.comps == 2 else ''))[:2 * T.size]

def special_patch(T, value, offsets):
    # "patch" entries writing a special value (-0.0, inf) into elements of a
    # buffer of type T (every component of a complex element)
    one = {'_Float16': '<e'}.get(T.name, '<d' if T.fill == 'int-f64' else '<f')
    h = struct.pack(one, value).hex() * T.comps
    return [{'offset': k * T.size, 'bytes': h} for k in offsets]

def alpha_host(T, re_, im=-0.5):
    # const_host_device_scalar<T>: the value in host mode, at least 8 bytes
    # (the device pointer); 16 for complex<double>
    return {'bytes': valhex(T, re_, im).ljust(max(16, 2 * T.size), '0')}

def buf(nelem, T_or_size, fill, seed=None):
    size = T_or_size if isinstance(T_or_size, int) else T_or_size.size
    f = fill if seed is None else f'{fill}:{seed}'
    return {'buffer_size': nelem * size, 'fill': f}

def clean():
    for fam in os.listdir(OUT) if os.path.isdir(OUT) else []:
        p = os.path.join(OUT, fam)
        if os.path.isdir(p):
            shutil.rmtree(p)

clean()

def ival(I, v):
    return {'i64' if I == 8 else 'i32': v}

def write(family, name, match, about, wg, wgs, args, lds=None, regions=None):
    """One spec file; args (and regions) one per line so that diffs stay
    readable."""
    if 'signed char' in match:
        # the int8 instantiations compute in int: the scalars the families
        # write as 1.5, 0.5i... are their integer parts (valhex)
        about += '; int8 values, int scalars and C: scalars truncated to integers (1.5 -> 1), values random bytes'
    d = {'match': match, 'about': about, 'workgroups': wg, 'workgroup_size': wgs,
         'args': args}
    if lds is not None:
        d['dynamic_lds'] = lds
    os.makedirs(f'{OUT}/{family}', exist_ok=True)
    lines = ['{']
    for k in ('match', 'about', 'workgroups', 'workgroup_size', 'dynamic_lds'):
        if k in d:
            lines.append(f' {json.dumps(k)}: {json.dumps(d[k])},')
    lines.append(' "args": [')
    lines.append(',\n'.join('  ' + json.dumps(a) for a in args))
    if regions:
        # memory reached only through pointers the spec stores
        # (docs/run-spec.md, "Pointers in memory and extra regions")
        lines.append(' ],')
        lines.append(' "regions": {')
        lines.append(',\n'.join(f'  {json.dumps(k)}: {json.dumps(v)}'
                                for k, v in regions.items()))
        lines.append(' }')
    else:
        lines.append(' ]')
    lines.append('}')
    with open(f'{OUT}/{family}/{name}.json', 'w') as fh:
        fh.write('\n'.join(lines) + '\n')

def esc(s):
    return re.sub(r'([()\[\].*+?{}|^$\\])', r'\\\1', s)

def dm(prefix, targs):
    # anchored on the demangled name up to the end of the template arguments
    # c++filt writes '> >', LLVM's demangler '>>'
    return ('^void ' + esc(prefix + '<' + targs + '>') + r'\(').replace('>>', '> ?>')

# ---- coommnn_segmented_remainder_kernel<256, WF, LOOPS, TRANSB, T, I, A, B, C>
def coomm_seg_rem(tag, targs, T, I, A, B, C):
    WF, LOOPS, BS = 4, 4, 256
    match = dm('rocsparse::coommnn_segmented_remainder_kernel', targs)
    for v, (nnz, batch, order, base, host, M, N, K, ldb, colB) in enumerate([
            (2500, 1, 1, 0, True, 300, 7, 50, 53, 4),
            (1300, 2, 0, 1, False, 300, 12, 40, 41, 8),
            (1024, 1, 1, 0, True, 130, 11, 17, 17, 8),
            (2100, 1, 0, 0, True, 40, 20, 90, 90, 16),
            (1300, 1, 1, 0, True, 25, 19, 70, 70, 16),
            (2048, 1, 0, 0, False, 140, 12, 40, 41, 8),
            # four columns (N - colB = 4) into a column-major C: the store of
            # column colB + 3 at (colB + 3) * ldc + row, which the row-major
            # four-column launches above do not reach
            (1300, 1, 1, 0, True, 140, 12, 40, 41, 8)]):
        # The host launches this WF=4 kernel for the last n % 8 columns when
        # that is 3 or 4 (n >= 8), or for n = 7 (columns 4..6): colB is a
        # multiple of 8 (or 4 for n = 7) and N - colB is 3 or 4.
        # rows of 9 (segments across wave and block edges), 8, 70 (a
        # segment longer than a wave: the reduction's 64- and 128-steps)
        # and 65 (a segment that ends on lane 64 and starts on lane 0: its
        # sum takes the 64-step)
        # rows of 16 with a row-major C: rows end on the 256-entry chunk
        # edges, so thread 0 adds the carried sums of the row before
        per_row = [9, 9, 8, 70, 65, 16, 10][v]
        gx = (nnz + LOOPS * BS - 1) // (LOOPS * BS)
        ldc = (M + 1) if order == 1 else (N + 2)
        csize = ldc * N if order == 1 else ldc * M
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(I.size, colB),
                ival(I.size, M), ival(I.size, N), ival(I.size, K),
                {'i64': nnz}, {'i64': nnz if batch > 1 else 0},
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 11),
                buf(gx * batch, I.size, 'zero'),
                buf(gx * (colB + WF) + gx * N * (batch - 1) + gx, T, 'zero'),
                buf(nnz * batch, I.size, f'arith-i{8*I.size}:{base}:1:{per_row}'),
                buf(nnz * batch, I.size, f'cols-i{8*I.size}:{5+v}:{K}:{per_row}:{base}'),
                buf(nnz * batch, A, A.fill, 21 + v),
                buf(ldb * N * batch, B, B.fill, 31 + v),
                {'i64': ldb}, {'i64': ldb * N if batch > 1 else 0},
                buf(csize * batch, C, C.fill, 41 + v),
                {'i64': ldc}, {'i64': csize if batch > 1 else 0},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'COO SpMM remainder columns [{colB}, {N}) of C = alpha A B + C: '
                 f'M={M} N={N} K={K}, nnz={nnz} sorted in rows of {per_row}, '
                 f'{"column" if order else "row"}-major C, index base {base}, '
                 f'alpha {"by value" if host else "by device pointer"}, {batch} batch(es); '
                 f'grid x = ceil(nnz / (LOOPS*256)) = {gx}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('coomm', f'segmented_remainder_{tag}_{v}', match, about,
              [gx, 1, batch], [BS], args)

coomm_seg_rem('f32_i32', '256u, 4u, 4u, false, float, int, float, float, float',
              F32, I32, F32, F32, F32)
coomm_seg_rem('c64_i64', '256u, 4u, 4u, false, rocsparse_complex_num<float>, long, '
              'rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
              'rocsparse_complex_num<float>', CF32, I64, CF32, CF32, CF32)
coomm_seg_rem('bf16_i32', '256u, 4u, 4u, false, float, int, rocsparse_bfloat16, '
              'rocsparse_bfloat16, float', F32, I32, BF16, BF16, F32)
# the other value types (complex with 32-bit indices, _Float16, int8 into
# int) of the same launches: ./test.sh --corpus's larger sample
coomm_seg_rem('c64_i32', '256u, 4u, 4u, false, rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
              CF32, I32, CF32, CF32, CF32)
coomm_seg_rem('f16_i32', '256u, 4u, 4u, false, float, int, _Float16, _Float16, float',
              F32, I32, F16, F16, F32)
coomm_seg_rem('i8_i32', '256u, 4u, 4u, false, int, int, signed char, signed char, int',
              I32V, I32, I8V, I8V, I32V)

# ---- csrmmnn_nnz_split_remainder_kernel<256, WF, I, J, A, B, C, T>
def nnz_split_row_limits(M, nb, R, nnz_per_block=256):
    """row_limits as csrmmnn_nnz_split_compute_row_limits writes them for a
    row pointer of rows of R entries (row_ptr[r] - base = R r): for block b
    the bisection's left for s0 = 256 b, and m after the last block."""
    out = []
    for b in range(nb):
        s0 = nnz_per_block * b
        left, right = 0, M
        mid = (left + right) // 2
        while R * left < s0 and left < mid and right > mid:
            if R * mid <= s0:
                left = mid
            else:
                right = mid
            mid = (left + right) // 2
        out.append(left)
    return out + [M]

def limits_file(family, name, J, vals):
    os.makedirs(f'{OUT}/{family}', exist_ok=True)
    with open(f'{OUT}/{family}/{name}.limits.bin', 'wb') as fh:
        fh.write(b''.join(v.to_bytes(J.size, 'little') for v in vals))
    return {'buffer': f'{name}.limits.bin', 'readonly': True}


def csrmm_nnz_rem(tag, targs, I, J, A, B, C, T, WF=2):
    BS = 256
    match = dm('rocsparse::csrmmnn_nnz_split_remainder_kernel', targs)
    for v, (nnz, R, order, base, host, N, K, ldb, off) in enumerate([
            (1900, 8, 1, 0, True, 5, 40, 43, 4),
            (1024, 16, 0, 1, False, 2, 33, 33, 0),
            (1400, 100, 1, 0, True, 7, 120, 121, 6),
            # Only the last block stores rows (the others leave a carry), and
            # a lane stores when the next entry starts another row. Rows of 3
            # with three blocks make entry 512, the last block's lane 0, the
            # end of row 170: lane 0 stores (even row lengths never make it).
            (700, 3, 0, 0, True, 3, 17, 19, 1),
            # rows of 600: blocks 1 and 3 lie inside one row, row_limits[b]
            # = row_limits[b + 1], so their lanes skip the bisection
            (1400, 600, 1, 1, True, 5, 700, 701, 4)]):
        nb = (nnz + BS - 1) // BS
        M = (nnz + R - 1) // R + 3
        nrp = max(M + 1, (BS * nb) // R + 2)
        ldc = (M + 2) if order == 1 else (N + 1)
        csize = ldc * N if order == 1 else ldc * M
        limits = limits_file('csrmm', f'nnz_split_remainder_{tag}_{v}', J,
                             nnz_split_row_limits(M, nb, R))
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(J.size, off),
                ival(J.size, M), ival(J.size, N), ival(J.size, K), ival(I.size, nnz),
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 12),
                buf(nb, J.size, 'zero'), buf(nb * N, T, 'zero'), limits,
                buf(nrp, I.size, f'arith-i{8*I.size}:{base}:{R}'),
                buf(nnz, J.size, f'cols-i{8*J.size}:{7+v}:{K}:{R}:{base}'),
                buf(nnz, A, A.fill, 22 + v), buf(ldb * N, B, B.fill, 32 + v),
                {'i64': ldb},
                alpha_host(T, 1.0, 0.0) if host else buf(1, T, T.fill, 13),
                buf(csize, C, C.fill, 42 + v), {'i64': ldc},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'CSR SpMM (nnz split) remainder columns [{off}, {N}): M={M} '
                 f'(3 rows more than the entries fill; row_ptr is only read below nnz) N={N} K={K}, nnz={nnz} in rows of {R}, '
                 f'row_limits as csrmmnn_nnz_split_compute_row_limits computes them '
                 f'(its bisection for entry 256 b; last = M; a .bin file); {"column" if order else "row"}-major C, '
                 f'index base {base}, alpha/beta {"by value" if host else "by device pointer"}; '
                 f'grid = ceil(nnz / 256) = {nb}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('csrmm', f'nnz_split_remainder_{tag}_{v}', match, about, [nb], [BS], args)

csrmm_nnz_rem('f32_i32_i32', '256u, 2u, int, int, float, float, float, float',
              I32, I32, F32, F32, F32, F32)
csrmm_nnz_rem('bf16_i64_i32', '256u, 2u, long, int, rocsparse_bfloat16, rocsparse_bfloat16, float, float',
              I64, I32, BF16, BF16, F32, F32)
csrmm_nnz_rem('c64_i64_i64', '256u, 2u, long, long, rocsparse_complex_num<float>, '
              'rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
              I64, I64, CF32, CF32, CF32, CF32)
csrmm_nnz_rem('c64_i32_i32', '256u, 2u, int, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
              I32, I32, CF32, CF32, CF32, CF32)
csrmm_nnz_rem('f16_i32_i32', '256u, 2u, int, int, _Float16, _Float16, float, float',
              I32, I32, F16, F16, F32, F32)
csrmm_nnz_rem('i8_i32_i32', '256u, 2u, int, int, signed char, signed char, int, int',
              I32, I32, I8V, I8V, I32V, I32V)

# ---- csrmmnt_row_split_subwfsize_x_loop_plus_swfs_columns_kernel
#      <256, 16, 8, LOOP, SUBWFSIZES..., T, I, J, A, B, C>
def csrmm_row_split(tag, targs, ncols, T, I, J, A, B, C):
    BS, WF = 256, 16
    match = dm('rocsparse::csrmmnt_row_split_subwfsize_x_loop_plus_swfs_columns_kernel',
               targs)
    for v, (M, R, K, start, order, base, host, beta, batch, *extra) in enumerate([
            (100, 20, 45, 0, 1, 0, True, 0.0, 1),
            (37, 5, 9, 3, 0, 1, False, 2.0, 2),
            (70, 33, 64, 1, 1, 0, True, -1.0, 1),
            (45, 17, 30, 2, 0, 0, True, (0.0, 0.5), 1),
            # beta exactly 1 (+0i) with alpha != 0: the early return is
            # for alpha == 0 and beta == 1 together only
            (50, 9, 40, 8, 1, 0, True, (1.0, 0.0), 2),
            # alpha == 0 and beta == 1 by device pointer (the kernel's own
            # early return; B is not referenced then: random bytes, NaNs)
            (30, 4, 20, 0, 0, 0, False, (1.0, 0.0), 1, 'alpha0'),
            # values 0 or 1, every other row empty, the others of 3 entries:
            # many (row, column) sums are exactly 0, so an accumulator's
            # initial value shows through alpha * sum (beta 0); start 7 puts
            # the last column of the 59-wide split at 65
            (40, 3, 24, 7, 1, 0, True, (0.0, 0.0), 2, 'bin'),
            (41, 3, 24, 9, 0, 1, True, (0.0, 0.0), 2, 'bin'),
            # the arrays start 64 elements into their allocations (a caller's
            # sub-allocations): pointers whose low dwords are not 0, which
            # the batch offsets' 64-bit arithmetic must carry
            (64, 12, 30, 5, 0, 0, True, 0.5, 1, 'moved'),
            # every other row empty (the others of 5 entries) and infs in B's
            # row 0: the lanes past a row's end multiply 0 by B's row 0 (K0
            # gives NaN there), so code that let an empty row's lanes into
            # the loop would turn its alpha * 0 into NaN
            (40, 5, 24, 3, 1, 0, True, (0.0, 0.0), 1, 'infB'),
            # int8 B only: batch_stride_B = 2^31 + 2^20 elements and 3
            # batches, so batch 2's B starts 4 GiB + 2 MiB in (a sparse
            # buffer, docs/run-spec.md): mul_hi(lo32(batch_stride_B), 2) = 1
            (40, 5, 24, 2, 0, 0, True, 0.5, 3, 'hugeB')]):
        # beta: 0 exactly (complex: 0 + 0i), and 0 + 0.5i (the real part
        # alone does not decide beta == 0)
        alpha0 = 'alpha0' in extra
        binv = 'bin' in extra
        infb = 'infB' in extra
        hugeb = 'hugeB' in extra
        if hugeb and B.size != 1:
            continue
        # rows of R entries, or empty and R alternating
        rep = 2 if binv or infb else 1
        end = start + ncols
        gx = (M - 1) // (BS // WF) + 1
        nnz = M // rep * R
        ldb = end + 1
        ldc = (M + 3) if order == 1 else (end + 2)
        csize = ldc * end if order == 1 else ldc * M
        bsize = ldb * K
        def scal(x, seed, exact=False):
            re_, im = x if isinstance(x, tuple) else (x, 0.0 if x == 0 else 0.25)
            if host:
                return alpha_host(T, re_, im)
            if not exact:
                return buf(1, T, T.fill, seed)
            b = buf(1, T, 'zero')
            b['patch'] = [{'offset': 0, 'bytes': valhex(T, re_, im)}]
            return b
        def vals(n, Ty, seed):
            if not binv:
                return buf(n, Ty, Ty.fill, seed)
            # 0 or 1 (16- and 8-bit and int values: zeros; their fills have
            # no range)
            return buf(n, Ty, f'{Ty.fill}:{seed}:0:1' if Ty.fill in ('int-f32', 'int-f64') else 'zero')
        args = [scal((0.0, 0.0) if alpha0 else 1.5, 14, alpha0), scal(beta, 15, alpha0),
                {'u8': 1 if host else 0},
                ival(J.size, start), ival(J.size, end), ival(J.size, M),
                ival(J.size, end),
                {'i64': (M + 1) if batch > 1 else 0}, {'i64': nnz if batch > 1 else 0},
                buf((M + 1) * batch, I.size, f'arith-i{8*I.size}:{base}:{R}' + (':2' if rep == 2 else '')),
                buf(nnz * batch, J.size, f'cols-i{8*J.size}:{9+v}:{K}:{R}:{base}'),
                vals(nnz * batch, A, 23 + v),
                buf(bsize * batch, B, 'random', 33 + v) if alpha0 else vals(bsize * batch, B, 33 + v),
                {'i64': ldb},
                {'i64': bsize if batch > 1 else 0},
                buf(csize * batch, C, C.fill, 43 + v), {'i64': ldc},
                {'i64': csize if batch > 1 else 0},
                {'u32': order}, {'u32': base}, {'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}]
        if 'moved' in extra:
            # pad elements before each array; the row offsets' and column
            # runs' fills start pad elements early (a multiple of R: the
            # rows' column runs stay whole)
            pad = 6 * R
            for i, Ty in ((9, I), (10, J), (11, A), (12, B), (15, C)):
                a = args[i]
                a['buffer_size'] += pad * Ty.size
                a['pointer_offset'] = pad * Ty.size
            args[9]['fill'] = f'arith-i{8*I.size}:{base - R * pad}:{R}'
        if hugeb:
            sb = (1 << 31) + (1 << 20)
            args[12] = {'buffer_size': sb * (batch - 1) + bsize, 'fill': f'random:{33 + v}', 'sparse': True}
            args[14] = {'i64': sb}
        if infb and B.name in ('float', 'complex<float>', '_Float16'):
            # (integer values: 0 * b is 0; bfloat16 has no patch helper)
            args[12]['patch'] = special_patch(B, float('inf'), range(start, end, 4))
        if batch > 1:
            # the second batch's row offsets continue the first's: rebase them
            args[9] = buf((M + 1) * batch, I.size, f'arith-i{8*I.size}:{base}:{R}' + (':2' if binv else ''))
            args[9]['patch'] = [
                {'offset': (b * (M + 1) + r) * I.size,
                 'bytes': (base + R * (r // rep)).to_bytes(I.size, 'little').hex()}
                for b in range(1, batch) for r in range(M + 1)]
        about = (f'CSR x dense (B row-major) columns [{start}, {end}) of C = alpha A B + beta C: '
                 f'M={M} K={K} in rows of {R}{" after every empty row" if rep == 2 else ""} (16 lanes per row: rows longer and shorter than 16), '
                 + (f'alpha=0, ' if alpha0 else f'alpha=1.5 (complex: 1.5+0.25i), ' if host else
                    'alpha and beta small integers from the fills (device pointers), ')
                 + (f'beta={beta if not isinstance(beta, tuple) else ("%g+%gi (%g for real types)" % (beta[0], beta[1], beta[0]))}, '
                    if host or alpha0 else '') +
                 f'{"column" if order else "row"}-major C, index base {base}, '
                 f'{batch} batch(es), scalars {"by value" if host else "by device pointer"}; '
                 f'grid x = ceil(M / 16) = {gx}')
        if alpha0:
            about += '; B random bytes (not referenced when alpha = 0 and beta = 1)'
        if binv:
            about += '; A and B values 0 or 1 (bfloat16 A: zeros): sums exactly 0'
        if 'moved' in extra:
            about += '; row_ptr, col_ind, val, B and C start 6 R elements into their buffers'
        if infb:
            about += '; infs in B row 0 at columns start, start + 4, ...'
        if hugeb:
            about += '; batch_stride_B = 2^31 + 2^20 (batch 2 of B 4 GiB + 2 MiB in: a sparse buffer)'
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('csrmm', f'row_split_{tag}_{v}', match, about, [gx, batch], [BS], args)

csrmm_row_split('l3_4_f32', '256u, 16u, 8u, 3u, 4u, float, int, int, float, float, float', 28,
                F32, I32, I32, F32, F32, F32)
csrmm_row_split('l3_4_c64', '256u, 16u, 8u, 3u, 4u, rocsparse_complex_num<float>, long, long, '
                'rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>', 28,
                CF32, I64, I64, CF32, CF32, CF32)
csrmm_row_split('l3_4_bf16', '256u, 16u, 8u, 3u, 4u, float, long, int, rocsparse_bfloat16, '
                'rocsparse_bfloat16, float', 28, F32, I64, I32, BF16, BF16, F32)
csrmm_row_split('l7_2_1_f32', '256u, 16u, 8u, 7u, 2u, 1u, float, int, int, float, float, float', 59,
                F32, I32, I32, F32, F32, F32)
csrmm_row_split('l7_2_1_c64', '256u, 16u, 8u, 7u, 2u, 1u, rocsparse_complex_num<float>, long, long, '
                'rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>', 59,
                CF32, I64, I64, CF32, CF32, CF32)
csrmm_row_split('l7_2_1_bf16', '256u, 16u, 8u, 7u, 2u, 1u, float, long, int, rocsparse_bfloat16, '
                'rocsparse_bfloat16, float', 59, F32, I64, I32, BF16, BF16, F32)
# complex, _Float16 and int8 with 32-bit indices, and the 43-column split
# (8 * 5 + 2 + 1: csrmmnt_template_row_split launches it for 43..47 columns)
for loop, ncols in (('3u, 4u', 28), ('5u, 2u, 1u', 43), ('7u, 2u, 1u', 59)):
    lt = 'l' + loop.replace('u', '').replace(', ', '_')
    if loop == '5u, 2u, 1u':
        csrmm_row_split(f'{lt}_f32', f'256u, 16u, 8u, {loop}, float, int, int, float, float, float',
                        ncols, F32, I32, I32, F32, F32, F32)
    csrmm_row_split(f'{lt}_c64_i32', f'256u, 16u, 8u, {loop}, rocsparse_complex_num<float>, int, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                    ncols, CF32, I32, I32, CF32, CF32, CF32)
    csrmm_row_split(f'{lt}_f16', f'256u, 16u, 8u, {loop}, float, int, int, _Float16, _Float16, float',
                    ncols, F32, I32, I32, F16, F16, F32)
    csrmm_row_split(f'{lt}_i8', f'256u, 16u, 8u, {loop}, int, int, int, signed char, signed char, int',
                    ncols, I32V, I32, I32, I8V, I8V, I32V)

# ---- csrmmnn_row_split_shared_kernel<256, 8, T, I, J, A, B, C>
#      csrmmnn_template_row_split launches it for n <= 32: 8 lanes per row
#      (32 rows per block), 8 columns per workgroup along y, B column-major
#      (B[col * ldb + k], ldb >= k), a barrier per 8-entry chunk of a row.
def csrmmnn_row_split_shared(tag, targs, T, I, J, A, B, C):
    BS, WF = 256, 8
    match = dm('rocsparse::csrmmnn_row_split_shared_kernel', targs)
    for v, (M, R, K, N, order, base, host, beta, batch) in enumerate([
            (100, 20, 45, 13, 1, 0, True, 0.0, 1),
            (37, 5, 9, 8, 0, 1, False, 2.0, 2),
            (70, 9, 64, 32, 1, 0, True, -1.0, 1),
            (45, 17, 30, 3, 0, 0, True, (0.0, 0.5), 1),
            # beta exactly 1 with alpha != 0 (the early return is for
            # alpha == 0 and beta == 1 together)
            (50, 8, 40, 20, 1, 0, True, (1.0, 0.0), 2),
            # beta 0 into a C of 2 batches (both orders): the second
            # batch's stores add batch_stride_C
            (40, 6, 20, 11, 0, 1, True, 0.0, 2),
            (33, 7, 25, 17, 1, 0, True, 0.0, 2)]):
        gx, gy = (M - 1) // (BS // WF) + 1, (N - 1) // WF + 1
        nnz = M * R
        ldb = K + 1
        ldc = (M + 3) if order == 1 else (N + 2)
        csize = ldc * N if order == 1 else ldc * M
        def scal(x, seed):
            re_, im = x if isinstance(x, tuple) else (x, 0.0 if x == 0 else 0.25)
            return alpha_host(T, re_, im) if host else buf(1, T, T.fill, seed)
        rp = buf((M + 1) * batch, I.size, f'arith-i{8*I.size}:{base}:{R}')
        if batch > 1:
            # each batch's row offsets start again at the base
            rp['patch'] = [{'offset': (M + 1 + r) * I.size,
                            'bytes': (base + R * r).to_bytes(I.size, 'little').hex()}
                           for r in range(M + 1)]
        args = [scal(1.5, 14), scal(beta, 15), {'u8': 1 if host else 0},
                {'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0},
                ival(J.size, M), ival(J.size, N),
                {'i64': (M + 1) if batch > 1 else 0}, {'i64': nnz if batch > 1 else 0},
                rp, buf(nnz * batch, J.size, f'cols-i{8*J.size}:{9+v}:{K}:{R}:{base}'),
                buf(nnz * batch, A, A.fill, 23 + v),
                buf(ldb * N * batch, B, B.fill, 33 + v), {'i64': ldb},
                {'i64': ldb * N if batch > 1 else 0},
                buf(csize * batch, C, C.fill, 43 + v), {'i64': ldc},
                {'i64': csize if batch > 1 else 0},
                {'u32': order}, {'u32': base}]
        about = (f'CSR x dense (B column-major, ldb {ldb}) C = alpha A B + beta C, n = {N} <= 32: '
                 f'M={M} K={K} in rows of {R} (8 lanes per row: rows longer and shorter than 8), '
                 + (f'alpha=1.5 (complex: 1.5+0.25i), beta={beta}, ' if host else
                    'alpha and beta small integers from the fills (device pointers), ') +
                 f'{"column" if order else "row"}-major C, index base {base}, {batch} batch(es); '
                 f'grid ({gx}, ceil(n / 8) = {gy}, {batch})')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('csrmm', f'row_split_shared_{tag}_{v}', match, about, [gx, gy, batch], [BS], args)

CC = 'rocsparse_complex_num<float>'
csrmmnn_row_split_shared('f32', '256u, 8u, float, int, int, float, float, float',
                         F32, I32, I32, F32, F32, F32)
csrmmnn_row_split_shared('c64_i32', f'256u, 8u, {CC}, int, int, {CC}, {CC}, {CC}',
                         CF32, I32, I32, CF32, CF32, CF32)
csrmmnn_row_split_shared('f16', '256u, 8u, float, int, int, _Float16, _Float16, float',
                         F32, I32, I32, F16, F16, F32)
csrmmnn_row_split_shared('i8', '256u, 8u, int, int, int, signed char, signed char, int',
                         I32V, I32, I32, I8V, I8V, I32V)

# ---- coommnn_segmented_atomic<WF, LOOPS, COLS, NT, T, I, A, B, C>
def coomm_seg_atomic(tag, targs, T, I, A, B, C, WF=64, LOOPS=16, COLS=1, NT=True):
    match = dm('rocsparse::coommnn_segmented_atomic', targs)
    for v, (nnz, R, M, K, ncols, nstart, order, base, host, trans, batch) in enumerate([
            (3000, 7, 430, 40, 1, 4, 1, 0, True, 112, 1),
            (700, 70, 21, 90, 1, 0, 0, 1, False, 113, 2),
            (1024, 3, 342, 11, 1, 8, 1, 0, True, 112, 1),
            # nnz a multiple of LOOPS*WF: the block's last entry is valid, so
            # the end-of-block atomic runs, in both batches (stride_C != 0)
            (2048, 70, 62, 90, 1, 16, 1, 0, True, 111, 2),
            # row-major C with rows of 32: rows end on the 64-entry chunk
            # edges, so lane 0 of the next chunk adds the carried sum of the
            # row before (the row-major carry atomic)
            (2048, 32, 70, 40, 1, 8, 0, 1, False, 113, 1),
            # nnz = one block and two chunks (a multiple of WF, not of
            # LOOPS*WF): the last block's chunks from the third on hold no
            # entry, and lane 0 of the first of them adds the sum carried
            # from the chunk before; rows of 25 end on lane 24 of the first
            # chunk, whose sum takes lane 8's j = 8 step at j = 16
            (None, 25, None, 30, 1, 8, 1, 0, True, 111, 1),
            # nnz < WF, all in row 0: the lanes past nnz hold +0.0 (their
            # B element, column k = 0, is patched to +1), whose bits are
            # lane 0's row; a reduction step that lets lanes below j
            # compare with shared_row[lid - j] (value slots) sees equal
            (20, 20, 3, 40, 1, 8, 1, 0, True, 111, 1)]):
        if nnz is None:
            nnz = LOOPS * WF + 2 * WF
            M = nnz // R + 2
        # COLS=1: the host's remainder launch for n % 8 == 1 (n >= 8), n = 5
        # or n = 1: one column, nstart = n - 1 (a multiple of 8, or 4, or 0),
        # one workgroup along y.
        # COLS=8: the host's main launch for n >= 8 (coomm_template_segmented_
        # atomic): columns [0, n - n % 8), n passed as 0, (main - 1) / 8 + 1
        # workgroups along y; 8 or 16 columns here.
        # COLS=3, WF=32, NT false: the remainder launch for n % 8 == 3
        # (n >= 8), n = 7 or n = 3 on a wavefront-32 device (the only one
        # rocSPARSE launches WF=32 kernels on): three columns from nstart.
        if COLS == 3:
            ncols = 3
        elif COLS > 1:
            ncols, nstart = COLS * (1 + v % 2), 0
        gx = (nnz + LOOPS * WF - 1) // (LOOPS * WF)
        gy = ncols // COLS
        N = nstart + ncols
        # NT: B[k * ldb + col] (ldb >= n); else B[col * ldb + k] (ldb >= k)
        ldb = N + 1 if NT else K + 1
        bsize = ldb * K if NT else ldb * N
        ldc = (M + 1) if order == 1 else (N + 2)
        csize = ldc * N if order == 1 else ldc * M
        rows = buf(nnz * batch, I.size, f'arith-i{8*I.size}:{base}:1:{R}')
        bbuf = buf(bsize * batch, B, B.fill, 34 + v)
        if v == 6:
            one = {'_Float16': '003c', 'bf16': '803f', 'signed char': '01'}.get(
                B.name, valhex(B, 1.0, 1.0))
            ks = [(nstart + p if NT else (nstart + p) * ldb) for p in range(ncols)]
            bbuf['patch'] = [{'offset': k * B.size, 'bytes': one} for k in ks]
        args = [{'u32': trans}, {'i64': nnz}, ival(I.size, nstart),
                {'i64': nnz if batch > 1 else 0},
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 16),
                rows,
                buf(nnz * batch, I.size, f'cols-i{8*I.size}:{11+v}:{K}:{R}:{base}'),
                buf(nnz * batch, A, A.fill, 24 + v),
                bbuf, {'i64': ldb},
                {'i64': bsize if batch > 1 else 0},
                buf(csize * batch, C, C.fill, 44 + v), {'i64': ldc},
                {'i64': csize if batch > 1 else 0},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'COO x dense (B {"row" if NT else "column"}-major, op {trans}) with atomic segmented sums, '
                 f'columns [{nstart}, {N}) {"one" if COLS == 1 else COLS} per workgroup along y: M={M} K={K}, nnz={nnz} '
                 f'sorted in rows of {R} (the second batch continues the row numbers), '
                 f'{"column" if order else "row"}-major C, index base {base}, '
                 f'alpha {"by value" if host else "by device pointer"}, {batch} batch(es); '
                 f'grid x = ceil(nnz / (LOOPS*WF)) = {gx}')
        write('coomm', f'segmented_atomic_{tag}_{v}', match, about, [gx, gy, batch], [WF], args)

coomm_seg_atomic('f32', '64u, 16u, 1u, true, float, int, float, float, float',
                 F32, I32, F32, F32, F32)
coomm_seg_atomic('c64', '64u, 16u, 1u, true, rocsparse_complex_num<float>, long, '
                 'rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                 CF32, I64, CF32, CF32, CF32)
coomm_seg_atomic('bf16', '64u, 16u, 1u, true, float, int, rocsparse_bfloat16, rocsparse_bfloat16, float',
                 F32, I32, BF16, BF16, F32)
coomm_seg_atomic('c64_i32', '64u, 16u, 1u, true, rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                 CF32, I32, CF32, CF32, CF32)
coomm_seg_atomic('f16', '64u, 16u, 1u, true, float, int, _Float16, _Float16, float',
                 F32, I32, F16, F16, F32)
coomm_seg_atomic('i8', '64u, 16u, 1u, true, int, int, signed char, signed char, int',
                 I32V, I32, I8V, I8V, I32V)
# the main launch (COLS = 8) in the four value types of the larger sample
for tg, ta, tys in (('f32', 'float, int, float, float, float', (F32, I32, F32, F32, F32)),
                    ('c64_i32', 'rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>', (CF32, I32, CF32, CF32, CF32)),
                    ('f16', 'float, int, _Float16, _Float16, float', (F32, I32, F16, F16, F32)),
                    ('i8', 'int, int, signed char, signed char, int', (I32V, I32, I8V, I8V, I32V))):
    coomm_seg_atomic(f'main8_{tg}', f'64u, 16u, 8u, true, {ta}', *tys, COLS=8)
    # WF=32 (a 32-lane block: half a wave on gfx942), remainder of 3
    # columns, B not transposed: rocSPARSE launches it on wavefront-32
    # devices only, never on gfx942; the code object holds it, and a 32-wide
    # block is what its launch bounds allow
    coomm_seg_atomic(f'wf32_rem3_{tg}', f'32u, 16u, 3u, false, {ta}', *tys, WF=32, COLS=3,
                     NT=False)

# The same WF=32 remainder launch (n = 3: columns [0, 3)) with strides whose
# element offsets reach 2^32: the high dwords of batch_stride_C * batch and
# of ldb * col are then nonzero. Extra regions lie 2^36 bytes apart
# (docs/run-spec.md), so a stride of 2^36 / element size puts each batch's C
# (each column of B) in a region of its own and the gaps stay unmapped. The
# host's checks allow any batch_stride_C >= ldc * m and ldb >= k; such
# operands span 64+ GiB of address space, of which the kernel touches only
# these pieces.
def coomm_seg_atomic_far(tag, targs, T, I, A, B, C):
    match = dm('rocsparse::coommnn_segmented_atomic', targs)
    WF, LOOPS, nnz, R, M, K, base, batch = 32, 16, 700, 70, 21, 90, 1, 2
    gx = (nnz + LOOPS * WF - 1) // (LOOPS * WF)
    rows = buf(nnz * batch, I.size, f'arith-i{8*I.size}:{base}:1:{R}')
    cols = buf(nnz * batch, I.size, f'cols-i{8*I.size}:60:{K}:{R}:{base}')
    far = lambda size: (1 << 36) // size
    for v in ('c', 'b'):
        if v == 'c':
            # row-major C, batch 1's C in region c1
            order, ldb, sb, ldc = 0, K + 1, (K + 1) * 3, 5
            sc = far(C.size)
            bb = buf(sb * batch, B, B.fill, 61)
            cc = {'bytes': '0' * 16, 'pointers': [{'offset': 0, 'to': 'c0'}]}
            regions = {f'c{i}': buf(ldc * M, C, C.fill, 62 + i) for i in range(2)}
        else:
            # column-major B, column p of batch z in region b(3z + p)
            order, ldb, ldc = 1, far(B.size), M + 1
            sb, sc = 3 * ldb, ldc * 3
            bb = {'bytes': '0' * 16, 'pointers': [{'offset': 0, 'to': 'b0'}]}
            cc = buf(sc * batch, C, C.fill, 62)
            regions = {f'b{i}': buf(K, B, B.fill, 63 + i) for i in range(6)}
        args = [{'u32': 111}, {'i64': nnz}, ival(I.size, 0), {'i64': nnz},
                alpha_host(T, 1.5), rows, cols, buf(nnz * batch, A, A.fill, 64),
                bb, {'i64': ldb}, {'i64': sb}, cc, {'i64': ldc}, {'i64': sc},
                {'u32': order}, {'u32': base}, {'u8': 1}]
        about = (f'COO x dense (B column-major, op 111) with atomic segmented sums, '
                 f'columns [0, 3): M={M} K={K}, nnz={nnz} sorted in rows of {R} '
                 f'(the second batch continues the row numbers), index base {base}, '
                 f'2 batches; ' +
                 (f'row-major C (ldc {ldc}) with batch_stride_C = 2^36 / {C.size} '
                  '(batch 1 in region c1)' if v == 'c' else
                  f'ldb = 2^36 / {B.size}, batch_stride_B = 3 ldb (each column '
                  'of B in a region: b0..b2 batch 0, b3..b5 batch 1), '
                  'column-major C') +
                 f'; grid x = ceil(nnz / (LOOPS*WF)) = {gx}')
        write('coomm', f'segmented_atomic_far{v}_{tag}', match, about, [gx, 1, batch], [WF],
              args, regions=regions)

for tg, ta, tys in (('f32', 'float, int, float, float, float', (F32, I32, F32, F32, F32)),
                    ('c64_i32', 'rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>', (CF32, I32, CF32, CF32, CF32)),
                    ('f16', 'float, int, _Float16, _Float16, float', (F32, I32, F16, F16, F32)),
                    ('i8', 'int, int, signed char, signed char, int', (I32V, I32, I8V, I8V, I32V))):
    coomm_seg_atomic_far(f'wf32_rem3_{tg}', f'32u, 16u, 3u, false, {ta}', *tys)

# A batch stride of 2^32 entries (64-bit indices): batch 1's COO arrays
# start 32 GiB into sparse buffers (docs/run-spec.md, "Sparse buffers"),
# so the batch offset's high dword (hi(batch_stride_A) * batch) is 1. The
# remainder launch for n = 9 (one column from nstart 8), 2 batches; rows
# and columns are written as patches (sparse buffers take no arith fills),
# batch 1's columns shifted by one so the two batches differ.
def coomm_seg_atomic_bigstride():
    T, I, A, B, C = CF32, I64, CF32, CF32, CF32
    match = dm('rocsparse::coommnn_segmented_atomic',
               '64u, 16u, 1u, true, rocsparse_complex_num<float>, long, '
               'rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
               'rocsparse_complex_num<float>')
    nnz, R, M, K, nstart, WF, LOOPS, batch = 200, 10, 20, 40, 8, 64, 16, 2
    stride = 2**32
    N = nstart + 1
    ldb, ldc = N + 1, M + 1
    bsize, csize = ldb * K, ldc * N
    def i64s(vals):
        return ''.join(struct.pack('<q', x).hex() for x in vals)
    rows = [k // R for k in range(nnz)]
    cols = [[(k % R) * 4 + b for k in range(nnz)] for b in range(batch)]
    def sparse(patches, fill='zero'):
        return {'buffer_size': (stride + nnz) * 8, 'sparse': True,
                'fill': fill, 'patch': patches}
    args = [{'u32': 111}, {'i64': nnz}, ival(I.size, nstart), {'i64': stride},
            alpha_host(T, 1.5),
            sparse([{'offset': 0, 'bytes': i64s(rows)},
                    {'offset': stride * 8, 'bytes': i64s(rows)}]),
            sparse([{'offset': 0, 'bytes': i64s(cols[0])},
                    {'offset': stride * 8, 'bytes': i64s(cols[1])}]),
            sparse([], 'int-f32:27:1:3'),
            buf(bsize * batch, B, B.fill, 37), {'i64': ldb}, {'i64': bsize},
            buf(csize * batch, C, C.fill, 47), {'i64': ldc}, {'i64': csize},
            {'u32': 1}, {'u32': 0}, {'u8': 1}]
    about = (f'COO x dense (B row-major) with atomic segmented sums, column '
             f'[{nstart}, {N}): M={M} K={K}, nnz={nnz} per batch sorted in rows '
             f'of {R}, 2 batches with batch_stride_A = 2^32 entries (sparse '
             f'COO arrays of 32 GiB), column-major C, alpha by value; grid '
             f'(1, 1, 2)')
    write('coomm', 'segmented_atomic_c64_bigstride', match, about,
          [(nnz + LOOPS * WF - 1) // (LOOPS * WF), 1, batch], [WF], args)

coomm_seg_atomic_bigstride()

# ---- coommnn_atomic_remainder<256, WF, TRANSB, T, I, A, B, C>
def coomm_atomic_rem(tag, targs, T, I, A, B, C):
    BS = 256
    match = dm('rocsparse::coommnn_atomic_remainder', targs)
    for v, (nnz, R, M, K, off, N, order, base, host) in enumerate([
            (1500, 6, 260, 30, 64, 65, 1, 0, True),
            (700, 300, 4, 310, 0, 1, 0, 1, False),
            (256, 1, 300, 7, 192, 193, 1, 0, True),
            # one partial block whose entries are all in row 0: lane 0's
            # row (0) has the bits of the +0.0 sum of the lanes past nnz, so
            # a scan step that lets lanes 0..j-1 compare with shared_row[-j]
            # (shared_val's last slots) sees them equal
            (200, 200, 3, 310, 64, 65, 1, 0, True),
            # rows of 24 (not a block edge): a segment of 24 whose
            # 16-aligned partial sums start 7 lanes after the segment start,
            # so the j = 8 step's row comparison is taken on both sides
            (1000, 24, 45, 40, 128, 129, 0, 1, False)]):
        # WF=1: the host launches it for one remainder column only: n = 1,
        # 65, 129, 193 (offset 0, 64, 128, 192) or n % 256 == 1 (n >= 256).
        gx = (nnz + BS - 1) // BS
        ldb = N + 1
        ldc = (M + 1) if order == 1 else (N + 2)
        csize = ldc * N if order == 1 else ldc * M
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(I.size, off), ival(I.size, N),
                {'i64': nnz}, {'i64': 0},
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 17),
                buf(nnz, I.size, f'arith-i{8*I.size}:{base}:1:{R}'),
                buf(nnz, I.size, f'cols-i{8*I.size}:{13+v}:{K}:{R}:{base}'),
                buf(nnz, A, A.fill, 25 + v), buf(ldb * K, B, B.fill, 35 + v),
                {'i64': ldb}, {'i64': 0}, buf(csize, C, C.fill, 45 + v), {'i64': ldc},
                {'i64': 0}, {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'COO x dense (B row-major) remainder columns [{off}, {N}) with atomic '
                 f'sums: M={M} K={K}, nnz={nnz} sorted in rows of {R}, '
                 f'{"column" if order else "row"}-major C, index base {base}, '
                 f'alpha {"by value" if host else "by device pointer"}, one batch; '
                 f'grid = ceil(nnz / 256) = {gx}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('coomm', f'atomic_remainder_{tag}_{v}', match, about, [gx], [BS], args)

coomm_atomic_rem('f32', '256u, 1u, true, float, int, float, float, float', F32, I32, F32, F32, F32)
coomm_atomic_rem('c64', '256u, 1u, true, rocsparse_complex_num<float>, long, rocsparse_complex_num<float>, '
                 'rocsparse_complex_num<float>, rocsparse_complex_num<float>', CF32, I64, CF32, CF32, CF32)
coomm_atomic_rem('bf16', '256u, 1u, true, float, int, rocsparse_bfloat16, rocsparse_bfloat16, float',
                 F32, I32, BF16, BF16, F32)
coomm_atomic_rem('c64_i32', '256u, 1u, true, rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                 CF32, I32, CF32, CF32, CF32)
coomm_atomic_rem('f16', '256u, 1u, true, float, int, _Float16, _Float16, float',
                 F32, I32, F16, F16, F32)
coomm_atomic_rem('i8', '256u, 1u, true, int, int, signed char, signed char, int',
                 I32V, I32, I8V, I8V, I32V)

# ---- coommnn_atomic_main<256, 64, LOOPS, TRANSB, T, I, A, B, C>
#      coommnn_atomic_dispatch launches LOOPS = 2 for n in 128..191: the main
#      columns [0, 128) (ncol = n - n % 128), grid (ceil(nnz / 256), batches);
#      TRANSB false: B column-major (B[col * ldb + k], ldb >= k); the host
#      scales C by beta before, the kernel only adds alpha A B atomically.
def coomm_atomic_main(tag, targs, T, I, A, B, C):
    BS = 256
    match = dm('rocsparse::coommnn_atomic_main', targs)
    for v, (nnz, R, M, K, N, order, base, host, batch) in enumerate([
            (1500, 6, 260, 30, 130, 1, 0, True, 1),
            (700, 300, 4, 310, 128, 0, 1, False, 1),
            (256, 1, 300, 7, 191, 1, 0, True, 1),
            (1000, 7, 290, 40, 150, 0, 0, True, 2)]):
        gx = (nnz + BS - 1) // BS
        main = N - N % 128
        ldb = K + 1
        ldc = (M + 1) if order == 1 else (N + 2)
        csize = ldc * N if order == 1 else ldc * M
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(I.size, main),
                {'i64': nnz}, ival(I.size, N), {'i64': nnz if batch > 1 else 0},
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 17),
                buf(nnz * batch, I.size, f'arith-i{8*I.size}:{base}:1:{R}'),
                buf(nnz * batch, I.size, f'cols-i{8*I.size}:{13+v}:{K}:{R}:{base}'),
                buf(nnz * batch, A, A.fill, 25 + v), buf(ldb * N * batch, B, B.fill, 35 + v),
                {'i64': ldb}, {'i64': ldb * N if batch > 1 else 0},
                buf(csize * batch, C, C.fill, 45 + v), {'i64': ldc},
                {'i64': csize if batch > 1 else 0}, {'u32': order}, {'u32': base},
                {'u8': 1 if host else 0}]
        about = (f'COO x dense (B column-major) main columns [0, {main}) of n = {N} with atomic '
                 f'sums: M={M} K={K}, nnz={nnz} sorted in rows of {R} (a second batch continues '
                 f'the row numbers), {"column" if order else "row"}-major C, index base {base}, '
                 f'alpha {"by value" if host else "by device pointer"}, {batch} batch(es); '
                 f'grid ceil(nnz / 256) = {gx}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('coomm', f'atomic_main_{tag}_{v}', match, about, [gx, batch], [BS], args)

for tg, ta, tys in (('f32', 'float, int, float, float, float', (F32, I32, F32, F32, F32)),
                    ('c64_i32', 'rocsparse_complex_num<float>, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, rocsparse_complex_num<float>', (CF32, I32, CF32, CF32, CF32)),
                    ('f16', 'float, int, _Float16, _Float16, float', (F32, I32, F16, F16, F32)),
                    ('i8', 'int, int, signed char, signed char, int', (I32V, I32, I8V, I8V, I32V))):
    coomm_atomic_main(tg, f'256u, 64u, 2u, false, {ta}', *tys)

# The same main launch (n = 130: columns [0, 128)) into a column-major C
# with ldc = 2^36 / 4 (>= 2^32: the high dword of ldc * col is nonzero):
# column j of C is region c<j>, extra regions lying 2^36 bytes apart
# (docs/run-spec.md), so the 2 TiB of address space C spans holds only the
# 128 columns the kernel touches. The host's checks bound ldc only from
# below (ldc >= m).
def coomm_atomic_main_farc():
    T, I, A, B, C = F32, I32, F32, F32, F32
    match = dm('rocsparse::coommnn_atomic_main',
               '256u, 64u, 2u, false, float, int, float, float, float')
    BS, nnz, R, M, K, N = 256, 300, 6, 50, 30, 130
    main, ldb, ldc = N - N % 128, K + 1, (1 << 36) // C.size
    cc = {'bytes': '0' * 16, 'pointers': [{'offset': 0, 'to': 'c000'}]}
    regions = {f'c{j:03d}': buf(M, C, C.fill, 200 + j) for j in range(main)}
    args = [{'u8': 0}, {'u8': 0}, ival(I.size, main), {'i64': nnz}, ival(I.size, N),
            {'i64': 0}, alpha_host(T, 1.5),
            buf(nnz, I.size, f'arith-i{8*I.size}:0:1:{R}'),
            buf(nnz, I.size, f'cols-i{8*I.size}:19:{K}:{R}:0'),
            buf(nnz, A, A.fill, 29), buf(ldb * N, B, B.fill, 39),
            {'i64': ldb}, {'i64': 0}, cc, {'i64': ldc}, {'i64': 0},
            {'u32': 1}, {'u32': 0}, {'u8': 1}]
    about = (f'COO x dense (B column-major) main columns [0, {main}) of n = {N} with '
             f'atomic sums: M={M} K={K}, nnz={nnz} sorted in rows of {R}, column-major '
             f'C with ldc = 2^36 / 4 (column j in region c<j>), alpha by value, one '
             f'batch; grid ceil(nnz / 256) = {(nnz + BS - 1) // BS}')
    write('coomm', 'atomic_main_farc_f32', match, about, [(nnz + BS - 1) // BS, 1], [BS],
          args, regions=regions)

coomm_atomic_main_farc()

# ---- csr2dense_kernel<16, 32, I, J, T>
def csr2dense(tag, targs, I, J, T, WF=32):
    # One wavefront of WF lanes per row, 16 rows per workgroup.
    match = dm('rocsparse::csr2dense_kernel', targs)
    for v, (m, n, R, order, base) in enumerate([
            (40, 50, 37, 1, 0), (17, 9, 1, 0, 1), (33, 70, 65, 1, 0), (16, 5, 5, 0, 0)]):
        gx = (m + 15) // 16
        ld = (m + 3) if order == 1 else (n + 2)
        dsize = ld * n if order == 1 else ld * m
        args = [{'i32': base}, ival(J.size, m), ival(J.size, n),
                buf(m * R, T, 'random', 51 + v),
                buf(m + 1, I.size, f'arith-i{8*I.size}:{base}:{R}'),
                buf(m * R, J.size, f'cols-i{8*J.size}:{15+v}:{n}:{R}:{base}'),
                buf(dsize, T, 'random', 61 + v), {'i64': ld}, {'u32': order}]
        steps = "one entry" if R == 1 else "loops" if R > WF else "one step"
        about = (f'CSR to dense: m={m} n={n}, rows of {R} sorted distinct columns '
                 f'({WF} lanes per row: {steps}), '
                 f'{"column" if order else "row"}-major dense with ld={ld}, index base {base}; '
                 f'16 rows per {16 * WF}-wide workgroup, grid = {gx}')
        write('csr2dense', f'csr2dense_{tag}_{v}', match, about, [gx], [16 * WF], args)

csr2dense('i32_f32', '16, 32, int, int, float', I32, I32, F32)
csr2dense('i64_f32', '16, 32, long, long, float', I64, I64, F32)
csr2dense('i64_i32_f32', '16, 32, long, int, float', I64, I32, F32)
# The other instantiations of the corpus (a copy: any element type of the
# right size; random bytes).
H16 = Ty('_Float16', 2, None)
for wf in (32, 64):
    for (itag, iname, I, J) in (('i32', 'int, int', I32, I32),
                                ('i64_i32', 'long, int', I64, I32),
                                ('i64', 'long, long', I64, I64)):
        for (ttag, tname, T) in (('f32', 'float', F32), ('f64', 'double', F64),
                                 ('c32', 'rocsparse_complex_num<float>', CF32),
                                 ('c64', 'rocsparse_complex_num<double>', CF64),
                                 ('f16', '_Float16', H16),
                                 ('bf16', 'rocsparse_bfloat16', BF16)):
            if wf == 32 and ttag == 'f32':
                continue  # above
            csr2dense(f'w{wf}_{itag}_{ttag}', f'16, {wf}, {iname}, {tname}', I, J, T, wf)

# ---- calculator_inverse_diagonal_t<T, I, J>::kernel_inverse_diagonal<1024, CONJ>
def f64hex(*vals):
    return ''.join(struct.pack('<d', v).hex() for v in vals)
def inv_diag(tag, tyargs, T, I, J):
    match = (esc('calculator_inverse_diagonal_t<' + tyargs + '>::kernel_inverse_diagonal<1024u, ')
             + r'(true|false)>\(')
    def zero(T):
        return '00' * T.size
    def one(T):
        if T.size == 4: return f32hex(1.0)
        if T.size == 8 and T.comps == 2: return f32hex(1.0, 0.0)
        if T.size == 8: return f64hex(1.0)
        return f64hex(1.0, 0.0)
    for v, (m, layout, base, zp0, valfill) in enumerate([
            (1500, 'diag', 0, 2147483647, f'{T.fill}:{71}:1:3'),
            (300, 'lower2', 1, 150, f'{T.fill}:{72}'),
            (200, 'missing', 0, 2147483647, f'{T.fill}:{73}'),
            (1100, 'onemissing', 0, 2147483647, f'{T.fill}:{74}:1:3'),
            (1100, 'onemissing_lo', 0, 2147483647, f'{T.fill}:{75}:1:3')]):
        if layout in ('diag', 'onemissing', 'onemissing_lo'):
            nnz = m
            ind = buf(nnz, J.size, f'arith-i{8*J.size}:0:1')
            pd = buf(m + 1, I.size, f'arith-i{8*I.size}:0:1')
            shift = 0
        elif layout == 'lower2':
            nnz = 2 * m
            ind = buf(nnz, J.size, f'arith-i{8*J.size}:1:1:2')
            pd = buf(m + 1, I.size, f'arith-i{8*I.size}:3:2')
            shift = -1
        else:
            nnz = m
            ind = buf(nnz, J.size, f'index-i{8*J.size}:{19+v}:3')
            pd = buf(m + 1, I.size, f'arith-i{8*I.size}:0:1')
            shift = 0
        val = buf(nnz, T, valfill)
        if layout == 'onemissing':
            # row 700's entry is in column 701: the only structurally missing
            # diagonal (one lane of one wave aggregates the atomicMin)
            ind['patch'] = [{'offset': 700 * J.size,
                             'bytes': (701).to_bytes(J.size, 'little').hex()}]
        if layout == 'onemissing_lo':
            # row 704's entry is in column 705: lane 0 of its wave, the only
            # lane of the low half of EXEC that aggregates the atomicMin (row
            # 700 above is lane 60, in the high half)
            ind['patch'] = [{'offset': 704 * J.size,
                             'bytes': (705).to_bytes(J.size, 'little').hex()}]
        if layout == 'diag':
            # one zero pivot (one lane of one wave) and a 1 (+0i) on the diagonal
            # (values 1..3 elsewhere: no other zero pivot)
            val['patch'] = [{'offset': 700 * T.size, 'bytes': zero(T)},
                            {'offset': 701 * T.size, 'bytes': one(T)}]
        args = [ival(J.size, m), ind, val, {'u32': base}, buf(m, T, 'zero'), pd,
                ival(J.size, shift), {'u32': base},
                buf(1, 4, f'arith-i32:{zp0}:0')]
        about = {'diag': 'a diagonal matrix (ptr_diag = row_ptr, shift 0) with one zero pivot '
                         '(row 700) and a 1 at row 701',
                 'lower2': 'rows of 2 entries with the diagonal last (ptr_diag = row_ptr + 1, '
                           'shift -1, as for a lower triangle), index base 1, values with zeros '
                           '(several zero pivots), zero_pivot preset to 150',
                 'missing': 'column indices random in [0, 3): diagonals structurally missing '
                            'except by chance in rows 0-2',
                 'onemissing': 'a diagonal matrix with values 1..3 whose row 700 holds '
                               'column 701 instead: one structurally missing diagonal',
                 'onemissing_lo': 'a diagonal matrix with values 1..3 whose row 704 holds '
                                  'column 705 instead: one structurally missing diagonal, '
                                  'lane 0 of its wave'}[layout]
        about = (f'inverse of the diagonal, m={m}: {about}; zero_pivot starts at {zp0} '
                 f'(rocSPARSE presets it before the atomicMin); 1024-wide workgroups')
        write('inverse_diagonal', f'inverse_diagonal_{tag}_{v}', match, about,
              [(m + 1023) // 1024], [1024], args)

for tn, T in [('f32', F32), ('f64', F64), ('c32', CF32), ('c64', CF64)]:
    tyn = {'f32': 'float', 'f64': 'double', 'c32': 'rocsparse_complex_num<float>',
           'c64': 'rocsparse_complex_num<double>'}[tn]
    inv_diag(f'{tn}_i32', f'{tyn}, int, int', T, I32, I32)
    inv_diag(f'{tn}_i64', f'{tyn}, long, long', T, I64, I64)
    inv_diag(f'{tn}_i64_i32', f'{tyn}, long, int', T, I64, I32)

# ---- rocblas_spr2_kernel<128, 8, N_TX, rocblas_internal_val_ptr<T>, T const*, T*>
def spr2(tag, targs, T, ntx):
    match = dm('rocblas_spr2_kernel', targs)
    for v, (n, upper, incx, incy, sx, sy, host, batch, *extra) in enumerate([
            (300, 1, 1, 2, 0, 0, True, 1),
            (133, 0, 3, 1, 2, 5, False, 2),
            (70, 1, -1, 1, 69, 0, True, 1),
            (260, 0, 1, 1, 0, 0, True, 1),
            # alpha = 0 by device pointer: the host cannot return early (it
            # does so only for a host alpha of 0), the kernel must; AP holds
            # -0.0 and x an inf, which AP += 0 * x * y ... would change
            (100, 0, 1, 1, 0, 0, False, 1, 'alpha0'),
            # negative batch strides (rocBLAS does not restrict strides): the
            # caller's x, y and AP point past the first batch's data, the
            # second batch lies before it ("pointer_offset")
            (90, 1, 1, 1, 0, 0, True, 2, 'negstride')]):
        alpha0 = 'alpha0' in extra
        neg = 'negstride' in extra
        def vec(inc, shift, seed):
            per = shift + (n - 1) * abs(inc) + 1
            return per, buf(per * batch, T, T.fill, seed)
        px, x = vec(incx, sx, 91 + v)
        py, y = vec(incy, sy, 95 + v)
        ap = n * (n + 1) // 2
        if neg:
            px, py = px + 10, py + 7
            x, y = buf(2 * px, T, T.fill, 91 + v), buf(2 * py, T, T.fill, 95 + v)
            x['pointer_offset'], y['pointer_offset'] = px * T.size, py * T.size
        alpha = ({'bytes': (f32hex(1.5) if T.size == 4 else f64hex(1.5)).ljust(16, '0')}
                 if host else buf(1, T, 'zero' if alpha0 else T.fill, None if alpha0 else 99))
        sap = ap + 3 if neg else ap
        apbuf = buf(sap * batch, T, T.fill, 89 + v)
        if neg:
            apbuf['pointer_offset'] = sap * T.size
        if alpha0:
            neg0 = (f32hex(-0.0) if T.size == 4 else f64hex(-0.0))
            apbuf['patch'] = [{'offset': k * T.size, 'bytes': neg0} for k in (0, 7, 99, 1000)]
            x['patch'] = [{'offset': 5 * T.size,
                           'bytes': f32hex(float('inf')) if T.size == 4 else f64hex(float('inf'))}]
        gx = (n - 1) // (128 * ntx) + 1
        gy = (n - 1) // 8 + 1
        sgn = -1 if neg else 1
        args = [{'u8': 1 if host else 0}, {'u8': upper}, {'i32': n}, alpha,
                x, {'i64': sx}, {'i64': incx}, {'i64': sgn * px if batch > 1 else 0},
                y, {'i64': sy}, {'i64': incy}, {'i64': sgn * py if batch > 1 else 0},
                apbuf, {'i64': 0},
                {'i64': sgn * sap if batch > 1 else 0}, {'i32': batch}]
        about = (f'packed symmetric rank-2 update AP += alpha (x y^T + y x^T), n={n}, '
                 f'{"upper" if upper else "lower"}, incx={incx} (shift {sx}) incy={incy} '
                 f'(shift {sy}), alpha {"by value" if host else "by device pointer"}'
                 f'{" = 0 (AP holds -0.0 at 0, 7, 99, 1000 and x[5] = inf)" if alpha0 else ""}, '
                 f'{f"batch strides -{px}/-{py}/-{sap} (x, y, AP point at the second half of their buffers), " if neg else ""}'
                 f'{batch} batch(es); 128x8 blocks, {ntx} x-elements per thread: '
                 f'grid {gx} x {gy} x {batch}')
        write('spr2', f'spr2_{tag}_{v}', match, about, [gx, gy, batch], [128, 8], args)

spr2('f32', '128, 8, 2, rocblas_internal_val_ptr<float>, float const*, float*', F32, 2)
spr2('f64', '128, 8, 1, rocblas_internal_val_ptr<double>, double const*, double*', F64, 1)

# ---- rocblas_spr2_kernel<128, 8, N_TX, rocblas_internal_val_ptr<T>, T const* const*, T* const*>
# The batched instantiations: x, y and AP are arrays of device pointers, one
# per batch (blockIdx.z); load_ptr_batch(p, z, shift, stride) is p[z] + shift
# (the stride unused). rocblas_spr2_batched passes offsets 0 and strides 0,
# so the launcher's shift is 0 for a positive increment and -inc * (n - 1)
# for a negative one. Each batch's vectors and packed matrix are extra
# regions (docs/run-spec.md, "Pointers in memory and extra regions").
def spr2_batched(tag, targs, T, ntx):
    match = dm('rocblas_spr2_kernel', targs)
    one = f32hex if T.size == 4 else f64hex
    for v, (n, upper, incx, incy, host, batch, *extra) in enumerate([
            (300, 1, 1, 2, True, 2),
            (133, 0, -3, 1, False, 3),
            (70, 1, -1, -2, True, 1),
            # alpha = 0 by device pointer (the survivors file's limit): the
            # host returns early only for a host alpha of 0, so the kernel
            # must; every batch's AP holds -0.0 and its x an inf, which
            # AP += 0 * (x y^T + y x^T) would change
            (100, 0, 1, 1, False, 2, 'alpha0')]):
        alpha0 = 'alpha0' in extra
        ap = n * (n + 1) // 2
        regions = {}
        arrays = {}
        for name, inc, seed in (('x', incx, 91), ('y', incy, 95), ('AP', None, 89)):
            ptrs = []
            for b in range(batch):
                r = f'{name}{b}'
                size = ap if inc is None else (n - 1) * abs(inc) + 1
                regions[r] = buf(size, T, T.fill, seed + 10 * v + b)
                if alpha0 and name == 'AP':
                    regions[r]['patch'] = special_patch(T, -0.0, (0, 7, 99, 1000))
                if alpha0 and name == 'x':
                    regions[r]['patch'] = special_patch(T, float('inf'), (5,))
                if inc is not None:
                    regions[r]['readonly'] = True  # x, y: T const*
                ptrs.append({'offset': 8 * b, 'to': r})
            arrays[name] = {'buffer_size': 8 * batch, 'readonly': True,
                            'pointers': ptrs}
        shift = lambda inc: 0 if inc > 0 else -inc * (n - 1)
        if host:
            alpha = {'bytes': one(1.5).ljust(16, '0')}
        else:
            alpha = buf(1, T, 'zero' if alpha0 else T.fill, None if alpha0 else 99)
        gx = (n - 1) // (128 * ntx) + 1
        gy = (n - 1) // 8 + 1
        args = [{'u8': 1 if host else 0}, {'u8': upper}, {'i32': n}, alpha,
                arrays['x'], {'i64': shift(incx)}, {'i64': incx}, {'i64': 0},
                arrays['y'], {'i64': shift(incy)}, {'i64': incy}, {'i64': 0},
                arrays['AP'], {'i64': 0}, {'i64': 0}, {'i32': batch}]
        about = (f'batched packed symmetric rank-2 update AP_b += alpha (x_b y_b^T + y_b x_b^T), '
                 f'n={n}, {"upper" if upper else "lower"}, incx={incx} incy={incy} '
                 f'(shifts {shift(incx)}, {shift(incy)}: the launcher\'s for offsets 0), '
                 f'alpha {"by value" if host else "by device pointer"}'
                 f'{" = 0 (every AP_b holds -0.0 at 0, 7, 99, 1000 and x_b[5] = inf)" if alpha0 else ""}, '
                 f'{batch} batch(es): x, y, AP arrays of device pointers to the regions '
                 f'x<b>, y<b>, AP<b>, strides 0 as rocblas_spr2_batched passes them; '
                 f'128x8 blocks, {ntx} x-elements per thread: grid {gx} x {gy} x {batch}')
        write('spr2_batched', f'spr2_batched_{tag}_{v}', match, about, [gx, gy, batch],
              [128, 8], args, regions=regions)

spr2_batched('f32', '128, 8, 2, rocblas_internal_val_ptr<float>, float const* const*, float* const*', F32, 2)
spr2_batched('f64', '128, 8, 1, rocblas_internal_val_ptr<double>, double const* const*, double* const*', F64, 1)

# ---- csrmmnt_merge_path_remainder_kernel<256, 32, 256, T, I, J, A, B, C>
def merge_coord(d, R):
    # Merge path of rows of R entries: each row's R nonzeros, then its end
    # (the path takes a nonzero while its index is below the row's end).
    r, rem = divmod(d, R + 1)
    return r, r * R + rem

def csrmm_merge_path_rem(tag, targs, T, I, J, A, B, C):
    BS, WF, IPT = 256, 32, 256
    match = dm('rocsparse::csrmmnt_merge_path_remainder_kernel', targs)
    for v, (M, R, K, off, N, order, base, host) in enumerate([
            (300, 5, 40, 32, 45, 1, 0, True),
            (3, 700, 800, 0, 7, 0, 1, False),
            (50, 40, 60, 64, 65, 1, 0, True)]):
        nnz = M * R
        total = M + nnz
        nb = (total - 1) // IPT + 1
        gx = (nb - 1) // (BS // WF) + 1
        name = f'merge_path_remainder_{tag}_{v}'
        c0 = b''.join(struct.pack('<II', *merge_coord(b * IPT, R)) for b in range(nb))
        c1 = b''.join(struct.pack('<II', *merge_coord(min((b + 1) * IPT, total), R))
                      for b in range(nb))
        os.makedirs(f'{OUT}/csrmm', exist_ok=True)
        for suffix, data in (('coord0', c0), ('coord1', c1)):
            with open(f'{OUT}/csrmm/{name}.{suffix}.bin', 'wb') as fh:
                fh.write(data)
        ldb = N + 1
        ldc = (M + 2) if order == 1 else (N + 3)
        csize = ldc * N if order == 1 else ldc * M
        def scal(x, seed):
            return alpha_host(T, x, 0.5) if host else buf(1, T, T.fill, seed)
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(J.size, off), ival(J.size, M),
                ival(J.size, N), ival(J.size, K), ival(I.size, nnz), scal(1.5, 18),
                buf(M + 1, I.size, f'arith-i{8*I.size}:{base}:{R}'),
                buf(nnz, J.size, f'cols-i{8*J.size}:{21+v}:{K}:{R}:{base}'),
                buf(nnz, A, A.fill, 26 + v),
                {'buffer': f'{name}.coord0.bin', 'readonly': True},
                {'buffer': f'{name}.coord1.bin', 'readonly': True},
                buf(ldb * K, B, B.fill, 36 + v), {'i64': ldb}, scal(1.0, 19),
                buf(csize, C, C.fill, 46 + v), {'i64': ldc},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'CSR x dense (B row-major), merge-path split, remainder columns '
                 f'[{off}, {N}): M={M} K={K} in rows of {R}, nnz={nnz}; coord0/coord1 '
                 f'(*.bin: uint32 row, nonzero pairs) are the merge-path coordinates of '
                 f'diagonals 256 b and 256 (b + 1) (rows of R: R nonzeros, then the row end); '
                 f'{"column" if order else "row"}-major C, index base {base}, '
                 f'scalars {"by value" if host else "by device pointer"}; '
                 f'{nb} path blocks, 8 per 256-wide workgroup: grid {gx}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('csrmm', name, match, about, [gx], [BS], args)

# The instantiations of csrmmnt_merge_path_remainder_kernel: tag, template
# arguments, then the types of alpha/beta, the row pointer, the column
# indices, A, B and C.
MERGE_PATH_INSTANCES = [
    ('f32', '256u, 32u, 256u, float, int, int, float, float, float',
     F32, I32, I32, F32, F32, F32),
    ('c64', '256u, 32u, 256u, rocsparse_complex_num<float>, long, long, '
     'rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
     'rocsparse_complex_num<float>', CF32, I64, I64, CF32, CF32, CF32),
    ('bf16', '256u, 32u, 256u, float, long, int, rocsparse_bfloat16, '
     'rocsparse_bfloat16, float', F32, I64, I32, BF16, BF16, F32),
    ('c64_i32', '256u, 32u, 256u, rocsparse_complex_num<float>, int, int, '
     'rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
     'rocsparse_complex_num<float>', CF32, I32, I32, CF32, CF32, CF32),
    ('f16', '256u, 32u, 256u, float, int, int, _Float16, _Float16, float',
     F32, I32, I32, F16, F16, F32),
    ('i8', '256u, 32u, 256u, int, int, int, signed char, signed char, int',
     I32V, I32, I32, I8V, I8V, I32V),
]
for inst in MERGE_PATH_INSTANCES:
    csrmm_merge_path_rem(*inst)

# The same kernel on the launches rocSPARSE's host makes for this
# 32-wide remainder (csrmmnt_merge_dispatch: main columns a multiple of
# 256, 128 or 64 when n >= 64, remainder n - main in 17..32), on rows of
# irregular lengths (empty rows, rows of one entry, rows longer than a
# 256-item path block so that blocks start and end inside rows), and with
# alpha = 0, beta = 1 by device pointer (the kernel's early return: B is
# not referenced, random bytes).
def merge_coords(ptr, d):
    # The merge path of the row ends and the nonzeros after d steps: a
    # nonzero is taken while its index is below the current row's end.
    i, j = 0, 0
    for _ in range(d):
        if i < len(ptr) - 1 and j < ptr[i + 1]:
            j += 1
        else:
            i += 1
    return i, j

def csrmm_merge_path_host(tag, targs, T, I, J, A, B, C):
    import random
    BS, WF, IPT = 256, 32, 256
    match = dm('rocsparse::csrmmnt_merge_path_remainder_kernel', targs)
    ifmt = 'q' if I.size == 8 else 'i'
    jfmt = 'q' if J.size == 8 else 'i'
    # rows of 600 hold whole path blocks (the block-inside-a-row case)
    pattern = [0, 1, 3, 600, 1, 0, 0, 2, 40, 1, 270, 5, 0, 1]
    for v, (M, K, N, off, order, base, host, alpha0, seed) in enumerate([
            (30, 620, 20, 0, 1, 0, True, False, 1),
            (40, 630, 89, 64, 0, 1, False, False, 2),
            (28, 610, 160, 128, 1, 0, True, False, 3),
            (30, 620, 20, 0, 0, 0, False, True, 4),
            # alpha = 0 by value with beta = 2: the host launches it (its
            # quick return is for alpha 0 and beta 1 only), the kernel reads
            # beta from the kernarg to decide
            (20, 620, 24, 0, 1, 0, True, 'beta2', 5)]):
        beta2 = alpha0 == 'beta2'
        rnd = random.Random(2000 + seed)
        lens = [pattern[(r + seed) % len(pattern)] for r in range(M)]
        ptr = [0]
        for n_ in lens:
            ptr.append(ptr[-1] + n_)
        nnz = ptr[-1]
        cols = [c for n_ in lens for c in sorted(rnd.sample(range(K), n_))]
        total = M + nnz
        nb = (total - 1) // IPT + 1
        gx = (nb - 1) // (BS // WF) + 1
        name = f'merge_path_host_{tag}_{v}'
        os.makedirs(f'{OUT}/csrmm', exist_ok=True)
        def put(suffix, data):
            with open(f'{OUT}/csrmm/{name}.{suffix}.bin', 'wb') as fh:
                fh.write(data)
            return {'buffer': f'{name}.{suffix}.bin', 'readonly': True}
        c0 = put('coord0', b''.join(struct.pack('<II', *merge_coords(ptr, b * IPT))
                                    for b in range(nb)))
        c1 = put('coord1', b''.join(struct.pack('<II', *merge_coords(ptr, min((b + 1) * IPT, total)))
                                    for b in range(nb)))
        rp = put('ptr', b''.join(struct.pack('<' + ifmt, x + base) for x in ptr))
        ci = put('col', b''.join(struct.pack('<' + jfmt, x + base) for x in cols))
        ldb = N + 2
        ldc = (M + 1) if order == 1 else (N + 1)
        csize = ldc * N if order == 1 else ldc * M
        def scal(x, seed_):
            if host:
                return alpha_host(T, x, 0.5 if x else 0.0)
            b = buf(1, T, 'zero')
            b['patch'] = [{'offset': 0, 'bytes': valhex(T, x, 0.0)}]
            return b
        args = [{'u8': 0}, {'u8': 0}, ival(J.size, off), ival(J.size, M),
                ival(J.size, N), ival(J.size, K), ival(I.size, nnz),
                scal(0.0 if alpha0 else 1.5, 18), rp, ci, buf(nnz, A, A.fill, 56 + v),
                c0, c1,
                buf(ldb * K, B, 'random', 66 + v) if alpha0 is True else buf(ldb * K, B, B.fill, 66 + v),
                {'i64': ldb}, scal(2.0 if beta2 else 1.0, 19),
                buf(csize, C, C.fill, 76 + v), {'i64': ldc},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'CSR x dense (B row-major), merge-path split, the host\'s 32-wide remainder: '
                 f'n = {N}, main columns [0, {off}), remainder [{off}, {N}) of {N - off}; M={M} '
                 f'K={K}, rows of {sorted(set(lens))} entries (empty, single, longer than a '
                 f'256-item path block), nnz={nnz}; coord0/coord1: the merge path of row_ptr '
                 f'(*.bin); {"column" if order else "row"}-major C, index base {base}, '
                 f'alpha {"0, beta 2" if beta2 else "0, beta 1 (the early return; B random bytes)" if alpha0 else "1.5"}, '
                 f'scalars {"by value" if host else "by device pointer"}; {nb} path blocks, '
                 f'8 per 256-wide workgroup: grid {gx}')
        write('csrmm', name, match, about, [gx], [BS], args)

for inst in MERGE_PATH_INSTANCES:
    csrmm_merge_path_host(*inst)

# ---- csrgemm_numeric_fill_wf_per_row_kernel<256, 8, 16, 137, I, J, T>
#      C = alpha A B + beta D, group 0 of the numeric phase: the rows whose
#      products (nnz of A's row times B's rows, plus D's row) are at most 16,
#      8 lanes and a 16-slot hash table per row. C's row pointer is what the
#      symbolic phase computes (the union of the columns); the kernel writes
#      csr_val_C only. Rows of more products are in other groups: then the
#      host passes perm (rows sorted by group, group 0 first, so
#      group_offset[0] = 0), else perm is null and m is every row.
def csr_pack(fmt, vals):
    return b''.join(struct.pack('<' + fmt, v) for v in vals)

def csrgemm_fill_wf(tag, targs, I, J, T):
    import random
    BS, WF = 256, 8
    match = dm('rocsparse::csrgemm_numeric_fill_wf_per_row_kernel', targs)
    ifmt = 'q' if I.size == 8 else 'i'
    jfmt = 'q' if J.size == 8 else 'i'
    for v, (M, K, N, mul, add, big, base, host, seed) in enumerate([
            (70, 30, 45, True, False, False, 0, True, 1),
            (45, 50, 20, True, True, True, 1, False, 2),
            (40, 20, 33, False, True, False, 0, True, 3),
            (33, 40, 64, True, True, False, 0, True, 4)]):
        rnd = random.Random(1000 + seed)
        def row(n, cnt):
            return sorted(rnd.sample(range(n), min(cnt, n)))
        # B: rows of 0..5 entries; A: rows of 0..4 (products <= 16 unless big)
        Brows = [row(N, rnd.choice([0, 1, 2, 3, 4, 5])) for _ in range(K)]
        Arows, Drows = [], []
        for r in range(M):
            want_big = big and r % 7 == 3
            for _ in range(200):
                a = row(K, rnd.choice([4, 5, 6]) if want_big else rnd.choice([0, 1, 2, 3, 4]))
                d = row(N, rnd.choice([0, 1, 2, 3])) if add else []
                prod = (sum(len(Brows[c]) for c in a) if mul else 0) + len(d)
                if (prod > 16) == want_big:
                    break
            else:
                raise SystemExit(f'csrgemm {tag}: no row of the wanted size')
            Arows.append(a)
            Drows.append(d)
        if mul and not big:
            # one row whose 16 products are 16 distinct columns: a full hash
            # table (linear probing wraps around), found by search
            for r in range(M):
                cols = set(c2 for c in Arows[r] for c2 in Brows[c]) | set(Drows[r])
                prod = sum(len(Brows[c]) for c in Arows[r]) + len(Drows[r])
                if len(cols) == 16 and prod == 16:
                    break
            else:
                full = sorted(rnd.sample(range(N), 16))
                Brows[0] = full[:5]
                Brows[1] = full[5:10]
                Brows[2] = full[10:15]
                Brows[3] = full[15:16]
                for r in range(M):
                    if sum(len(Brows[c]) for c in Arows[r]) + len(Drows[r]) > 16:
                        Arows[r] = Arows[r][:2]
                        Drows[r] = Drows[r][:1]
                Arows[5] = [0, 1, 2, 3]
                Drows[5] = []
        Crows = []
        products = []
        for r in range(M):
            cols = set(Drows[r])
            if mul:
                for c in Arows[r]:
                    cols |= set(Brows[c])
            Crows.append(sorted(cols))
            products.append((sum(len(Brows[c]) for c in Arows[r]) if mul else 0)
                            + len(Drows[r]))
        group0 = [r for r in range(M) if products[r] <= 16]
        assert big == (len(group0) < M)
        def ptr(rows):
            p = [base]
            for rr in rows:
                p.append(p[-1] + len(rr))
            return p
        name = f'numeric_fill_wf_{tag}_{v}'
        os.makedirs(f'{OUT}/csrgemm', exist_ok=True)
        files = {}
        def put(suffix, data):
            with open(f'{OUT}/csrgemm/{name}.{suffix}.bin', 'wb') as fh:
                fh.write(data)
            files[suffix] = {'buffer': f'{name}.{suffix}.bin', 'readonly': True}
        def cols(rows):
            return [c + base for rr in rows for c in rr]
        for key, rows in (('A', Arows), ('B', Brows), ('D', Drows), ('C', Crows)):
            put(f'ptr{key}', csr_pack(ifmt, ptr(rows)))
            put(f'col{key}', csr_pack(jfmt, cols(rows) or [0]))
        put('offset', csr_pack(jfmt, [0]))
        if big:
            # rows sorted by group (stable): group 0 first, then the others
            put('perm', csr_pack(jfmt, group0 + [r for r in range(M) if r not in group0]))
        nnz = {k: max(1, sum(len(rr) for rr in rows))
               for k, rows in (('A', Arows), ('B', Brows), ('D', Drows), ('C', Crows))}
        regions = {}
        def scal(x, s):
            if host:
                return alpha_host(T, x)
            if T.size > 8:
                # a 16-byte const_host_device_scalar (complex<double>): its
                # device form is the pointer in the first 8 bytes, to a
                # region (docs/run-spec.md, "Pointers in memory")
                r = f'scalar{len(regions)}'
                regions[r] = buf(1, T, T.fill, s)
                return {'bytes': '00' * 16, 'pointers': [{'offset': 0, 'to': r}]}
            return buf(1, T, T.fill, s)
        m = len(group0) if big else M
        gx = (m - 1) // (BS // WF) + 1
        args = [ival(J.size, m), ival(J.size, max(K, N)), files['offset'],
                files['perm'] if big else {'u64': 0},
                scal(1.5 if mul else 0.0, 51),
                files['ptrA'], files['colA'], buf(nnz['A'], T, T.fill, 61 + v),
                files['ptrB'], files['colB'], buf(nnz['B'], T, T.fill, 71 + v),
                scal(-2.0 if add else 0.0, 52),
                files['ptrD'], files['colD'], buf(nnz['D'], T, T.fill, 81 + v),
                files['ptrC'], files['colC'], buf(nnz['C'], T, T.fill, 91 + v),
                {'u32': base if mul else 0}, {'u32': base if mul else 0},
                {'u32': base}, {'u32': base if add else 0},
                {'u8': int(mul)}, {'u8': int(add)}, {'u8': int(host)}]
        full = sum(1 for r in group0 if len(Crows[r]) == 16)
        about = (f'CSR SpGEMM numeric fill, group 0 (at most 16 products a row, 8 lanes '
                 f'and a 16-slot hash table per row): C = '
                 f'{"alpha A B" if mul else ""}{" + " if mul and add else ""}'
                 f'{"beta D" if add else ""}, A {M}x{K} (rows of 0-4), B {K}x{N} (rows '
                 f'of 0-5), D rows of 0-3; C\'s row pointer is the union of the '
                 f'columns (the symbolic phase\'s); nk = max(k, n) = {max(K, N)}; '
                 f'index base {base}, scalars {"by value" if host else "by device pointer"}; '
                 f'{full} rows of 16 distinct columns; ' +
                 (f'{M - len(group0)} rows of more than 16 products are in other '
                  f'groups: perm lists group 0 first, m = {m}' if big else
                  f'every row in group 0: perm null, m = M') +
                 f'; grid ceil(m / 32) = {gx}; *.bin: the CSR arrays')
        write('csrgemm', name, match, about, [gx], [BS], args, regions=regions)

csrgemm_fill_wf('f32_i32_i32', '256u, 8u, 16u, 137u, int, int, float', I32, I32, F32)
csrgemm_fill_wf('f32_i64_i64', '256u, 8u, 16u, 137u, long, long, float', I64, I64, F32)
csrgemm_fill_wf('f32_i64_i32', '256u, 8u, 16u, 137u, long, int, float', I64, I32, F32)
# the larger sample's instantiations: complex and double values, 64-bit
# row pointers with 32- or 64-bit columns
csrgemm_fill_wf('c32_i64_i64', '256u, 8u, 16u, 137u, long, long, rocsparse_complex_num<float>',
                I64, I64, CF32)
csrgemm_fill_wf('c64_i32_i32', '256u, 8u, 16u, 137u, int, int, rocsparse_complex_num<double>',
                I32, I32, CF64)
csrgemm_fill_wf('f64_i64_i32', '256u, 8u, 16u, 137u, long, int, double', I64, I32, F64)

# ---- rocblas_gemm_batched_kernel<float, 16, 16, 64, 64, 4, 64, 4, 4, 64, 'N', 'C',
#      _Float16 const, _Float16 const, _Float16> (strided: plain pointers)
def gemm_batched_nc_f16():
    match = (r"rocblas_gemm_batched_kernel<float, 16, 16, 64, 64, 4, 64, 4, 4, 64, "
             r"(\(char\)78|'N'), (\(char\)67|'C'), _Float16 const, _Float16 const, "
             r"_Float16>\(")
    H = BF16  # 2-byte elements; int-f16 fill
    for v, (M, N, K, beta, batch) in enumerate([(128, 128, 8, 0.5, 2),
                                                 (192, 64, 12, 0.0, 1)]):
        lda, ldb, ldc, ldd = M + 3, N + 1, M + 5, M + 2
        sa, sb, sc, sd = lda * K, ldb * K, ldc * N, ldd * N
        args = [{'i64': M}, {'i64': N}, {'i64': K}, {'f32': 1.5},
                buf(sa * batch, H, 'int-f16', 101 + v), {'i64': lda},
                {'i64': sa if batch > 1 else 0},
                buf(sb * batch, H, 'int-f16', 103 + v), {'i64': ldb},
                {'i64': sb if batch > 1 else 0}, {'f32': beta},
                buf(sc * batch, H, 'int-f16', 105 + v), {'i64': ldc},
                {'i64': sc if batch > 1 else 0},
                buf(sd * batch, H, 'int-f16', 107 + v), {'i64': ldd},
                {'i64': sd if batch > 1 else 0}, {'i32': batch}]
        about = (f'D = alpha A B^H + beta C in f16 with f32 accumulation, the 64x64-tile '
                 f'kernel rocBLAS launches when m, n are multiples of 64 and k of 4: '
                 f'M={M} N={N} K={K}, lda={lda} ldb={ldb} ldc={ldc} ldd={ldd}, beta={beta}, '
                 f'{batch} strided batch(es); 16x16 threads, grid {M // 64} x {N // 64} x {batch}')
        write('gemm', f'gemm_batched_nc_f16_{v}', match, about, [M // 64, N // 64, batch],
              [16, 16], args)

gemm_batched_nc_f16()

# ---- rocblas_trsm_small_left_device[_sharedB]<NB, STEP, LOWER, T, SCAL, T const*, T*>
#      (uplo, transA, diag, m, n, alpha, A, offset_A, lda, stride_A, B, offset_B,
#      ldb, stride_B, batch_count): solves op(A) X = alpha B in place for an
#      m x m triangular A (m <= NB) and an m x n B, column-major. rocBLAS's
#      rocblas_trsm_small launches NB threads per block, NB columns of B per
#      block along x and the batch along z; LOWER is the fill (uplo is not
#      read). Reached from trsm (left side) with alpha != 0 and n > 1 when
#      NB is the smallest of 4, 8, ..., 32 with m <= NB (m <= 64 and n <= 64
#      for NB 64); the sharedB variant when n > 2 NB and m > 12 (upper,
#      no transpose) or m > 16 (upper, transpose). Real types never see
#      conjugate-transpose (the host turns it into transpose).
def trsm_small(kernel, name, targs, T, NB, variants):
    match = dm(kernel, targs)
    nbytes = T.size
    def elem(re_, im=0.0):
        if T.comps == 2:
            return f32hex(re_, im)
        return f64hex(re_) if nbytes == 8 else f32hex(re_)
    for v, (m, n, trans, unit, alpha, lda, ldb, offa, offb, batch, *rng) in enumerate(variants):
        sa = offa + lda * m + 3 if batch > 1 else 0
        sb = offb + ldb * n + 5 if batch > 1 else 0
        asize = offa + (batch - 1) * sa + lda * m
        bsize = offb + (batch - 1) * sb + ldb * n
        # Off-diagonal values stay small against the diagonal so that the
        # substitution neither overflows nor underflows over m steps.
        lo_hi = rng[0] if rng else '-3:3' if T.comps == 1 else '-1:1'
        afill = buf(asize, T, f'{T.fill}:{111 + v}:{lo_hi}')
        if not unit:
            diag = [(2.0, 1.0), (-3.0, 0.5), (4.0, -1.0), (-2.0, -2.0), (3.0, 2.0)]
            afill['patch'] = [
                {'offset': (offa + b * sa + i * lda + i) * nbytes,
                 'bytes': elem(*diag[(i + b) % len(diag)])}
                for b in range(batch) for i in range(m)]
        args = [{'u32': 121}, {'u32': trans}, {'u32': 132 if unit else 131},
                {'i32': m}, {'i32': n}, {'bytes': elem(*alpha)},
                afill, {'i64': offa}, {'i32': lda}, {'i64': sa},
                buf(bsize, T, T.fill, 121 + v), {'i64': offb}, {'i32': ldb},
                {'i64': sb}, {'i32': batch}]
        gx = (n - 1) // NB + 1
        about = (f'left triangular solve op(A) X = alpha B in place, upper A, '
                 f'transA {trans} ({ {111: "none", 112: "transpose", 113: "conjugate transpose"}[trans] }), '
                 f'{"unit" if unit else "non-unit"} diagonal, m={m} n={n}, lda={lda} ldb={ldb}, '
                 f'offsets {offa}/{offb}, alpha={alpha[0]}{f"+{alpha[1]}i" if T.comps == 2 else ""}, '
                 f'{batch} strided batch(es); '
                 f'{"the diagonal not read (unit)" if unit else "the diagonal away from 0"}, '
                 f'other values in [{lo_hi.replace(":", ", ")}]; {NB} threads, grid {gx} x 1 x {batch}')
        write('trsm', f'{name}_{v}',
              match, about, [gx, 1, batch], [NB], args)

# <20, 20, false, double>, sharedB: m in 17..20 and n > 40
trsm_small('rocblas_trsm_small_left_device_sharedB', 'small_left_sharedB_f64',
           '20, 20, false, double, double, double const*, double*', F64, 20, [
               (20, 45, 111, False, (1.5, 0.0), 22, 23, 0, 0, 1),
               (17, 41, 112, True, (-2.0, 0.0), 17, 19, 3, 5, 2),
               (18, 60, 111, True, (0.5, 0.0), 18, 18, 0, 2, 1),
               (20, 61, 112, False, (-1.0, 0.0), 21, 20, 1, 0, 1)])
# <64, 32, false, complex<float>>: m in 33..64, 2 <= n <= 64 (one block)
trsm_small('rocblas_trsm_small_left_device', 'small_left_c32',
           '64, 32, false, rocblas_complex_num<float>, rocblas_complex_num<float>, '
           'rocblas_complex_num<float> const*, rocblas_complex_num<float>*', CF32, 64, [
               (64, 64, 111, False, (1.5, -0.5), 64, 66, 0, 0, 1),
               (33, 5, 112, True, (-2.0, 1.0), 35, 33, 2, 4, 2),
               (50, 37, 113, False, (1.0, 0.0), 50, 51, 0, 1, 1),
               (41, 2, 111, True, (0.5, 0.25), 43, 41, 1, 0, 1),
               (63, 20, 113, True, (1.0, 2.0), 63, 64, 0, 0, 1),
               # no transpose, non-unit: steps 32, 4, 4, 4 and 1, 1, 1. Values
               # up to 3 make the products round, and the 4-step and 1-step
               # code round the complex products differently (immediate
               # 2486240, which skips the 4-steps, is told only then)
               (47, 30, 111, False, (-1.5, 0.5), 48, 47, 0, 3, 1, '-3:3')])

# ---- rocblas_gemm_batched_general_kernel<float, 16, 16, 32, 32, 8, 32, 8, 8, 32,
#      'N', 'N', rocblas_bfloat16 const* const, float const* const, float* const>
#      (M, N, K, alpha, dA[], lda, offset_a, dB[], ldb, offset_b, beta, dC[], ldc,
#      offset_c, dD[], ldd, offset_d, batch_count): D = alpha A B + beta C over
#      arrays of device pointers (gemm_ex batched, bf16 in, f32 out, rocBLAS's
#      source GEMM). rocBLAS launches it with 16x16 threads on a grid of
#      ceil(M/32) x ceil(N/32) x batch when M, N are not both multiples of 32
#      (or K of 8). A spec cannot name another buffer, so each pointer array
#      holds the addresses of matrices inside its own buffer: buffer argument
#      i lives at 0x100000000000 + i * 0x1000000000 (docs/run-spec.md), the
#      table of batch pointers first, then the matrices. Emulator only (the
#      HIP executor places buffers elsewhere).
def gemm_batched_general_bf16():
    match = (r"rocblas_gemm_batched_general_kernel<float, 16, 16, 32, 32, 8, 32, 8, 8, 32, "
             r"(\(char\)78|'N'), (\(char\)78|'N'), rocblas_bfloat16 const\* const, "
             r"float const\* const, float\* const>\(")
    def ptr_array(argi, batch, elems, esize, fill, seed, off):
        table = 8 * batch
        table_pad = (table + 255) // 256 * 256
        base = 0x100000000000 + argi * 0x1000000000
        b = buf(1, table_pad + batch * elems * esize, fill, seed)
        b['patch'] = [{'offset': 8 * i, 'bytes': (base + table_pad + i * elems * esize
                                                  ).to_bytes(8, 'little').hex()}
                      for i in range(batch)]
        return b
    for v, (M, N, K, alpha, beta, batch, off) in enumerate([
            # beta = 0: C is not read; M % 32 in 1..16 leaves lanes whose row
            # is below M but row + 16 is not
            (20, 45, 13, 1.5, 0.0, 2, 0),
            (50, 70, 9, -0.5, 2.0, 1, 3),
            (37, 33, 17, 1.0, 0.0, 1, 1)]):
        lda, ldb, ldc, ldd = M + 2, K + 1, M + 3, M + 1
        sa, sb, sc, sd = off + lda * K, off + ldb * N, off + ldc * N, off + ldd * N
        gx, gy = (M - 1) // 32 + 1, (N - 1) // 32 + 1
        args = [{'i64': M}, {'i64': N}, {'i64': K}, {'f32': alpha},
                ptr_array(4, batch, sa, 2, 'int-f16', 111 + v, off), {'i64': lda}, {'i64': off},
                ptr_array(7, batch, sb, 2, 'int-f16', 113 + v, off), {'i64': ldb}, {'i64': off},
                {'f32': beta},
                ptr_array(11, batch, sc, 4, 'int-f32', 115 + v, off), {'i64': ldc}, {'i64': off},
                ptr_array(14, batch, sd, 4, 'int-f32', 117 + v, off), {'i64': ldd}, {'i64': off},
                {'i32': batch}]
        about = (f'D = alpha A B + beta C, bf16 A/B (f16 integer bit patterns), f32 C/D, '
                 f'arrays of {batch} device pointer(s) into the same buffer (absolute '
                 f'addresses of the emulator\'s buffer layout), offsets {off}: M={M} N={N} '
                 f'K={K}, lda={lda} ldb={ldb} ldc={ldc} ldd={ldd}, alpha={alpha} beta={beta}; '
                 f'16x16 threads, grid {gx} x {gy} x {batch}')
        write('gemm', f'gemm_batched_general_nn_bf16_f32_{v}', match, about, [gx, gy, batch],
              [16, 16], args)

gemm_batched_general_bf16()

# ---- dotci_kernel_part1<256, I, X, Y, T>(nnz, x_val, x_ind, y, workspace,
#      idx_base): each of the 256 x 256 threads rocSPARSE launches (fixed grid,
#      rocsparse_dotci) sums conj(x_val[i]) y[x_ind[i]] over i = gid, gid +
#      65536, ...; workspace[block] gets the block's sum (part 2 adds them).
#      nnz below 65536 leaves idle lanes and whole idle blocks, whose sums
#      are exactly 0; real-valued data makes every imaginary sum 0 too.
def dotci_part1(tag, targs, I, T):
    match = dm('rocsparse::dotci_kernel_part1', targs)
    for v, (nnz, base, step, real) in enumerate([(1000, 0, 3, False), (70000, 1, 1, False),
                                                 (1100, 0, 2, True)]):
        ny = base + step * (nnz - 1) + 1 + 5
        xv, yv = buf(nnz, T, T.fill, 131 + v), buf(ny, T, T.fill, 133 + v)
        name = f'dotci_part1_{tag}_{v}'
        if real:
            # imaginary parts 0 (files next to the spec)
            def real_file(suffix, count, mul, mod):
                os.makedirs(f'{OUT}/dotci', exist_ok=True)
                with open(f'{OUT}/dotci/{name}.{suffix}.bin', 'wb') as fh:
                    fh.write(b''.join(struct.pack('<ff', float((k * mul) % mod - mod // 2), 0.0)
                                      for k in range(count)))
                return {'buffer': f'{name}.{suffix}.bin', 'readonly': True}
            xv, yv = real_file('x', nnz, 7, 5), real_file('y', ny, 3, 7)
        args = [ival(I.size, nnz), xv, buf(nnz, I.size, f'arith-i{8*I.size}:{base}:{step}'),
                yv, buf(256, T, 'random', 135 + v), {'u32': base}]
        about = (f'sparse dot conj(x) . y, nnz={nnz} with sorted indices base {base} '
                 f'step {step}, {"real-valued data (imaginary parts 0)" if real else "integer-valued data"}; '
                 f'256 x 256 threads as rocsparse_dotci launches them; workspace = 256 block sums')
        write('dotci', name, match, about, [256], [256], args)

dotci_part1('i32_c32', '256u, int, rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
            'rocsparse_complex_num<float>', I32, CF32)
dotci_part1('i64_c32', '256u, long, rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
            'rocsparse_complex_num<float>', I64, CF32)

# ---- kernel_freerun<1024, WFSIZE, T, I, J> (csritilu0x, the sync-split-fusion
#      algorithm): one ILU0 sweep per iteration. Thread `row` (WFSIZE lanes a
#      row; WFSIZE = 1, which the host picks for a mean of <= 2 entries a row)
#      takes each entry (row, col) of A (separate begin/end row pointers),
#      subtracts the dot product of L's row `row` (CSR, strictly lower) with
#      U's column `col` (U strictly upper, stored by columns: uind holds row
#      indices) read from lval0/uval0, divides L entries by dval0[col], and
#      stores into lval/uval/dval at the entry's place; then copies its own
#      L row, U column and diagonal back into lval0/uval0/dval0. The host's
#      grid is ceil(m / 1024) blocks of 1024.
#      Iterations read what other rows' threads wrote (a free-running, racy
#      algorithm across waves): the matrices here are block diagonal with
#      blocks of 64 rows, the rows of one wave, so that no two waves share
#      data and K0 has one result (within a wave the lanes run in lockstep).
def freerun(tag, targs, T):
    import random
    match = dm('rocsparse::kernel_freerun', targs)
    for v, (m, niter, base, seed, *extra) in enumerate([
            (50, 1, 0, 1), (200, 2, 1, 2), (1100, 1, 0, 3), (64, 3, 0, 4),
            # row 0 empty, every other row (r - 1, r): at the first entry
            # every active lane is in L (the branch's L-only entry)
            (64, 1, 0, 5, 'lfirst')]):
        rnd = random.Random(3000 + seed)
        rows = []
        for r in range(m):
            if 'lfirst' in extra:
                rows.append([r - 1, r] if r else [])
                continue
            lo, hi = r - r % 64, min(m, r - r % 64 + 64)
            cand = [c for c in range(lo, hi) if c != r]
            off = rnd.sample(cand, min(len(cand), rnd.choice([0, 1, 1, 2])))
            # a row without its diagonal now and then (dval[row] untouched)
            cols = set(off) | ({r} if r % 17 != 5 else set())
            rows.append(sorted(cols))
        nnz = sum(len(c) for c in rows)
        assert nnz <= 2 * m  # the mean the host launches WFSIZE = 1 for
        L = [[c for c in rows[r] if c < r] for r in range(m)]
        U = [[r for r in range(m) if c in rows[r] and r < c] for c in range(m)]
        def ptr(rr):
            p = [base]
            for x in rr:
                p.append(p[-1] + len(x))
            return p
        name = f'freerun_{tag}_{v}'
        os.makedirs(f'{OUT}/itilu0', exist_ok=True)
        files = {}
        def put(key, vals):
            with open(f'{OUT}/itilu0/{name}.{key}.bin', 'wb') as fh:
                fh.write(csr_pack('i', vals or [0]))
            files[key] = {'buffer': f'{name}.{key}.bin', 'readonly': True}
        for key, rr in (('A', rows), ('L', L), ('U', U)):
            p = ptr(rr)
            put(f'{key}begin', p[:-1])
            put(f'{key}end', p[1:])
            put(f'{key}ind', [c + base for x in rr for c in x])
        nl = max(1, sum(len(x) for x in L))
        nu = max(1, sum(len(x) for x in U))
        nz = '1:3'  # no zero divisor (dval0)
        args = [{'i32': niter}, {'i32': m}, {'i32': nnz},
                files['Abegin'], files['Aend'], files['Aind'],
                buf(nnz, T, f'{T.fill}:{200 + v}'), {'u32': base},
                files['Lbegin'], files['Lend'], files['Lind'],
                buf(nl, T, f'{T.fill}:{210 + v}'), buf(nl, T, f'{T.fill}:{220 + v}'),
                {'u32': base},
                files['Ubegin'], files['Uend'], files['Uind'],
                buf(nu, T, f'{T.fill}:{230 + v}'), buf(nu, T, f'{T.fill}:{240 + v}'),
                {'u32': base},
                buf(m, T, f'{T.fill}:{250 + v}:{nz}'), buf(m, T, f'{T.fill}:{260 + v}')]
        gx = (m - 1) // 1024 + 1
        shape = ('row 0 empty, row r > 0 (r - 1, r)' if 'lfirst' in extra else
                 'diagonal but every 17th row, 0-2 more in the same 64-row block')
        about = (f'iterative ILU0 sweep(s) (csritilu0x free run), WFSIZE 1: m={m}, '
                 f'{niter} iteration(s), A of {nnz} entries ({shape}: block diagonal, one wave a block), '
                 f'L = its strictly lower part (CSR), U = its strictly upper part by '
                 f'columns, index base {base}, dval0 without zeros; grid ceil(m / 1024) = {gx}; '
                 f'*.bin: begin/end row pointers and indices')
        write('itilu0', name, match, about, [gx], [1024], args)

for tg, tn, T in (('f32', 'float', F32), ('f64', 'double', F64),
                  ('c32', 'rocsparse_complex_num<float>', CF32),
                  ('c64', 'rocsparse_complex_num<double>', CF64)):
    freerun(tg, f'1024, 1, {tn}, int, int', T)

# ---- bsrmm_large_blockdim_kernel_ext<8, 8, 2, I, J, A, B, C, T>: C = alpha A B
#      + beta C with A in BSR (mb x kb blocks of block_dim x block_dim,
#      direction row: a block's entries row by row, column: column by column).
#      bsrmm_template_large_ext launches the 8 x 8 configuration for block_dim
#      5..8: grid (mb, ceil(n / 16)), block (8, 8); batch strides unused (one
#      batch). nn: B column-major (B[k + col * ldb], ldb >= kb * block_dim),
#      else row-major (B[k * ldb + col], ldb >= n); C column-major
#      (order 1: C[row + col * ldc], ldc >= mb * block_dim) or row-major.
def bsrmm_large_ext(tag, targs, I, J, A, B, C, T):
    import random
    match = dm('rocsparse::bsrmm_large_blockdim_kernel_ext', targs)
    for v, (mb, kb, n, bd, nn, dirn, order, base, host, beta, seed) in enumerate([
            (5, 4, 20, 5, True, 0, 1, 0, True, 0.5, 1),
            (4, 6, 33, 8, False, 1, 0, 1, False, 0.0, 2),
            (7, 3, 16, 7, True, 1, 0, 0, True, 1.0, 3),
            (3, 5, 9, 6, False, 0, 1, 1, True, -1.0, 4),
            # alpha 0 and beta 1: the kernel returns at once (C unchanged)
            (4, 4, 24, 8, True, 0, 1, 0, True, 1.0, 5),
            # beta 0 by value: C is written, never read (it holds infs)
            (6, 3, 17, 5, False, 1, 1, 0, True, 0.0, 6),
            # row-major B with a large ldb (a view into a wider matrix):
            # the column-major address k + col * ldb the kernel also forms
            # (and selects away by nn) is >= 4 GiB past B for the last
            # columns, so a mix of the two addresses' dwords faults
            (1, 1, 4096, 5, False, 0, 0, 0, True, 0.5, 7)]):
        rnd = random.Random(4000 + seed)
        # block rows of 0..3 distinct sorted block columns (one empty row)
        rows = [sorted(rnd.sample(range(kb), min(kb, rnd.choice([1, 2, 3]))))
                if r != 1 else [] for r in range(mb)]
        ptr = [base]
        for rr in rows:
            ptr.append(ptr[-1] + len(rr))
        nnzb = ptr[-1] - base
        name = f'bsrmm_large_ext_{tag}_{v}'
        os.makedirs(f'{OUT}/bsrmm', exist_ok=True)
        files = {}
        for key, fmt, vals in (('ptr', 'q' if I.size == 8 else 'i', ptr),
                               ('col', 'q' if J.size == 8 else 'i',
                                [c + base for rr in rows for c in rr])):
            with open(f'{OUT}/bsrmm/{name}.{key}.bin', 'wb') as fh:
                fh.write(csr_pack(fmt, vals))
            files[key] = {'buffer': f'{name}.{key}.bin', 'readonly': True}
        M, K = mb * bd, kb * bd
        ldb = (K + 3) if nn else (n + 2)
        if v == 6:
            # B.size * (col * ldb) >= 2^32 for col >= n / 2; B is 10 MiB
            ldb = (1 << 33) // (B.size * n)
        bsize = ldb * n if nn else ldb * K
        ldc = (M + 1) if order == 1 else (n + 3)
        csize = ldc * n if order == 1 else ldc * M
        alpha = 0.0 if v == 4 else 1.5
        def scal(x, s):
            # beta 0 and 1 exactly (imaginary part 0): the kernel tests them
            return (alpha_host(T, x, 0.0 if x in (0.0, 1.0) else -0.5) if host
                    else buf(1, T, T.fill, s))
        args = [{'u8': int(nn)}, {'u32': dirn}, ival(J.size, mb), ival(J.size, n),
                {'i64': 0}, {'i64': 0}, scal(alpha, 301), files['ptr'], files['col'],
                buf(nnzb * bd * bd, A, A.fill, 310 + v), ival(J.size, bd),
                buf(bsize, B, B.fill, 320 + v), {'i64': ldb}, {'i64': 0},
                scal(beta, 302), buf(csize, C, C.fill, 330 + v), {'i64': ldc}, {'i64': 0},
                {'u32': order}, {'u32': base}, {'u8': int(host)}]
        if beta == 0.0 and host and C.fill != 'random':
            args[15]['patch'] = special_patch(C, float('inf'), range(0, csize, 5))
        if alpha == 0.0 and C.fill != 'random':
            # C holds -0.0 and B an inf: 1 * C + 0 * sum would turn -0.0
            # into +0.0 and the inf into NaN, so only the early return keeps C
            args[15]['patch'] = special_patch(C, -0.0, range(0, csize, 7))
            args[11]['patch'] = special_patch(B, float('inf'), [3])
        gy = (n - 1) // 16 + 1
        about = (f'BSR x dense, 8 x 8 configuration: mb={mb} kb={kb} block_dim={bd} '
                 f'(direction {"column" if dirn else "row"}), {nnzb} blocks (block rows of '
                 f'0-3), n={n}, B {"column" if nn else "row"}-major ldb={ldb}, '
                 f'{"column" if order else "row"}-major C ldc={ldc}, alpha {alpha}, beta {beta}, '
                 f'index base {base}, scalars {"by value" if host else "by device pointer"}; '
                 f'grid (mb, ceil(n / 16)) = ({mb}, {gy}), block (8, 8); *.bin: row pointer and block columns')
        write('bsrmm', name, match, about, [mb, gy], [8, 8], args)

for tg, ta, tys in (('f32', 'float, float, float, float', (F32, F32, F32, F32)),
                    ('c32', 'rocsparse_complex_num<float>, rocsparse_complex_num<float>, '
                     'rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                     (CF32, CF32, CF32, CF32)),
                    ('f16', '_Float16, _Float16, float, float', (F16, F16, F32, F32)),
                    ('i8', 'signed char, signed char, int, int', (I8V, I8V, I32V, I32V))):
    bsrmm_large_ext(tg, f'8u, 8u, 2u, int, int, {ta}', I32, I32, *tys)

# ---- bsrxmvn_general_kernel<64, 8, T, I, J, A, X, Y>: y = alpha A x + beta y
#      on the block rows of a mask (bsrxmv; without a mask all mb rows, as
#      bsrmv calls it), A in BSRX (a begin and an end pointer per block row;
#      a null end pointer: row_ptr[row + 1]). bsrxmvn_general launches it
#      for block_dim <= 8 with one 64-thread block per masked row: 8 lanes a
#      row of the BSR block (wid = block row bi, lid = column bj).
def bsrxmvn_general(tag, targs, T, I, J, A, X, Y):
    import random
    match = dm('rocsparse::bsrxmvn_general_kernel', targs)
    for v, (mb, nb, bd, dirn, masked, ends, base, host, beta, seed) in enumerate([
            (9, 7, 5, 0, True, True, 0, True, 0.5, 1),
            (6, 5, 7, 1, False, False, 1, False, 0.0, 2),
            (12, 9, 6, 1, True, True, 1, True, 0.0, 3),
            (5, 4, 8, 0, False, True, 0, True, -1.0, 4),
            # alpha 0 and beta 1: the kernel does nothing (y holds -0.0 and x
            # an inf, which 1 * y + 0 * sum would change)
            (7, 6, 6, 0, True, True, 0, True, 1.0, 5)]):
        rnd = random.Random(5000 + seed)
        rows = [sorted(rnd.sample(range(nb), rnd.choice([0, 1, 2, 3]))) for _ in range(mb)]
        ptr = [base]
        for rr in rows:
            ptr.append(ptr[-1] + len(rr))
        # BSRX: a row's end before the next row's begin (its last block left
        # out) in some rows
        end = [ptr[r + 1] - (1 if ends and rows[r] and r % 3 == 0 else 0) for r in range(mb)]
        mask = sorted(rnd.sample(range(mb), mb // 2 + 1)) if masked else None
        nnzb = ptr[-1] - base
        name = f'bsrxmvn_general_{tag}_{v}'
        os.makedirs(f'{OUT}/bsrxmv', exist_ok=True)
        files = {}
        ifmt, jfmt = ('q' if I.size == 8 else 'i'), ('q' if J.size == 8 else 'i')
        for key, fmt, vals in (('ptr', ifmt, ptr), ('end', ifmt, end),
                               ('col', jfmt, [c + base for rr in rows for c in rr] or [0]),
                               ('mask', jfmt, [r + base for r in mask] if mask else [0])):
            with open(f'{OUT}/bsrxmv/{name}.{key}.bin', 'wb') as fh:
                fh.write(csr_pack(fmt, vals))
            files[key] = {'buffer': f'{name}.{key}.bin', 'readonly': True}
        def scal(x, s):
            return (alpha_host(T, x, 0.0 if x in (0.0, 1.0) else -0.5) if host
                    else buf(1, T, T.fill, s))
        size = len(mask) if masked else mb
        alpha = 0.0 if v == 4 else 1.5
        args = [{'u32': dirn}, scal(alpha, 401), ival(J.size, len(mask) if masked else 0),
                files['mask'] if masked else {'u64': 0}, files['ptr'],
                files['end'] if ends else {'u64': 0}, files['col'],
                buf(max(1, nnzb) * bd * bd, A, A.fill, 410 + v), ival(J.size, bd),
                buf(nb * bd, X, X.fill, 420 + v), scal(beta, 402),
                buf(mb * bd, Y, Y.fill, 430 + v), {'u32': base}, {'u8': int(host)}]
        if beta == 0.0 and host:
            # y is written, never read: infs in it change nothing
            args[11]['patch'] = special_patch(Y, float('inf'), range(0, mb * bd, 4))
        if alpha == 0.0:
            args[11]['patch'] = special_patch(Y, -0.0, range(0, mb * bd, 3))
            args[9]['patch'] = special_patch(X, float('inf'), [2])
        about = (f'BSRX x vector, general kernel (8 x 8 threads a block row): mb={mb} nb={nb} '
                 f'block_dim={bd} (direction {"column" if dirn else "row"}), {nnzb} blocks '
                 f'(block rows of 0-3), {"end pointers that leave out a row" + chr(39) + "s last block every third row" if ends else "no end pointer"}, '
                 f'{f"a mask of {size} sorted rows" if masked else "no mask (all rows)"}, '
                 f'alpha {alpha}, beta {beta}, index base {base}, scalars '
                 f'{"by value" if host else "by device pointer"}; grid = {size} blocks of 64; '
                 f'*.bin: pointers, block columns, mask')
        write('bsrxmv', name, match, about, [size], [64], args)

bsrxmvn_general('f32', '64u, 8u, float, int, int, float, float, float', F32, I32, I32, F32, F32, F32)
bsrxmvn_general('f64_i64', '64u, 8u, double, long, long, double, double, double',
                F64, I64, I64, F64, F64, F64)
bsrxmvn_general('f64_f32a', '64u, 8u, double, int, int, float, double, double',
                F64, I32, I32, F32, F64, F64)
bsrxmvn_general('f16', '64u, 8u, float, int, int, _Float16, _Float16, float',
                F32, I32, I32, F16, F16, F32)

# ---- sddmm_csx_kernel_wavefront_per_rowcol<256, 32, NT, column, T, I, J, A, B, C>:
#      C's pattern (CSC here: DIRECTION column) gets alpha op(A) op(B) + beta C
#      at its entries: one 32-lane group a column, 32 / NT entries at a time,
#      NT lanes a dot product over K. Grid ceil(N / 8) blocks of 256.
#      op(A) is M x K, op(B) K x N; order 1 column-major, 0 row-major;
#      operation 111 none, 112 transpose.
#      sddmm_csx_sample_kernel<512, 16, column, T, I, J, C>: csx_val[at] =
#      dense[col * lda + row] for C's entries (16 lanes a column), grid
#      ceil(N / 32) blocks of 512.
def sddmm_csc(tag, targs, NT, T, I, J, A, B, C):
    import random
    match = dm('rocsparse::sddmm_csx_kernel_wavefront_per_rowcol', targs)
    for v, (M, N, K, oA, tA, oB, tB, base, host, beta, seed) in enumerate([
            (40, 21, 9, 1, 111, 1, 111, 0, True, 0.5, 1),
            (33, 10, 20, 0, 112, 0, 111, 1, False, 0.0, 2),
            (25, 17, 5, 0, 111, 1, 112, 0, True, 1.0, 3),
            (70, 9, 13, 1, 112, 0, 112, 1, True, -1.0, 4)]):
        rnd = random.Random(6000 + seed)
        # columns of 0..40 sorted rows (more than a group's 32 / NT entries)
        cols = [sorted(rnd.sample(range(M), min(M, rnd.choice([0, 1, 3, 7, 20, 40]))))
                for _ in range(N)]
        ptr = [base]
        for cc in cols:
            ptr.append(ptr[-1] + len(cc))
        nnz = ptr[-1] - base
        name = f'sddmm_csc_{tag}_{v}'
        os.makedirs(f'{OUT}/sddmm', exist_ok=True)
        files = {}
        for key, fmt, vals in (('ptr', 'q' if I.size == 8 else 'i', ptr),
                               ('ind', 'q' if J.size == 8 else 'i',
                                [r + base for cc in cols for r in cc] or [0])):
            with open(f'{OUT}/sddmm/{name}.{key}.bin', 'wb') as fh:
                fh.write(csr_pack(fmt, vals))
            files[key] = {'buffer': f'{name}.{key}.bin', 'readonly': True}
        a_m_inner = (oA == 1) == (tA == 111)
        lda = (M + 2) if a_m_inner else (K + 1)
        asize = lda * (K if a_m_inner else M)
        b_k_inner = (oB == 1) == (tB == 111)
        ldb = (K + 3) if b_k_inner else (N + 1)
        bsize = ldb * (N if b_k_inner else K)
        def scal(x, s):
            return (alpha_host(T, x, 0.0 if x in (0.0, 1.0) else -0.5) if host
                    else buf(1, T, T.fill, s))
        args = [{'u32': tA}, {'u32': tB}, {'u32': oA}, {'u32': oB},
                ival(J.size, M), ival(J.size, N), ival(J.size, K), ival(I.size, nnz),
                scal(1.5, 501), buf(asize, A, A.fill, 510 + v), {'i64': lda},
                buf(bsize, B, B.fill, 520 + v), {'i64': ldb}, scal(beta, 502),
                buf(max(1, nnz), C, C.fill, 530 + v), files['ptr'], files['ind'],
                {'u32': base}, {'u8': int(host)}]
        gx = (N - 1) // 8 + 1
        about = (f'sampled dense x dense (SDDMM) into a CSC pattern, {NT} lanes a dot product: '
                 f'M={M} N={N} K={K}, nnz={nnz} (columns of 0-40 sorted rows), A order {oA} op {tA} '
                 f'lda={lda}, B order {oB} op {tB} ldb={ldb}, alpha 1.5, beta {beta}, '
                 f'index base {base}, scalars {"by value" if host else "by device pointer"}; '
                 f'grid ceil(N / 8) = {gx} blocks of 256; *.bin: column pointer and row indices')
        write('sddmm', name, match, about, [gx], [256], args)

sddmm_csc('f16_i64', '256u, 32u, 2u, (rocsparse_direction_)1, _Float16, long, long, _Float16, _Float16, _Float16',
          2, F16, I64, I64, F16, F16, F16)
sddmm_csc('f32_f16', '256u, 32u, 4u, (rocsparse_direction_)1, float, int, int, _Float16, _Float16, _Float16',
          4, F32, I32, I32, F16, F16, F16)

def sddmm_sample(tag, targs, I, J, C):
    import random
    match = dm('rocsparse::sddmm_csx_sample_kernel', targs)
    for v, (M, N, base, seed) in enumerate([(40, 45, 0, 1), (70, 9, 1, 2)]):
        rnd = random.Random(6100 + seed)
        cols = [sorted(rnd.sample(range(M), min(M, rnd.choice([0, 1, 3, 17, 40]))))
                for _ in range(N)]
        ptr = [base]
        for cc in cols:
            ptr.append(ptr[-1] + len(cc))
        nnz = ptr[-1] - base
        name = f'sddmm_sample_{tag}_{v}'
        files = {}
        for key, fmt, vals in (('ptr', 'q' if I.size == 8 else 'i', ptr),
                               ('ind', 'q' if J.size == 8 else 'i',
                                [r + base for cc in cols for r in cc] or [0])):
            with open(f'{OUT}/sddmm/{name}.{key}.bin', 'wb') as fh:
                fh.write(csr_pack(fmt, vals))
            files[key] = {'buffer': f'{name}.{key}.bin', 'readonly': True}
        lda = M + 3
        args = [ival(J.size, M), ival(J.size, N), ival(I.size, nnz),
                buf(lda * N, C, C.fill, 540 + v), ival(J.size, lda),
                buf(max(1, nnz), C, C.fill, 550 + v), files['ptr'], files['ind'], {'u32': base}]
        gx = (N - 1) // 32 + 1
        about = (f'SDDMM sampling: CSC pattern values from a column-major dense M={M} x N={N} '
                 f'(lda={lda}), nnz={nnz} (columns of 0-40 sorted rows), index base {base}; '
                 f'16 lanes a column, grid ceil(N / 32) = {gx} blocks of 512')
        write('sddmm', name, match, about, [gx], [512], args)

sddmm_sample('f16', '512, 16, (rocsparse_direction_)1, _Float16, long, int, _Float16', I64, I32, F16)

# ---- rocblas_trtri_fill<128, T, T*>(handle, uplo, n, num_zero_elem, lda,
#      sub_stride_A, A, offset_A, stride_A, sub_batch_count, batch_count):
#      zeroes the strict triangle opposite to uplo (121 upper: the part
#      below the diagonal, 122 lower: above) of sub_batch_count n x n
#      matrices sub_stride_A apart, in each batch (blockIdx.z, stride_A).
#      rocblas_trtri_small launches it with num_zero_elem = n (n - 1) / 2,
#      sub_stride_A = n * lda, offset_A, stride 0, grid (ceil(num_zero_elem
#      * sub_batch_count / 128), 1, batch_count) of 128; the handle is not read.
def trtri_fill(tag, targs, T):
    match = dm('rocblas_trtri_fill', targs)
    for v, (uplo, n, lda, off, sub, batch, stride) in enumerate([
            (121, 5, 8, 0, 1, 1, 0), (122, 17, 20, 3, 2, 1, 0),
            (121, 40, 41, 0, 3, 2, 40 * 41 * 3 + 5), (122, 23, 23, 7, 1, 2, 23 * 23 + 1)]):
        nz = n * (n - 1) // 2
        total = off + (batch - 1) * stride + sub * n * lda
        gx = (nz * sub + 127) // 128
        args = [{'u64': 0}, {'u32': uplo}, {'i32': n}, {'i64': nz}, {'i32': lda},
                {'i64': n * lda}, buf(total, T, T.fill, 600 + v), {'i64': off},
                {'i64': stride}, {'i32': sub}, {'i32': batch}]
        about = (f'trtri fill: zero the strict {"lower" if uplo == 121 else "upper"} triangle '
                 f'(uplo {uplo}) of {sub} matrices n={n} lda={lda} (sub stride n*lda) from '
                 f'offset {off}, {batch} batch(es) stride {stride}; grid ({gx}, 1, {batch}) of 128')
        write('trtri', f'trtri_fill_{tag}_{v}', match, about, [gx, 1, batch], [128], args)

trtri_fill('c32', '128, rocblas_complex_num<float>, rocblas_complex_num<float>*', CF32)

# ---- rocblas_iamax_iamin_kernel_part1<1024, FETCH, REDUCE, const T*, index_value_t<R>>
#      (n, nblocks, x, shiftx, incx, stridex, batch_count, workspace): each
#      1024-thread block reduces its 1024 elements to (1-based index, |x|
#      (|re| + |im| for complex)), the first index of the maximum (minimum)
#      winning ties, into workspace[batch * nblocks + block]. The host
#      returns early for n <= 0 or incx <= 0 and launches grid (nblocks =
#      ceil(n / 1024), 1, batch_count). Values in -3..3: many ties.
def iamax_part1(tag, targs, T, wsize):
    match = dm('rocblas_iamax_iamin_kernel_part1', targs)
    for v, (n, incx, shift, batch) in enumerate([(1000, 1, 0, 1), (2100, 2, 3, 2),
                                                 (70, 3, 1, 1), (3072, 1, 0, 1),
                                                 (2500, 1, 0, 1), (1024, 1, 0, 1)]):
        nb = (n - 1) // 1024 + 1
        per = shift + (n - 1) * incx + 1
        stride = per + 2 if batch > 1 else 0
        # the last launch has random bytes for x: distinct magnitudes (no
        # ties: every merge step of the reduction decides) and f64 values
        # whose low dwords are not 0 (small integers' are)
        fill = 'random' if v == 4 else T.fill
        if v == 5:
            # values 1..3 with one larger (element 323) and one smaller (400)
            # magnitude, both in waves 4..7 of the block: the block's second
            # reduction (16 wave results in wave 0) must carry them from lanes
            # 4..7 to lane 0
            fill = f'{T.fill}:706:1:3'
        args = [{'i32': n}, {'i32': nb},
                buf(shift + (batch - 1) * stride + (n - 1) * incx + 1, T, fill,
                    None if v == 5 else 700 + v),
                {'i64': shift}, {'i32': incx}, {'i64': stride}, {'i32': batch},
                buf(nb * batch, wsize, 'random', 710 + v)]
        if v == 5:
            args[2]['patch'] = special_patch(T, 5.0, [323]) + special_patch(T, 0.5, [400])
        about = (f'i{"amin" if "amin>" in targs or "reduce_amin" in targs else "amax"} part 1: '
                 f'n={n} incx={incx} shiftx={shift}, {batch} batch(es) stride {stride}, '
                 f'{"random bytes (NaNs and infs included)" if v == 4 else "values 1..3, a unique largest magnitude at element 323 and smallest at 400 (waves 5 and 6)" if v == 5 else "values in -3..3 (ties)"}; grid ({nb}, 1, {batch}) of 1024, workspace = the '
                 f'{nb * batch} block results')
        write('iamax', f'iamax_part1_{tag}_{v}', match, about, [nb, 1, batch], [1024], args)

iamax_part1('amax_f32', '1024, rocblas_fetch_amax_amin<float>, rocblas_reduce_amax, float const*, '
            'rocblas_index_value_t<float>', F32, 8)
iamax_part1('amin_f32', '1024, rocblas_fetch_amax_amin<float>, rocblas_reduce_amin, float const*, '
            'rocblas_index_value_t<float>', F32, 8)
iamax_part1('amax_c64', '1024, rocblas_fetch_amax_amin<double>, rocblas_reduce_amax, '
            'rocblas_complex_num<double> const*, rocblas_index_value_t<double>', CF64, 16)

# ---- csrmmnt_nnz_split_remainder_kernel<256, 16, T, I, J, A, B, C>(conj_A,
#      conj_B, offset, m, n, k, nnz, alpha, row_limits, row_ptr, col_ind,
#      val, B, ldb, C, ldc, order, base, host): C += alpha A B for columns
#      [offset, n), B row-major (B[k * ldb + col], ldb >= n): each block takes
#      256 entries, finds each entry's row by bisection between
#      row_limits[block] and row_limits[block + 1], 16 lanes a column group,
#      atomic adds into C. csrmmnt_nnz_split_dispatch launches WF 16 for a
#      remainder n - main of 9..16 (main a multiple of 64, 128, 192 or 256,
#      or 0 for n < 64), grid ceil(nnz / 256) blocks of 256, after scaling C
#      by beta itself. row_limits[b] is the row of entry 256 b
#      (csrmmnn_nnz_split_compute_row_limits), the last one m.
def csrmmnt_nnz_rem(tag, targs, T, I, J, A, B, C):
    BS = 256
    match = dm('rocsparse::csrmmnt_nnz_split_remainder_kernel', targs)
    for v, (nnz, R, order, base, host, N, off, K) in enumerate([
            (1900, 8, 1, 0, True, 12, 0, 40),
            (1024, 16, 0, 1, False, 77, 64, 33),
            (1400, 100, 1, 0, True, 140, 128, 120),
            (700, 3, 0, 0, True, 16, 0, 17),
            # rows of 600: blocks inside one row skip the bisection
            (1400, 600, 1, 1, True, 74, 64, 700)]):
        nb = (nnz + BS - 1) // BS
        M = (nnz + R - 1) // R + 3
        nrp = max(M + 1, (BS * nb) // R + 2)
        ldb = N + 3
        ldc = (M + 2) if order == 1 else (N + 1)
        csize = ldc * N if order == 1 else ldc * M
        limits = limits_file('csrmm', f'nnzt_split_remainder_{tag}_{v}', J,
                             nnz_split_row_limits(M, nb, R))
        args = [{'u8': 1 if v == 1 else 0}, {'u8': 1 if v == 1 else 0}, ival(J.size, off),
                ival(J.size, M), ival(J.size, N), ival(J.size, K), ival(I.size, nnz),
                alpha_host(T, 1.5) if host else buf(1, T, T.fill, 14), limits,
                buf(nrp, I.size, f'arith-i{8*I.size}:{base}:{R}'),
                buf(nnz, J.size, f'cols-i{8*J.size}:{17+v}:{K}:{R}:{base}'),
                buf(nnz, A, A.fill, 62 + v), buf(ldb * K, B, B.fill, 72 + v), {'i64': ldb},
                buf(csize, C, C.fill, 82 + v), {'i64': ldc},
                {'u32': order}, {'u32': base}, {'u8': 1 if host else 0}]
        about = (f'CSR SpMM (nnz split, B row-major) remainder columns [{off}, {N}): M={M} '
                 f'(3 rows more than the entries fill) K={K}, nnz={nnz} in rows of {R}, ldb={ldb}, '
                 f'row_limits as csrmmnn_nnz_split_compute_row_limits computes them (.bin); '
                 f'{"column" if order else "row"}-major C, index base {base}, alpha '
                 f'{"by value" if host else "by device pointer"}; grid = ceil(nnz / 256) = {nb}')
        if v == 1:
            about += '; conj_A and conj_B set (a no-op for real types)'
        write('csrmm', f'nnzt_split_remainder_{tag}_{v}', match, about, [nb], [BS], args)

for tg, ta, tys in (('f32', 'float, int, int, float, float, float', (F32, I32, I32, F32, F32, F32)),
                    ('c32', 'rocsparse_complex_num<float>, int, int, rocsparse_complex_num<float>, '
                     'rocsparse_complex_num<float>, rocsparse_complex_num<float>',
                     (CF32, I32, I32, CF32, CF32, CF32)),
                    ('f16', 'float, int, int, _Float16, _Float16, float', (F32, I32, I32, F16, F16, F32)),
                    ('i8', 'int, int, int, signed char, signed char, int', (I32V, I32, I32, I8V, I8V, I32V))):
    csrmmnt_nnz_rem(tg, f'256u, 16u, {ta}', *tys)

# ---- scale_kernel<256, I, A, T>(length, scalar (host value or device
#      pointer), array, is_host_mode): array[i] *= scalar for i < length,
#      array[i] = 0 when scalar == 0, nothing when scalar == 1 (grid =
#      ceil(length / 256)). rocsparse::scale_array launches it in host
#      pointer mode only for a scalar other than 0 (a hipMemsetAsync then)
#      and 1 (nothing): the scalars below have a zero real part (i, -i: the
#      kernel's "scalar == 0" test looks at both parts) or none, and one is
#      0 + 2^-1074 i (the smallest f64 denormal, which the integer inline
#      constant 1 of an f64 compare is: f64 denormals are kept). Device mode
#      (where 0 and 1 reach the kernel) is not written: the spec format passes
#      a buffer only for an 8-byte by-value argument, and this scalar slot is
#      16 bytes (complex<double>).
def scale(tag, targs, I, T):
    match = dm('rocsparse::scale_kernel', targs)
    for v, (n, re_, im, special) in enumerate([
            (1000, 0.0, 1.0, False), (300, 0.0, -1.0, True),
            (256, 2.0, -0.5, True), (77, -1.0, 0.0, False), (513, 0.0, 2.0, False),
            (100, 0.0, 5e-324, False)]):
        gx = (n + 255) // 256
        s = {'bytes': valhex(T, re_, im).ljust(max(16, 2 * T.size), '0')}
        x = buf(n, T, T.fill, 91 + v)
        if special:
            x['patch'] = (special_patch(T, float('inf'), [3, 200])
                          + special_patch(T, float('nan'), [5, 255]))
        args = [ival(I.size, n), s, x, {'u8': 1}]
        about = (f'x *= alpha, length {n} (grid {gx} of 256), alpha = {re_:g} + {im:g}i '
                 f'by value, x small integers' + (', inf and NaN elements' if special else ''))
        write('scale', f'scale_{tag}_{v}', match, about, [gx], [256], args)

scale('i64_c64', '256u, long, rocsparse_complex_num<double>, rocsparse_complex_num<double>', I64, CF64)

# ---- dense_transpose_kernel<32, 8, I, T, T>(m, n, alpha, A, lda, B, ldb):
#      B = alpha A^T, A m x n column-major (lda >= m), B n x m column-major
#      (ldb >= n); grid ceil(m / 32) of 256 work-items (a 32 x 32 LDS tile per
#      32 columns). m not a multiple of 32 leaves waves of the last block with
#      rows valid in the first stores of a tile and not the later ones, and
#      n > 32 makes them run the next tile (40: rows 32..39; 49 and 17: one
#      half of a wave valid in the third store).
def dense_transpose(tag, targs, I, T):
    match = dm('rocsparse::dense_transpose_kernel', targs)
    for v, (m, n, alpha) in enumerate([(40, 70, 1.5), (49, 45, -2.0), (17, 33, 1.0),
                                       (100, 64, 0.5), (32, 32, 3.0), (1, 5, -1.0)]):
        lda, ldb = m + 3, n + 2
        gx = (m + 31) // 32
        args = [ival(I.size, m), ival(I.size, n), {'f32': alpha},
                buf(lda * n, T, T.fill, 101 + v), {'i64': lda},
                buf(ldb * m, T, 'random', 111 + v), {'i64': ldb}]
        about = (f'B = alpha A^T: m={m} n={n} alpha={alpha:g}, A column-major lda={lda}, '
                 f'B column-major ldb={ldb} (random bytes between: untouched); '
                 f'grid ceil(m / 32) = {gx} of 256')
        write('dense_transpose', f'dense_transpose_{tag}_{v}', match, about, [gx], [256], args)

dense_transpose('i32_f32', '32u, 8u, int, float, float', I32, F32)

# ---- dense_transpose_back_kernel<32, 8, I, T>(m, n, A, lda, B, ldb): the
#      inverse copy, B = A^T with A n x m column-major (lda >= n) and B m x n
#      column-major (ldb >= m); grid ceil(m / 32) of 256 work-items. n not a
#      multiple of 32 (45, 12, 9: n % 32 in 8..15 puts a column j + wid + 8
#      exactly at n) and m not a multiple of 32 (partial row tiles).
def dense_transpose_back(tag, targs, I, T):
    match = dm('rocsparse::dense_transpose_back_kernel', targs)
    for v, (m, n) in enumerate([(40, 45), (49, 12), (17, 70), (100, 64), (33, 9)]):
        lda, ldb = n + 3, m + 2
        gx = (m + 31) // 32
        args = [ival(I.size, m), ival(I.size, n),
                buf(lda * m, T, T.fill, 121 + v), {'i64': lda},
                buf(ldb * n, T, 'random', 131 + v), {'i64': ldb}]
        about = (f'B = A^T back: m={m} n={n}, A column-major n x m lda={lda}, '
                 f'B column-major m x n ldb={ldb} (random bytes between: untouched); '
                 f'grid ceil(m / 32) = {gx} of 256')
        write('dense_transpose', f'dense_transpose_back_{tag}_{v}', match, about, [gx], [256], args)

dense_transpose_back('i64_f32', '32u, 8u, long, float', I64, F32)

# ---- rocBLAS gemm_ex_scale_kernel<32, 32, float, bf16 const*, bf16*>(m, n,
#      beta, C, shift_c, ldc, stride_c, D, shift_d, ldd, stride_d, batch):
#      D = beta ? bf16(beta * C) : 0, column-major, the gemm_ex path for
#      k == 0 or alpha == 0; 32 x 32 work-items, grid (ceil(m / 32),
#      ceil(n / 32), batch). beta is any float the caller passes: NaNs with
#      payloads in the low 16 bits (the product keeps beta's payload, and the
#      float -> bf16 rounding treats NaN apart), 1.5 and 0 (C not read).
def gemm_ex_scale_bf16():
    match = dm('(anonymous namespace)::gemm_ex_scale_kernel', '32, 32, float, rocblas_bfloat16 const*, rocblas_bfloat16*')
    for v, (m, n, beta, batch) in enumerate([(45, 40, 0x7f800001, 1), (33, 70, 0x7fc0abcd, 2),
                                             (64, 33, 0x3fc00000, 1), (20, 20, 0, 1),
                                             (7, 9, 0xffc00101, 1)]):
        ldc, ldd = m + 3, m + 1
        sc, sd = ldc * n + 5, ldd * n + 3
        gx, gy = (m + 31) // 32, (n + 31) // 32
        args = [{'i32': m}, {'i32': n}, {'bytes': struct.pack('<I', beta).hex()},
                buf(sc * batch + 2, 2, 'random', 141 + v), {'i64': 2}, {'i64': ldc}, {'i64': sc},
                buf(sd * batch + 1, 2, 'random', 151 + v), {'i64': 1}, {'i64': ldd}, {'i64': sd},
                {'i32': batch}]
        about = (f'D = beta C in bf16: m={m} n={n} beta bits 0x{beta:08x}, ldc={ldc} ldd={ldd}, '
                 f'offsets 2 and 1, {batch} batch(es) strided; grid ({gx}, {gy}, {batch}) of 32 x 32')
        write('gemm_ex_scale', f'gemm_ex_scale_bf16_{v}', match, about, [gx, gy, batch], [32, 32], args)

gemm_ex_scale_bf16()

# ---- gemm_ex_scale_kernel<32, 32, double, double const*, double*>: the same
#      kernel for doubles with ldc or ldd of 2^32 elements or more, as
#      rocblas_gemm_ex_scale_launcher_64 passes the 64-bit API's ldc_64 and
#      ldd_64 (n < its grid chunk: shifts offset_c and offset_d). C (D) is a
#      sparse buffer (docs/run-spec.md): column 1 starts 32 GiB in and only
#      the two columns' pages exist.
def gemm_ex_scale_f64_huge():
    match = dm('(anonymous namespace)::gemm_ex_scale_kernel', '32, 32, double, double const*, double*')
    big = 1 << 32
    for v, (m, ldc, ldd) in enumerate([(40, big + 8, 41), (40, 43, big + 24), (33, big + 3, big + 40)]):
        n = 2
        def mat(ld, shift, seed):
            b = buf(shift + ld * (n - 1) + m, F64, 'int-f64' if seed else 'zero', seed)
            if ld >= big:
                b['sparse'] = True
            return b
        args = [{'i32': m}, {'i32': n}, {'f64': 1.5},
                mat(ldc, 2, 161 + v), {'i64': 2}, {'i64': ldc}, {'i64': 0},
                mat(ldd, 1, None), {'i64': 1}, {'i64': ldd}, {'i64': 0},
                {'i32': 1}]
        about = (f'D = 1.5 C in doubles: m={m} n={n}, ldc={ldc} ldd={ldd} (>= 2^32: a sparse buffer), '
                 f'offsets 2 and 1, one batch; grid ({(m + 31) // 32}, 1, 1) of 32 x 32')
        write('gemm_ex_scale', f'gemm_ex_scale_f64_huge_{v}', match, about, [(m + 31) // 32, 1, 1], [32, 32], args)

gemm_ex_scale_f64_huge()

# ---- rocPRIM 4.2 (ROCPRIM_400200_NS, in rocSPARSE 7.2.4) radix_sort_onesweep:
#      trampoline_kernel<wrapped_radix_sort_onesweep_config<default_config,
#      Key, Value>, target_arch, LAMBDA, ...>(LAMBDA) runs the lambda that
#      radix_sort_onesweep_global_offsets passes to execute_launch_plan; its
#      closure is the kernel's one by-value argument. Lambda #1 (E_) is the
#      histogram pass onesweep_histograms(keys_input, global_digit_offsets,
#      size, full_blocks, decomposer, begin_bit, end_bit); its 48-byte
#      closure, as K0 reads it (s_load 0x0 x4, 0x10, 0x18 x2, 0x24 x2):
#      keys_input at 0, global_digit_offsets (size_t*) at 8, size (size_t) at
#      16, full_blocks at 24, the empty identity_decomposer at 32, begin_bit
#      at 36, end_bit at 40. The host: items_per_block = block_size *
#      items_per_thread (K0's block offset shift: 2^14 for int/int, 2^13 for
#      the others), blocks = ceil(size / items_per_block), full_blocks =
#      blocks, or blocks - 1 when the last is partial; the offsets
#      (256 * ceil((end_bit - begin_bit) / 8) size_t counters) memset to 0
#      before the launch (hipMemsetAsync); grid blocks x block_size (the
#      metadata's max_flat_workgroup_size). The configs differ per target:
#      gfx942 (942) int/int 1024 x 16, int/long 1024 x 8, long/int 512 x 16,
#      long/long 1024 x 8; gfx90a (910) int keys 512 x 16, long keys
#      1024 x 6 (K0's block offsets: shifts by 14 and 13, multiples of
#      0x1800). rocSPARSE sorts indices with begin_bit 0 and
#      end_bit the bits of the largest index, or all of the key's bits.
#      Only the trampoline of the device's target_arch has code (942 on
#      gfx942, 910 on gfx90a; the others are __builtin_unreachable()).
ONESWEEP_NS = '_ZN7rocprim17ROCPRIM_400200_NS6detail17trampoline_kernelINS1_34wrapped_radix_sort_onesweep_configINS0_14default_configE'

def onesweep_histogram(tag, kv, mangled_tail, key_size, arch, block, ipb):
    match = ('^' + ONESWEEP_NS + kv + f'EELNS1_11target_archE{arch}E'
             + esc(mangled_tail) + '$')
    key_bits = 8 * key_size
    for v, (size, end_bit) in enumerate([(2 * ipb + 1000, key_bits),
                                          (2 * ipb, 17),
                                          (1000, 20),
                                          (ipb - 1, key_bits)]):
        blocks = -(-size // ipb)
        full = blocks if size % ipb == 0 else blocks - 1
        bins = 256 * (-(-end_bit // 8))
        closure = (struct.pack('<QQQQ', 0, 0, size, full) + bytes(4)
                   + struct.pack('<IIxxxx', 0, end_bit)).hex()
        args = [{'bytes': closure,
                 'pointers': [{'offset': 0, 'to': 'keys'},
                              {'offset': 8, 'to': 'digit_offsets'}]}]
        regions = {'keys': {'buffer_size': size * key_size,
                            'fill': f'random:{171 + v}', 'readonly': True},
                   'digit_offsets': {'buffer_size': bins * 8, 'fill': 'zero'}}
        about = (f'onesweep histogram pass of a radix sort of {size} {key_size * 8}-bit keys '
                 f'(random bits) over bits [0, {end_bit}): {blocks} block(s) of {ipb} keys, '
                 f'{full} full; {bins} zeroed size_t digit counters; the closure '
                 f'{{keys, digit_offsets, size, full_blocks, decomposer, begin_bit, end_bit}} '
                 f'with keys and digit_offsets extra regions; grid {blocks} x {block} '
                 f'(target_arch {arch})')
        write('onesweep', f'onesweep_histogram_{arch}_{tag}_{v}', match, about, [blocks], [block],
              args, regions=regions)

_hist = 'IS4_Lb0E{}mNS0_19identity_decomposerEEE10hipError_tT1_T2_PT3_{}_jT4_jjP12ihipStream_tbEUlT_E_NS1_45radix_sort_onesweep_histogram_config_selectorEEEv{}_'
for arch, cfg in ((942, {'ii': (1024, 16384), 'il': (1024, 8192), 'li': (512, 8192), 'll': (1024, 8192)}),
                  (910, {'ii': (512, 8192), 'il': (512, 8192), 'li': (1024, 6144), 'll': (1024, 6144)})):
    for kv, vals, (sd, sb) in (('ii', 'PiS8_', ('SD', 'SB')), ('il', 'PiPl', ('SE', 'SC')),
                                ('li', 'PlPi', ('SE', 'SC')), ('ll', 'PlS8_', ('SD', 'SB'))):
        onesweep_histogram(kv, kv, 'ZNS1_34radix_sort_onesweep_global_offsets' + _hist.format(vals, sd, sb),
                           4 if kv[0] == 'i' else 8, arch, *cfg[kv])

# std::mt19937_64, to know on the host the bytes of a "random:SEED" fill
# (lib/Verify/Spec.cpp: one draw per byte, its low byte).
def mt19937_64_bytes(seed, n):
    M64 = (1 << 64) - 1
    mt = [seed & M64]
    for i in range(1, 312):
        mt.append((6364136223846793005 * (mt[-1] ^ (mt[-1] >> 62)) + i) & M64)
    out, idx = bytearray(), 312
    while len(out) < n:
        if idx >= 312:
            for i in range(312):
                x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
                mt[i] = mt[(i + 156) % 312] ^ (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
            idx = 0
        x = mt[idx]
        idx += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        out.append(x & 0xff)
    return bytes(out)

# ---- the onesweep iteration pass: lambda #1 of the lambda(auto, auto, auto,
#      auto) that radix_sort_onesweep_iteration passes per input/output pair
#      (block_id_wrapper<unsigned, false>: the block id is the workgroup id;
#      <unsigned, true>: ordered block ids from an atomic counter). Its
#      88-byte closure, as K0 reads it (s_load 0x0 x8, 0x20, 0x28 x4, 0x38
#      x2, 0x44 x4, and 0x50 x2 with Lb1): keys_input 0, keys_output 8,
#      values_input 16, values_output 24, size (u32) 32, digit offsets in 40
#      and out 48 (size_t*), lookback states 56 (u32 each, 256 a block,
#      zeroed by the host's hipMemsetAsync), the decomposer 64, bit 68,
#      current_radix_bits 72, full_blocks 76, and with Lb1 the block id
#      counter (u32*, zeroed) at 80. The digit offsets in are what the
#      histogram and scan passes leave: per digit of the place at `bit`
#      (keys encoded with the sign bit flipped), the number of keys with a
#      smaller digit, computed here from the keys' "random:SEED" bytes.
#      Grid and items per block as for the histogram pass.
def onesweep_iteration(kv, arch, lb, block, ipb):
    ksz = 4 if kv[0] == 'i' else 8
    vsz = 4 if kv[1] == 'i' else 8
    types = {'ii': 'PiS8_S8_S8_', 'il': 'PiS8_PlS9_', 'li': 'PlS8_PiS9_', 'll': 'PlS8_S8_S8_'}[kv]
    match = ('^' + ONESWEEP_NS + kv + f'EELNS1_11target_archE{arch}E'
             + 'ZZNS1_29radix_sort_onesweep_iterationIS4_Lb0E' + types
             + f'mNS0_19identity_decomposerENS1_16block_id_wrapperIjLb{lb}EEEEE10hipError_t')
    kbits = 8 * ksz
    # One block each: with more, block b spins on the lookback states of the
    # blocks before it (relaxed atomic loads and stores, sc1), which the
    # emulator reports as a race between workgroups (docs/emulator.md, "Not
    # yet modelled": release/acquire between workgroups), so K0 fails.
    for v, (size, bit, end_bit) in enumerate([(ipb, 8, 17),
                                               (1000, kbits - 8, kbits),
                                               (ipb - 3, 0, kbits)]):
        crb = min(8, end_bit - bit)
        blocks = -(-size // ipb)
        full = blocks if size % ipb == 0 else blocks - 1
        seed = 181 + v
        raw = mt19937_64_bytes(seed, size * ksz)
        counts = [0] * 256
        for k in range(size):
            enc = int.from_bytes(raw[k * ksz:(k + 1) * ksz], 'little') ^ (1 << (kbits - 1))
            counts[(enc >> bit) & ((1 << crb) - 1)] += 1
        offsets, acc = [], 0
        for c in counts:
            offsets.append(acc)
            acc += c
        closure = (bytes(32) + struct.pack('<Ixxxx', size) + bytes(24)
                   + struct.pack('<BxxxIII', 0, bit, crb, full) + bytes(8)).hex()
        ptrs = [{'offset': o, 'to': t} for o, t in
                ((0, 'keys_in'), (8, 'keys_out'), (16, 'values_in'), (24, 'values_out'),
                 (40, 'digit_offsets_in'), (48, 'digit_offsets_out'), (56, 'lookback'))]
        regions = {'keys_in': {'buffer_size': size * ksz, 'fill': f'random:{seed}', 'readonly': True},
                   'keys_out': {'buffer_size': size * ksz, 'fill': 'zero'},
                   'values_in': {'buffer_size': size * vsz, 'fill': f'random:{seed + 100}', 'readonly': True},
                   'values_out': {'buffer_size': size * vsz, 'fill': 'zero'},
                   'digit_offsets_in': {'buffer_size': 256 * 8, 'fill': 'zero', 'readonly': True,
                                        'patch': [{'offset': 0, 'bytes': struct.pack('<256Q', *offsets).hex()}]},
                   'digit_offsets_out': {'buffer_size': 256 * 8, 'fill': 'zero'},
                   'lookback': {'buffer_size': 256 * blocks * 4, 'fill': 'zero'}}
        if lb:
            ptrs.append({'offset': 80, 'to': 'block_id'})
            regions['block_id'] = {'buffer_size': 4, 'fill': 'zero'}
        args = [{'bytes': closure, 'pointers': ptrs}]
        about = (f'onesweep iteration pass (pairs, {kbits}-bit keys, {vsz * 8}-bit values) of {size} '
                 f'random keys at bit {bit}, {crb} radix bits (end_bit {end_bit}): {blocks} block(s) '
                 f'of {ipb} keys, {full} full; digit offsets in = the exclusive scan of the place\'s '
                 f'digit counts (host-computed), lookback states zeroed'
                 f'{", ordered block ids from a zeroed counter" if lb else ""}; '
                 f'grid {blocks} x {block} (target_arch {arch})')
        write('onesweep', f'onesweep_iteration_{arch}_{kv}_lb{lb}_{v}', match, about,
              [blocks], [block], args, regions=regions)

# gfx942 only: gfx90a's (910) iteration trampolines scatter a block's keys
# through LDS in windows of 2048 and store every key outside the window to
# one junk slot (min(rank - window, 2048)), so lanes of one ds_write_b32
# store different keys at one address, which the emulator refuses (K0
# fails on every launch; docs/WritingPasses.md).
for kv, cfg in {'ii': (1024, 16384), 'il': (1024, 8192), 'li': (512, 8192), 'll': (1024, 8192)}.items():
    for lb in (0, 1):
        onesweep_iteration(kv, 942, lb, *cfg)
