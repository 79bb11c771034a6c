"""Parallel loops: prange in @njit(parallel=True) functions runs on the thread pool.

numjit.parfor_stats() says what the runtime did (loops run, loops that used the pool, the last
loop's chunks and distinct threads), so the checks that threads are used are counts, not
timings.  Errors inside a parallel body propagate as the serial loop's would: the raise of the
first iteration in loop order wins, whichever thread saw it first.
"""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import numjit
from numjit import njit, prange
from numjit.errors import TypingError


@njit(parallel=True)
def heavy_sum(a):
    s = 0.0
    for i in prange(a.shape[0]):
        x = a[i]
        s += (x * x + 1.0) ** 0.5
    return s


@njit
def serial_sum(a):
    s = 0.0
    for i in prange(a.shape[0]):
        x = a[i]
        s += (x * x + 1.0) ** 0.5
    return s


@njit(parallel=True)
def fill(out):
    for i in prange(out.shape[0]):
        out[i] = i * 0.5


@njit(parallel=True)
def stepped(lo, hi, step):
    s = 0
    m = -1
    for i in prange(lo, hi, step):
        s += i * i
        m = max(m, i)
    return s, m


@njit(parallel=True, boundscheck=True)
def two_errors(a, k_index, k_zero):
    s = 0.0
    for i in prange(a.shape[0]):
        x = (a[i] * a[i] + 1.0) ** 0.5
        if i == k_index:
            x = a[i + a.shape[0]]  # IndexError
        if i == k_zero:
            x = x / 0.0  # ZeroDivisionError
        s += x
    return s


@njit(parallel=True)
def int_div(a, d):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i] // d[i]
    return s


@njit(parallel=True)
def inner_parallel(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def outer_parallel(m):
    t = 0.0
    for i in prange(m.shape[0]):
        t += inner_parallel(m[i])
    return t


@pytest.fixture
def two_threads():
    old = numjit.get_num_threads()
    numjit.set_num_threads(2)
    yield
    numjit.set_num_threads(0 if old == os.cpu_count() else old)


def python_sum(a):
    return float(np.sum(np.sqrt(a * a + 1.0)))


def test_large_loop_uses_the_pool(two_threads):
    a = np.random.RandomState(1).rand(2_000_000)
    want = python_sum(a)
    threads_seen = 0
    for _ in range(20):
        before = numjit.parfor_stats()
        got = heavy_sum(a)
        after = numjit.parfor_stats()
        assert got == pytest.approx(want, rel=1e-12)
        assert after["loops"] == before["loops"] + 1
        assert after["pooled"] == before["pooled"] + 1  # a ~10 ms loop goes to the pool
        assert after["chunks"] == 16  # 8 per thread
        threads_seen = max(threads_seen, after["threads"])
        if threads_seen >= 2:
            break
    assert threads_seen == 2


def test_tiny_loop_stays_on_the_caller(two_threads):
    a = np.arange(10.0)
    for _ in range(3):
        before = numjit.parfor_stats()
        assert heavy_sum(a) == pytest.approx(python_sum(a), rel=1e-12)
        after = numjit.parfor_stats()
        assert after["loops"] == before["loops"] + 1
        assert after["pooled"] == before["pooled"]
        assert after["threads"] == 1


def test_without_parallel_prange_is_serial(two_threads):
    a = np.random.RandomState(2).rand(100_000)
    before = numjit.parfor_stats()
    assert serial_sum(a) == pytest.approx(python_sum(a), rel=1e-12)
    assert numjit.parfor_stats()["loops"] == before["loops"]


def test_float_reduction_is_reproducible(two_threads):
    a = np.random.RandomState(3).rand(1_000_000)
    first = heavy_sum(a)
    for _ in range(5):
        assert heavy_sum(a) == first  # same chunks whatever ran where: bit for bit


def test_one_thread_is_the_serial_loop():
    old = numjit.get_num_threads()
    numjit.set_num_threads(1)
    try:
        a = np.random.RandomState(4).rand(300_000)
        assert heavy_sum(a) == serial_sum(a)
        assert numjit.parfor_stats()["chunks"] == 1
    finally:
        numjit.set_num_threads(0 if old == os.cpu_count() else old)


def test_element_writes(two_threads):
    out = np.zeros(1_000_003)
    fill(out)
    assert np.array_equal(out, np.arange(1_000_003) * 0.5)


@pytest.mark.parametrize("lo,hi,step", [(0, 100_000, 3), (5, 6, 1), (100_000, -7, -5),
                                        (10, 0, 1), (0, 10, -1), (-3, 3, 2)])
def test_steps(lo, hi, step):
    r = range(lo, hi, step)
    want = (sum(i * i for i in r), max(r) if len(r) else -1)
    assert stepped(lo, hi, step) == want


def test_zero_step():
    with pytest.raises(ValueError):
        stepped(0, 10, 0)


@pytest.mark.parametrize("k_index,k_zero,exc", [
    (1_500_000, 100, ZeroDivisionError), (100, 1_500_000, IndexError),
    (1_999_999, 2_000_000, IndexError), (0, 1, IndexError),
    (1_000_001, 1_000_000, ZeroDivisionError),
])
def test_first_raise_in_loop_order_wins(two_threads, k_index, k_zero, exc):
    a = np.random.RandomState(5).rand(2_000_000)
    for _ in range(3):
        with pytest.raises(exc) as info:
            two_errors(a, k_index, k_zero)
        assert "test_prange.py" in str(info.value)
    # nothing hangs or stays broken afterwards
    assert two_errors(a, -1, -1) == pytest.approx(python_sum(a), rel=1e-12)


def test_zero_division_in_a_small_loop():
    a = np.arange(10)
    d = np.ones(10, dtype=np.int64)
    assert int_div(a, d) == 45
    d[7] = 0
    with pytest.raises(ZeroDivisionError):
        int_div(a, d)


def test_nested_parallel_functions(two_threads):
    m = np.random.RandomState(6).rand(64, 50_000)
    assert outer_parallel(m) == pytest.approx(float(m.sum()), rel=1e-12)


def test_calls_from_several_python_threads(two_threads):
    a = np.random.RandomState(7).rand(500_000)
    want = heavy_sum(a)
    results = []

    def run():
        for _ in range(5):
            results.append(heavy_sum(a))

    ts = [threading.Thread(target=run) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == [want] * 15


def test_loop_variable_read_after_the_loop(make_module):
    mod = make_module("prange_loopvar", """
        from numjit import njit, prange

        @njit(parallel=True)
        def f(n):
            for i in prange(n):
                pass
            return i
    """)
    with pytest.raises(TypingError) as info:
        mod.f(10)
    msg = str(info.value)
    assert "prange_loopvar.py:6:9: error: the variable 'i' of this prange loop is read after" in msg
    assert "^" in msg


def test_private_values_and_reductions_in_branches(make_module):
    mod = make_module("prange_private", """
        import numpy as np
        from numjit import njit, prange

        @njit(parallel=True)
        def f(a):
            pos = 0.0
            neg = 0
            for i in prange(a.shape[0]):
                x = a[i]
                if x > 0:
                    y = x * 2.0
                    pos += y
                else:
                    neg -= 1
            q = 3          # assigned again before it is read: private in the loop is fine
            return pos, neg, q

        @njit(parallel=True)
        def g(a):
            s = 0.0
            for i in prange(a.shape[0]):
                if a[i] > 0:
                    t = a[i]
                s += t     # t may be the previous iteration's: refused
            return s
    """)
    a = np.linspace(-1.0, 1.0, 100_001)
    pos, neg, q = mod.f(a)
    assert pos == pytest.approx(2.0 * a[a > 0].sum(), rel=1e-12)
    assert neg == -int((a <= 0).sum()) and q == 3
    with pytest.raises(TypingError, match="'t' carries a value from one iteration"):
        mod.g(a)


def test_cached_parallel_function_in_a_new_process(tmp_path):
    (tmp_path / "pmod.py").write_text(textwrap.dedent("""
        from numjit import njit, prange

        @njit(parallel=True, cache=True)
        def total(a):
            s = 0.0
            for i in prange(a.shape[0]):
                s += a[i] * 2.0
            return s
    """))
    driver = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        import numpy as np
        import numjit
        numjit.set_num_threads(2)
        import pmod
        print(pmod.total(np.ones(3_000_000)), numjit.parfor_stats()["loops"])
    """)
    env = dict(os.environ, NUMJIT_CACHE_DIR=str(tmp_path / "cache"), NUMJIT_CACHE_DEBUG="1")
    outs = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", driver, str(tmp_path)], env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.append((p.stdout.split(), p.stderr))
    assert outs[0][0] == outs[1][0] == ["6000000.0", "1"]
    assert "hit" in outs[1][1]


def test_complex_sum_and_product_reductions(make_module):
    m = make_module("nj_prange_complex", """
        from numjit import njit, prange

        @njit(parallel=True)
        def red(a):
            s = 0j
            p = 1 + 0j
            for i in prange(a.shape[0]):
                s += a[i]
                p *= 1 + a[i] * 1e-6
            return s, p

        @njit(parallel=True)
        def bad(a):
            m = 0j
            for i in prange(a.shape[0]):
                m = max(m, a[i])
            return m
        """)
    a = (np.arange(300_000) * (1 - 0.5j)) / 1000
    s, p = m.red(a)
    assert abs(s - a.sum()) <= 1e-12 * abs(a.sum())
    want = np.prod(1 + a * 1e-6)
    assert abs(p - want) <= 1e-9 * abs(want)
    with pytest.raises(numjit.errors.TypingError):
        m.bad(a)
