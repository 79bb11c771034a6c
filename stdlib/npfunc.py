# npfunc.py — the loops of NumPy's functions np.interp, np.histogram, np.diff, np.bincount,
# np.digitize, np.roll, np.repeat, np.triu/np.tril, np.count_nonzero, np.array_equal,
# np.around and np.ptp, in numjit's own language, computing what Numba 0.56 computes
# (numba/np/arraymath.py, arrayobj.py): the same comparisons, the same arithmetic in the same
# order and types, so that results agree bit for bit.
#
# typer/typer_npfunc.c types each call, checks its arguments (errors located at the user's call),
# allocates the result arrays with Numba's dtypes and shapes, raises the run-time errors (these
# functions return a status where Numba raises) and calls the functions below, which are
# specialized for the argument types as any function of the module.  Arrays of any layout and
# number of dimensions are read in C order through ravel(); results are new C arrays, written
# through a 1-d reshape.
import math as _nj_math
import random as _nj_pyrandom
import numpy as _nj_np


# ---- np.interp ------------------------------------------------------------------------------
# NumPy's binary search with a guess (compiled_base.c), whose answer for unsorted or repeated
# sample points depends on the guess: the index j with xp[j] <= key < xp[j + 1], -1 left of
# xp[0], n right of xp[n - 1].
def _nj_np_interp_find(key, xp, n, guess):
    if key > xp[n - 1]:
        return n
    if key < xp[0]:
        return -1
    if n <= 4:                                # a short array: walk it
        k = 1
        while k < n and key >= xp[k]:
            k += 1
        return k - 1
    g = min(max(guess, 1), n - 3)
    lo = 0
    hi = n
    if key < xp[g]:
        if key >= xp[g - 1]:
            return g - 1
        hi = g - 1
        if g > 8 and key >= xp[g - 8]:        # stay within the 8 entries likely in cache
            lo = g - 8
    else:
        if key < xp[g + 1]:
            return g
        if key < xp[g + 2]:
            return g + 1
        lo = g + 2
        if g < n - 9 and key < xp[g + 8]:
            hi = g + 8
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if key >= xp[mid]:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


# x: the points (any array), xp and fp float64 (1-d, at least 2 of them), out float64 of x's
# shape.  NaN where the slope gives NaN is retried from the right end, as NumPy >= 1.17.
def _nj_np_interp(x, xp, fp, out):
    xs = x.ravel()
    o = out.reshape(out.size)
    n = xp.shape[0]
    if n == 1:                                # fp[0] everywhere, NaNs too
        return _nj_np_fill(out, fp[0])
    j = 0
    for i in range(xs.size):
        v = xs[i]
        if _nj_math.isnan(v):
            o[i] = v
            continue
        j = _nj_np_interp_find(v, xp, n, j)
        if j == -1:
            o[i] = fp[0]
        elif j >= n - 1:
            o[i] = fp[n - 1]
        elif xp[j] == v:
            o[i] = fp[j]
        else:
            s = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
            r = s * (v - xp[j]) + fp[j]
            if _nj_math.isnan(r):
                r = s * (v - xp[j + 1]) + fp[j + 1]
                if _nj_math.isnan(r) and fp[j] == fp[j + 1]:
                    r = fp[j]
            o[i] = r
    return 0


# The same with complex fp (xp and x as given), each part interpolated on its own; out
# complex128.
def _nj_np_interp_c(x, xp, fp, out):
    xs = x.ravel()
    o = out.reshape(out.size)
    n = xp.shape[0]
    if n == 1:
        return _nj_np_fill(out, fp[0])
    j = 0
    for i in range(xs.size):
        v = xs[i]
        if _nj_math.isnan(v):
            o[i] = v + 1j * 0.0
            continue
        j = _nj_np_interp_find(v, xp, n, j)
        if j == -1:
            o[i] = fp[0]
        elif j >= n - 1:
            o[i] = fp[n - 1]
        elif xp[j] == v:
            o[i] = fp[j]
        else:
            inv = 1 / (xp[j + 1] - xp[j])
            sr = (fp[j + 1].real - fp[j].real) * inv
            si = (fp[j + 1].imag - fp[j].imag) * inv
            s = sr + 1j * si
            re = s.real * (v - xp[j]) + fp[j].real
            if _nj_math.isnan(re):
                re = s.real * (v - xp[j + 1]) + fp[j + 1].real
                if _nj_math.isnan(re) and fp[j].real == fp[j + 1].real:
                    re = fp[j].real
            im = s.imag * (v - xp[j]) + fp[j].imag
            if _nj_math.isnan(im):
                im = s.imag * (v - xp[j + 1]) + fp[j + 1].imag
                if _nj_math.isnan(im) and fp[j].imag == fp[j + 1].imag:
                    im = fp[j].imag
            o[i] = re + 1j * im
    return 0


# out (of any shape) filled with v
def _nj_np_fill(out, v):
    o = out.reshape(out.size)
    for i in range(o.size):
        o[i] = v
    return 0


# ---- np.histogram ---------------------------------------------------------------------------
# The smallest and the largest element (NaNs skipped; inf and -inf for an empty array).
def _nj_np_hist_min(a):
    f = a.ravel()
    lo = _nj_math.inf
    for i in range(f.size):
        if lo > f[i]:
            lo = f[i]
    return lo


def _nj_np_hist_max(a):
    f = a.ravel()
    hi = -_nj_math.inf
    for i in range(f.size):
        if hi < f[i]:
            hi = f[i]
    return hi


# 1: nbins is not positive, 2: not lo <= hi (NaN too), else 0
def _nj_np_hist_check(nbins, lo, hi):
    if nbins <= 0:
        return 1
    if not lo <= hi:
        return 2
    return 0


# Counts of a's elements in nbins equal bins over [lo, hi] (hi falls in the last one) into
# hist (zeros); returns the nbins + 1 edges.
def _nj_np_hist_uniform(a, nbins, lo, hi, hist):
    f = a.ravel()
    for k in range(nbins):
        hist[k] = 0
    if hi > lo:
        ratio = nbins / (hi - lo)
        for i in range(f.size):
            v = f[i]
            b = (v - lo) * ratio
            if b >= 0 and b < nbins:          # floor(b) in [0, nbins): also false for NaN
                hist[int(_nj_math.floor(b))] += 1
            elif v == hi:
                hist[nbins - 1] += 1
    return _nj_np.linspace(lo, hi, nbins + 1)


# bins increase (NaNs do not): 1, else 0
def _nj_np_hist_edges_ok(bins):
    for i in range(bins.shape[0] - 1):
        if not bins[i] <= bins[i + 1]:
            return 0
    return 1


# Counts of a's elements in the bins between the edges (the last bin closed) into hist, by
# bisection in edges[:-1].
def _nj_np_hist_edges(a, bins, hist):
    nb = hist.shape[0]
    for b in range(nb):
        hist[b] = 0
    if nb > 0:
        f = a.ravel()
        lo0 = bins[0]
        hi0 = bins[nb]
        for i in range(f.size):
            v = f[i]
            if not (lo0 <= v and v <= hi0):
                continue
            lo = 0
            hi = nb - 1
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if v < bins[mid]:
                    hi = mid - 1
                else:
                    lo = mid
            hist[lo] += 1
    return 0


# ---- np.diff --------------------------------------------------------------------------------
# The n-th differences of each row (last axis, `size` long) of a (C contiguous) into out, in
# a's dtype (each step stored back, wrapping as Numba's scratch row does).
def _nj_np_diff(a, n, size, out):
    f = a.ravel()
    o = out.reshape(out.size)
    if n == 0:
        for i in range(f.size):
            o[i] = f[i]
        return 0
    if o.size == 0:
        return 0
    w = _nj_np.empty_like(f[0:size])
    m = size - n
    for r in range(f.size // size):
        base = r * size
        for i in range(size - 1):
            w[i] = f[base + i + 1] - f[base + i]
        for k in range(1, n):
            for i in range(size - k - 1):
                w[i] = w[i + 1] - w[i]
        for i in range(m):
            o[r * m + i] = w[i]
    return 0


# ---- np.trapz ---------------------------------------------------------------------------------
# Numba's np.trapz of a 1-d y: the neighbours' averages ((y[i+1] + y[i]) in y's dtype, then
# / 2.0) times the spacing, summed in order.  Numba multiplies by np.asarray(dx), a 0-d array,
# so the product has the two dtypes' common type (float32 y and the default dx 1.0 give
# float64): a 1-element array of dx broadcast does the same.
def _nj_np_trapz_dx(y, dx):
    y_ave = (y[1:] + y[:-1]) / 2.0
    return _nj_np.sum(_nj_np.full(1, dx) * y_ave, -1)


def _nj_np_trapz_x(y, x):
    y_ave = (y[1:] + y[:-1]) / 2.0
    return _nj_np.sum(_nj_np.diff(x) * y_ave, -1)


# ---- np.bincount ----------------------------------------------------------------------------
# The length of the result: max(max(a) + 1, minlength); -1 when an element after the first is
# negative (Numba does not check the first).
def _nj_np_bincount_len(a, minlength):
    n = a.shape[0]
    top = -1
    if n > 0:
        top = a[0]
    for i in range(1, n):
        if a[i] < 0:
            return -1
        top = max(top, a[i])
    return max(top + 1, minlength)


def _nj_np_bincount(a, out):
    for i in range(out.shape[0]):
        out[i] = 0
    for i in range(a.shape[0]):
        if a[i] >= -out.shape[0]:             # a negative a[0] wraps as in Numba, never past
            out[a[i]] += 1
    return 0


def _nj_np_bincount_w(a, w, out):
    for i in range(out.shape[0]):
        out[i] = 0.0
    for i in range(a.shape[0]):
        if a[i] >= -out.shape[0]:             # a negative a[0] wraps as in Numba, never past
            out[a[i]] += w[i]
    return 0


# ---- np.digitize ----------------------------------------------------------------------------
# 1: bins increase, 0: they decrease, -1: neither (equal neighbours keep both)
def _nj_np_digitize_dir(bins):
    up = True
    down = True
    for i in range(1, bins.shape[0]):
        up = up and not bins[i - 1] > bins[i]
        down = down and not bins[i - 1] < bins[i]
        if not up and not down:
            return -1
    if up:
        return 1
    return 0


def _nj_np_digitize_up(v, bins, right):
    n = bins.shape[0]
    if _nj_math.isnan(v):
        if not right:
            return n
        for i in range(n, 0, -1):             # after the last bin that is not NaN
            if not _nj_math.isnan(bins[i - 1]):
                return i
        return 0
    lo = 0
    hi = n
    while hi > lo:
        mid = (lo + hi) >> 1
        if bins[mid] < v or (not right and bins[mid] == v):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _nj_np_digitize_down(v, bins, right):
    n = bins.shape[0]
    if _nj_math.isnan(v):
        if not right:
            return 0
        for i in range(n):                    # before the first bin that is not NaN
            if not _nj_math.isnan(bins[i]):
                return i
        return n
    lo = 0
    hi = n
    while hi > lo:
        mid = (lo + hi) >> 1
        if bins[mid] < v or (not right and bins[mid] == v):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _nj_np_digitize(x, bins, right, up, out):
    f = x.ravel()
    o = out.reshape(out.size)
    for i in range(f.size):
        if up == 1:
            o[i] = _nj_np_digitize_up(f[i], bins, right)
        else:
            o[i] = _nj_np_digitize_down(f[i], bins, right)
    return 0


# ---- np.roll, np.repeat ---------------------------------------------------------------------
def _nj_np_roll(a, shift, out):
    f = a.ravel()
    o = out.reshape(out.size)
    n = f.size
    for i in range(n):
        o[(i + shift) % n] = f[i]
    return 0


# The length of a repeated r[i] times each (r[0] times all when r has one element), -1 when a
# count is negative, -2 when r and a have different lengths.
def _nj_np_repeat_total(a, r):
    n = r.shape[0]
    if n == 1:
        if r[0] < 0:
            return -1
        return a.size * r[0]
    t = 0
    for i in range(n):
        if r[i] < 0:
            return -1
        t += r[i]
    if n != a.size:
        return -2
    return t


def _nj_np_repeat(a, k, out):
    f = a.ravel()
    at = 0
    for i in range(f.size):
        for j in range(k):
            out[at] = f[i]
            at += 1
    return 0


def _nj_np_repeat_each(a, r, out):
    f = a.ravel()
    if r.shape[0] == 1:
        return _nj_np_repeat(a, r[0], out)
    at = 0
    for i in range(f.size):
        for j in range(r[i]):
            out[at] = f[i]
            at += 1
    return 0


# ---- np.triu, np.tril -----------------------------------------------------------------------
# a's matrices (rows x cols; a 1-d a is every row of a square one) into out, zero below the
# k-th diagonal (upper) or above it.
def _nj_np_trilu(a, k, rows, cols, upper, square, out):
    f = a.ravel()
    o = out.reshape(out.size)
    at = 0
    for m in range(out.size // max(rows * cols, 1)):
        for i in range(rows):
            for j in range(cols):
                keep = j - i <= k
                if upper:
                    keep = j - i >= k
                src = at
                if square:
                    src = j
                if keep:
                    o[at] = f[src]
                else:
                    o[at] = 0
                at += 1
    return 0


# ---- np.count_nonzero, np.array_equal -------------------------------------------------------
def _nj_np_count_nonzero(a):
    f = a.ravel()
    c = 0
    for i in range(f.size):
        if f[i] != 0:
            c += 1
    return c


def _nj_np_eq(a, b):
    return a == b


def _nj_np_array_equal(a, b, same):
    if not same:
        return False
    f = a.ravel()
    g = b.ravel()
    for i in range(f.size):
        if not f[i] == g[i]:
            return False
    return True


# ---- np.around ------------------------------------------------------------------------------
# x (float64) rounded to nd decimals, halves to even, as Numba's np.round(x, nd).
def _nj_np_round_nd(x, nd):
    if _nj_math.isinf(x) or _nj_math.isnan(x):
        return x
    if nd >= 0:
        p2 = 1.0
        if nd > 22:
            p1 = 10.0 ** (nd - 22)
            p2 = 1e22
        else:
            p1 = 10.0 ** nd
        y = (x * p1) * p2
        if _nj_math.isinf(y):
            return x
        return (_nj_np.rint(y) / p2) / p1
    p = 10.0 ** (-nd)
    return _nj_np.rint(x / p) * p


# ---- np.ptp ---------------------------------------------------------------------------------
# Numba's np_ptp: the largest value less the smallest, each kept as Numba keeps it (a value
# replaces the maximum only when greater), in the arithmetic's type.  A float array's first nan
# is the answer, np.nan (a float64: a float32 array's range is a float64, as in Numba).  The
# integer version keeps Numba's early return that never happens (an int64 0), whose type joins
# the result's as Numba's does.  lib/ndarray.c checks the array and raises for an empty one.
def _nj_np_ptp_f(a):
    f = a.ravel()
    lo = f[0]
    hi = f[0]
    for i in range(f.size):
        v = f[i]
        if _nj_np.isnan(v):
            return _nj_np.nan
        if v > hi:
            hi = v
        if v < lo:
            lo = v
    return hi - lo


def _nj_np_ptp_i(a):
    f = a.ravel()
    lo = f[0]
    hi = f[0]
    for i in range(f.size):
        v = f[i]
        if v > hi:
            hi = v
        if v < lo:
            lo = v
    if f.size < 0:
        return 0
    return hi - lo


# ---- np.allclose ----------------------------------------------------------------------------
# Numba's _allclose_scalars and its four forms (arraymath.py np_allclose): each pair of
# elements, in C order over the broadcast shape, is close when both are nan (and equal_nan),
# equal when either is infinite, else |a - b| <= atol + rtol * |b * 1.0|, in the arithmetic of
# the elements' own types.  The arrays are broadcast by adding zeros of the other's shape (a
# shape that does not broadcast raises ValueError there, as Numba's np.broadcast_arrays does).
def _nj_np_allclose1(a_v, b_v, rtol, atol, equal_nan):
    a_v_isnan = _nj_np.isnan(a_v)
    b_v_isnan = _nj_np.isnan(b_v)
    if (not a_v_isnan and b_v_isnan) or (a_v_isnan and not b_v_isnan):
        return False
    if a_v_isnan and b_v_isnan:
        if not equal_nan:
            return False
    else:
        if _nj_np.isinf(a_v) or _nj_np.isinf(b_v):
            return a_v == b_v
        if _nj_np.abs(a_v - b_v) > atol + rtol * _nj_np.abs(b_v * 1.0):
            return False
    return True


def _nj_np_allclose_ss(a, b, rtol, atol, equal_nan):
    return _nj_np_allclose1(a, b, rtol, atol, equal_nan)


def _nj_np_allclose_as(a, b, rtol, atol, equal_nan):
    f = a.ravel()
    for i in range(f.size):
        if not _nj_np_allclose1(f[i], b, rtol, atol, equal_nan):
            return False
    return True


def _nj_np_allclose_sa(a, b, rtol, atol, equal_nan):
    f = b.ravel()
    for i in range(f.size):
        if not _nj_np_allclose1(a, f[i], rtol, atol, equal_nan):
            return False
    return True


def _nj_np_allclose_aa(a, b, rtol, atol, equal_nan):
    fa = (a + _nj_np.zeros(b.shape, a.dtype)).ravel()
    fb = (b + _nj_np.zeros(a.shape, b.dtype)).ravel()
    for i in range(fa.size):
        if not _nj_np_allclose1(fa[i], fb[i], rtol, atol, equal_nan):
            return False
    return True


# ---- np.convolve, np.correlate --------------------------------------------------------------
# Numba's _np_correlate_core (arraymath.py, after NumPy's _pyarray_correlate): the result, of the
# two dtypes' promoted type, is written from one end (direction 1) or the other (-1), each
# element an inner product of overlapping slices, summed from an int64 0 in index order.  full:
# every overlap (convolve); else only whole overlaps ('valid', correlate).  lib/ndarray.c
# checks the arguments and raises for an empty one.
def _nj_np_innerprod(a, b):
    acc = 0
    for i in range(len(a)):
        acc = acc + a[i] * b[i]
    return acc


def _nj_np_correlate_core(ap1, ap2, full, direction):
    n1 = len(ap1)
    n2 = len(ap2)
    length = n1
    n = n2
    n_left = 0
    n_right = 0
    if full:
        n_right = n - 1
        n_left = n - 1
        length = length + n - 1
    else:
        length = length - n + 1
    ret = _nj_np.zeros(length, (ap1[:1] * ap2[:1]).dtype)
    idx = 0
    inc = 1
    if direction == -1:
        idx = length - 1
        inc = -1
    for i in range(n_left):
        ret[idx] = _nj_np_innerprod(ap1[:idx + 1], ap2[-(idx + 1):])
        idx = idx + inc
    for i in range(n1 - n2 + 1):
        ret[idx] = _nj_np_innerprod(ap1[i:i + n2], ap2)
        idx = idx + inc
    for i in range(n_right, 0, -1):
        ret[idx] = _nj_np_innerprod(ap1[-i:], ap2[:i])
        idx = idx + inc
    return ret


def _nj_np_convolve(a, v):
    if len(a) < len(v):
        return _nj_np_correlate_core(v, a[::-1], True, 1)
    return _nj_np_correlate_core(a, v[::-1], True, 1)


def _nj_np_correlate(a, v):
    if len(a) < len(v):
        return _nj_np_correlate_core(v, a, False, -1)
    return _nj_np_correlate_core(a, v, False, 1)


# Numba conjugates a real `a` first, and np.conj of booleans gives int8.
def _nj_np_correlate_bool(a, v):
    return _nj_np_correlate(a.astype(_nj_np.int8), v)


# ---- np.tri ---------------------------------------------------------------------------------
# Numba's _tri_impl: N by M (each floored at 0) float64, ones at and below diagonal k.
def _nj_np_tri_ones(N, M, k):
    n0 = max(0, N)
    n1 = max(0, M)
    out = _nj_np.empty((n0, n1), dtype=_nj_np.float64)
    for i in range(n0):
        m_max = min(max(0, i + k + 1), n1)
        out[i, :m_max] = 1
        out[i, m_max:] = 0
    return out


# ---- np.vander -------------------------------------------------------------------------------
# Numba's _check_vander_params (before the result is allocated), then _np_vander's columns:
# each the previous one times x, from the ones at the left (increasing) or at the right.
def _nj_np_vander_check(x, n):
    if x.ndim > 1:
        raise ValueError('x must be a one-dimensional array or sequence.')
    if n < 0:
        raise ValueError('Negative dimensions are not allowed')


def _nj_np_vander(x, n, increasing, out):
    xv = x.ravel()
    m = out.shape[0]
    if increasing:
        for i in range(n):
            for r in range(m):
                if i == 0:
                    out[r, i] = 1
                else:
                    out[r, i] = xv[r] * out[r, i - 1]
    else:
        for i in range(n - 1, -1, -1):
            for r in range(m):
                if i == n - 1:
                    out[r, i] = 1
                else:
                    out[r, i] = xv[r] * out[r, i + 1]


# ---- np.kron ---------------------------------------------------------------------------------
# Numba's kron_impl: each operand a 2-d array (a scalar in a new 1x1 one, a vector one row),
# then each row of b times each element of a into its block of out (a's dtype: a product that
# does not fit it is cast, as Numba's slice assignment casts); lib/linalg.c shapes the result.
def _nj_np_kron_scalar(x):
    r = _nj_np.empty((1, 1), type(x))
    r[0, 0] = x
    return r


def _nj_np_kron_row(x):
    return x.reshape(1, x.shape[0])


def _nj_np_kron_mat(x):
    return x


def _nj_np_kron(aa, bb, out):
    am = aa.shape[0]
    an = aa.shape[1]
    bm = bb.shape[0]
    bn = bb.shape[1]
    for i in range(am):
        for k in range(bm):
            r = i * bm + k
            for j in range(an):
                c = j * bn
                for q in range(bn):
                    out[r, c + q] = aa[i, j] * bb[k, q]


def _nj_np_kron_flat(c):
    return c.reshape(c.size)


def _nj_np_kron_first(c):
    return c[0]


def _nj_np_kron_like(c, x):
    return c.reshape(x.shape)


# ---- np.linalg.cond and np.linalg.matrix_power --------------------------------------------------
# Numba's loops over its own linear algebra (numba/np/linalg.py cond_impl, matrix_power_impl);
# typer/typer_decomp.c checks the types.  cond: the ratio of the extreme singular values for
# p None (pnone), 2 and -2 (computed in the dtype), else norm(a, p) * norm(inv(a), p); nan is inf.
def _nj_np_linalg_cond(a, p, pnone):
    if pnone or p == 2 or p == -2:
        s = _nj_np.linalg.svd(a, False)[1]
        if pnone or p == 2:
            r = _nj_np.divide(s[0], s[-1])
        else:
            r = _nj_np.divide(s[-1], s[0])
        if _nj_np.isnan(r):
            return _nj_np.inf
        return float(r)
    r2 = _nj_np.linalg.norm(a, p) * _nj_np.linalg.norm(_nj_np.linalg.inv(a), p)
    if _nj_np.isnan(r2):
        return _nj_np.inf
    return r2


# matrix_power: identity for 0, copies for 1 and -1, else repeated squaring with np.dot; every
# result a new C array
def _nj_np_linalg_matrix_power(a, n):
    if n == 0:
        ident = _nj_np.zeros(a.shape, dtype=a.dtype)
        for k in range(min(a.shape[0], a.shape[1])):
            ident[k, k] = 1.0
        return ident
    am = a.shape[1]
    an = a.shape[0]
    if am != an:
        raise ValueError('input must be a square array')
    if am == 0:
        return a.copy()
    e = n
    if n < 0:
        base = _nj_np.linalg.inv(a).copy()
        if n == -1:
            return base
        e = -n
    else:
        base = a.copy()
        if n == 1:
            return base
    if e == 2:
        return _nj_np.dot(base, base)
    if e == 3:
        return _nj_np.dot(_nj_np.dot(base, base), base)
    acc = base
    ret = base
    first = True
    while e != 0:
        if e & 1:
            if first:
                ret = acc
                first = False
            else:
                ret = _nj_np.dot(ret, acc)
        e = e >> 1
        if e != 0:
            acc = _nj_np.dot(acc, acc)
    return ret


# ---- np.linalg.cholesky ----------------------------------------------------------------------
# The lower factor L of a's lower triangle (a = L L^T), column by column in out (a new C array
# of a's shape and dtype, arithmetic in that dtype as LAPACK's xpotrf), the upper triangle zeroed
# as Numba's cho_impl does; 1 when a pivot is not positive (or nan): typer/typer_decomp.c raises
# LinAlgError.
def _nj_np_linalg_cholesky(a, out):
    n = a.shape[0]
    for i in range(n):
        for j in range(n):
            out[i, j] = a[i, j]
    for j in range(n):
        d = out[j, j]
        for k in range(j):
            d -= out[j, k] * out[j, k]
        if not d > 0:
            return 1
        out[j, j] = _nj_math.sqrt(d)
        piv = out[j, j]
        for i in range(j + 1, n):
            s = out[i, j]
            for k in range(j):
                s -= out[i, k] * out[j, k]
            out[i, j] = s / piv
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = 0
    return 0


# ---- np.random.shuffle, random.shuffle, np.random.permutation, np.random.choice -----------------
# Numba's loops (numba/cpython/randomimpl.py), drawing what Numba draws in the same order, so a
# seeded program gets Numba's sequences; typer/typer_random_seq.c checks the arguments.
# Fisher-Yates from the end: element i swapped with one drawn from [0, i].
def _nj_np_random_shuffle(arr):
    i = arr.shape[0] - 1
    while i > 0:
        j = _nj_np.random.randint(i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
        i -= 1
    return 0


def _nj_random_shuffle(arr):
    i = arr.shape[0] - 1
    while i > 0:
        j = _nj_pyrandom.randrange(i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
        i -= 1
    return 0


# the rows of an n-d array, exchanged through copies
def _nj_np_random_shuffle_rows(arr):
    i = arr.shape[0] - 1
    while i > 0:
        j = _nj_np.random.randint(i + 1)
        t = arr[i].copy()
        arr[i] = arr[j]
        arr[j] = t
        i -= 1
    return 0


def _nj_random_shuffle_rows(arr):
    i = arr.shape[0] - 1
    while i > 0:
        j = _nj_pyrandom.randrange(i + 1)
        t = arr[i].copy()
        arr[i] = arr[j]
        arr[j] = t
        i -= 1
    return 0


def _nj_np_random_permutation_n(x):
    y = _nj_np.arange(x)
    _nj_np.random.shuffle(y)
    return y


def _nj_np_random_permutation(x):
    y = x.copy()
    _nj_np.random.shuffle(y)
    return y


# one sample (replace is ignored, as Numba ignores it)
def _nj_np_random_choice1_n(a):
    return _nj_np.random.randint(0, a)


def _nj_np_random_choice1(a):
    return a[_nj_np.random.randint(0, len(a))]


def _nj_np_random_choice_n(a, size, replace):
    out = _nj_np.empty(size, _nj_np.int64)
    flat = out.reshape(out.size)
    if replace:
        for i in range(flat.size):
            flat[i] = _nj_np.random.randint(0, a)
        return out
    if out.size > a:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    permuted = _nj_np.random.permutation(a)
    for i in range(flat.size):
        flat[i] = permuted[i]
    return out


def _nj_np_random_choice(a, size, replace):
    out = _nj_np.empty(size, a.dtype)
    flat = out.reshape(out.size)
    n = len(a)
    if replace:
        for i in range(flat.size):
            flat[i] = a[_nj_np.random.randint(0, n)]
        return out
    if out.size > n:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    permuted = _nj_np.random.permutation(a)
    for i in range(flat.size):
        flat[i] = permuted[i]
    return out


# a.fill(value): every element set to value, converted to a's dtype (Numba's array.fill)
def _nj_ndarray_fill(a, value):
    a[...] = value
