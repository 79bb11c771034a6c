"""Arrays that @njit functions create: memory stays bounded when a loop allocates a temporary
per iteration or when results are dropped, a returned array owns its memory (no copy) and
outlives later calls, views keep it alive, arguments come back as themselves, and the errors
a user can cause are the ones Numba gives."""
import gc
import os

import numpy as np
import pytest

from numjit import njit
from numjit.errors import TypingError


@njit
def loop_temps(n):
    s = 0.0
    for i in range(n):
        t = np.zeros(3)
        t[1] = i
        s += t[1]
    return s


@njit
def make(n, v):
    a = np.empty(n)
    for i in range(n):
        a[i] = v + i
    return a


@njit
def make_pair(n):
    a = make(n, 1.0)
    return a, np.ones((n, 2), dtype=np.float32), a.shape[0]


@njit
def same(a):
    return a


@njit
def first(a):
    return a[0]


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_loop_temporaries_do_not_grow_memory():
    loop_temps(10)  # compile first
    before = rss_bytes()
    for _ in range(5):
        assert loop_temps(10**6) == sum(range(10**6))
    grown = rss_bytes() - before
    # 5 million arrays of 3 float64 (plus headers) would be over 500 MB if leaked
    assert grown < 50 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"


def test_dropped_results_are_freed():
    make(10, 0.0)
    gc.collect()
    before = rss_bytes()
    for i in range(2000):
        a = make(100_000, float(i))  # 800 kB each: 1.6 GB if none were freed
        assert a[-1] == i + 99_999
        del a
    grown = rss_bytes() - before
    assert grown < 100 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"


def test_returned_array_owns_its_memory_and_outlives_calls():
    keep = make(5, 7.0)
    assert keep.dtype == np.float64 and keep.shape == (5,) and keep.flags.c_contiguous
    assert keep.flags.writeable and keep.flags.owndata is False  # its base owns the memory
    assert keep.ctypes.data % 64 == 0
    for i in range(200):
        make(1000, float(i))
    assert keep.tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]
    keep[0] = -1.0  # writable
    view = keep[1:3]
    del keep
    gc.collect()
    for i in range(200):
        make(1000, float(i))
    assert view.tolist() == [8.0, 9.0]  # the view keeps the memory alive


def test_tuples_with_arrays():
    a, b, n = make_pair(3)
    assert n == 3
    assert a.tolist() == [1.0, 2.0, 3.0]
    assert b.dtype == np.float32 and b.shape == (3, 2) and b.sum() == 6.0


def test_argument_returned_is_the_same_object():
    x = np.arange(4.0)
    assert same(x) is x
    f = np.asfortranarray(np.ones((2, 3)))
    assert same(f) is f
    v = x[::2]
    r = same(v)
    assert r is v


def test_returned_array_passed_back_in():
    a = make(4, 1.0)
    assert first(a) == 1.0
    b = same(a)
    assert b is a


def test_errors_like_numba(make_module):
    mod = make_module("alloc_errors", """
        import numpy as np
        from numjit import njit

        @njit
        def neg(n):
            return np.zeros((2, n))

        @njit
        def float_shape(x):
            return np.empty(x)

        @njit
        def bad_step(n):
            return np.arange(0, n, 0)

        @njit
        def unsigned(n):
            return np.arange(n)
        """)
    with pytest.raises(ValueError, match="negative dimensions not allowed"):
        mod.neg(-1)
    with pytest.raises(TypingError, match=r"alloc_errors.py:11:\d+: error: the shape of np.empty"):
        mod.float_shape(3.0)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        mod.bad_step(3)
    with pytest.raises(TypingError, match="unsigned"):
        mod.unsigned(np.uint8(3))
    with pytest.raises(ValueError, match="array is too big"):  # 2**63 elements: Numba's ValueError
        mod.neg(2**62)
    with pytest.raises(MemoryError):  # 2**58 float64 fit in int64 but not in memory
        mod.neg(2**57)
