"""Temporaries of hot loops (issue 15, allocation-free hot paths).

np.sum / np.prod / np.min / np.max / np.mean / np.any / np.all of an array expression, and the
methods e.sum() ... e.all(), fold the expression's elements as its loop makes them
(typer_arrexpr.c: ty_arrexpr_fold), so no temporary array is allocated; the answers, including
their rounding, are those of summing the array the expression would make (tests/lang/
fused_reductions.py compares them with Numba's).  Arrays compiled code does make come from
malloc, with the data padded to 64 bytes (codegen/refs.c): glibc's aligned_alloc has no
per-thread cache and cost ~100 ns a block, which a temporary made per element of a loop paid."""
import functools
import operator
import re

import numpy as np

import numjit


@numjit.njit
def sum_of_expr(a, b):
    return np.sum(a * b + 1.0), np.prod(a - b)


@numjit.njit
def sum_of_named(a, b):
    t = a * b + 1.0
    return np.sum(t)


@numjit.njit
def kde(x, points, bw):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        d = -(x[i] - points) ** 2 / (2.0 * bw ** 2)
        m = np.max(d)
        out[i] = np.exp(m) * np.sum(np.exp(d - m))
    return out


@numjit.njit
def other_reductions(a, b):
    return (np.min(a * b), np.max(a - b), np.amin(a + b), np.amax(a / 2.0), np.mean(a * b),
            np.any(a > b), np.all(a < b + 1.0))


@numjit.njit
def methods(a, b):
    return (a * b).min(), (a - b).max(), (a + b).mean(), (a * 2.0).sum(), (a > b).any()


@numjit.njit
def min_of_named(a, b):
    t = a * b
    return t.min()


@numjit.njit
def make(n):
    return np.arange(n) * 1.0


def calls(fn):
    ir = next(iter(fn.inspect_llvm().values()))
    return set(re.findall(r"call [^@(]*@([\w.]+)\(", ir))


def test_sum_of_an_expression_allocates_nothing():
    a = np.linspace(0.0, 1.0, 37)
    b = np.cos(a)
    s, p = sum_of_expr(a, b)
    # Numba's sums are sequential (NumPy's are pairwise, and Python 3.12's sum() compensates):
    # the same additions in the same order
    assert s == functools.reduce(operator.add, (a * b + 1.0).tolist(), 0.0)
    assert p == np.prod(a - b)
    assert "malloc" not in calls(sum_of_expr)
    # a named temporary is still made (it could be used again): the check above can fail
    assert sum_of_named(a, b) == s
    assert "malloc" in calls(sum_of_named)


def test_kde_makes_one_temporary_per_element():
    x = np.linspace(-2.0, 2.0, 11)
    pts = np.array([-1.0, 0.25, 1.5])
    want = [np.exp((-(v - pts) ** 2 / 0.5).max()) * np.sum(np.exp(-(v - pts) ** 2 / 0.5
                                                                 - (-(v - pts) ** 2 / 0.5).max()))
            for v in x]
    np.testing.assert_allclose(kde(x, pts, 0.5), want, rtol=1e-14)
    ir = next(iter(kde.inspect_llvm().values()))
    # d and the result; np.exp(d - m) folds into the sum
    assert len(re.findall(r"call [^@(]*@(?:malloc|aligned_alloc)\(", ir)) <= 2, ir


def test_small_arrays_are_64_byte_aligned_and_come_from_malloc():
    for n in range(0, 41):
        r = make(n)
        assert r.ctypes.data % 64 == 0, n
        assert r.tolist() == [float(i) for i in range(n)]
    assert "aligned_alloc" not in calls(make) and "malloc" in calls(make)


def test_min_max_mean_any_all_of_an_expression_allocate_nothing():
    a = np.linspace(-1.0, 1.0, 41)
    b = np.cos(a * 3.0)
    want = (np.min(a * b), np.max(a - b), np.min(a + b), np.max(a / 2.0),
            functools.reduce(operator.add, (a * b).tolist(), 0.0) / a.size,
            bool(np.any(a > b)), bool(np.all(a < b + 1.0)))
    assert other_reductions(a, b) == want
    seq = lambda x: functools.reduce(operator.add, x.tolist(), 0.0)  # noqa: E731
    assert methods(a, b) == (want[0], want[1], seq(a + b) / a.size, seq(a * 2.0), want[5])
    for f in (other_reductions, methods):
        assert "malloc" not in calls(f), f
    # a reduction of a named array is not fused: the check above can fail
    assert min_of_named(a, b) == want[0]
    assert "malloc" in calls(min_of_named)
