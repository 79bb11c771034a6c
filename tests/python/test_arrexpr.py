"""Whole-array expressions in @njit functions from Python: a loop that builds array
temporaries runs in constant memory, results are new arrays that own their memory, in-place
updates write into the caller's array, and the errors are located (a shape mismatch is a
ValueError at run time, a cast that NumPy's 'same_kind' rule refuses a TypingError)."""
import os

import numpy as np
import pytest

from numjit import njit
from numjit.errors import TypingError


@njit
def expr_loop(a, n):
    s = 0.0
    for i in range(n):
        t = a * i + np.sqrt(a) - np.where(a > 0.5, a, 0.0)
        s += t[0]
    return s


@njit
def rebind_loop(a, n):
    x = a + 0.0
    for i in range(n):
        x = x * 0.5 + a
    return x


@njit
def axpy(x, y):
    return 2.0 * x + y


@njit
def update(a, b):
    a += b
    a[::2] *= 10


@njit
def bad_cast(a):
    a += 1.5
    return a


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_expression_temporaries_do_not_grow_memory():
    a = np.linspace(0.0, 1.0, 1000)
    expr_loop(a, 10)
    before = rss_bytes()
    for _ in range(3):
        # 2 * 10**5 results (and fused operands) of 8 kB each: 1.6 GB per call if leaked
        expr_loop(a, 2 * 10**5)
    grown = rss_bytes() - before
    assert grown < 50 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"


def test_rebinding_frees_the_old_array():
    a = np.ones(10_000)
    rebind_loop(a, 10)
    before = rss_bytes()
    r = rebind_loop(a, 50_000)  # 80 kB per iteration: 4 GB if none were freed
    assert np.allclose(r, 2.0)
    grown = rss_bytes() - before
    assert grown < 50 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"


def test_result_is_a_new_array():
    x = np.arange(5.0)
    y = np.ones(5)
    r = axpy(x, y)
    assert r.flags.c_contiguous and r.flags.writeable and r.dtype == np.float64
    assert not np.shares_memory(r, x) and not np.shares_memory(r, y)
    np.testing.assert_array_equal(r, 2.0 * x + y)
    r32 = axpy(x.astype(np.float32), np.ones(5, np.float32))
    assert r32.dtype == np.float64  # 2.0 is a float64: NumPy's loop for float32 * float64


def test_in_place_writes_into_the_callers_array():
    a = np.arange(6.0)
    update(a, np.ones(6))
    np.testing.assert_array_equal(a, [10.0, 2.0, 30.0, 4.0, 50.0, 6.0])
    m = np.zeros((2, 3))
    update(m[:, 0], np.array([1.0, 2.0]))  # a strided view of the caller's array
    np.testing.assert_array_equal(m[:, 0], [10.0, 2.0])


def test_shape_mismatch_is_a_located_value_error():
    with pytest.raises(ValueError, match=r"test_arrexpr.py:\d+:\d+: .*broadcast"):
        axpy(np.ones(3), np.ones(4))
    # in place: NumPy raises here; Numba 0.56 does not check, numjit raises
    with pytest.raises(ValueError, match="broadcast"):
        update(np.ones(3), np.ones(4))


def test_same_kind_rule():
    with pytest.raises(TypingError, match="same_kind"):
        bad_cast(np.arange(3))
    np.testing.assert_array_equal(bad_cast(np.arange(3.0)), [1.5, 2.5, 3.5])
