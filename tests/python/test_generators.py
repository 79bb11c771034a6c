"""Generators (defs with yield): what numjit refuses, with located errors, and the generator
object a call from Python returns: lazy (each next() runs the compiled body to its next yield),
freed when dropped.  The values themselves are compared with Numba's in
tests/lang/generators.py and generators_python.py."""
import os
import subprocess

import pytest

import numjit

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(os.path.dirname(HERE)), os.environ.get("NUMJIT_BUILD", "build"))


def test_python_call_gives_an_iterator(make_module):
    m = make_module("gen_iter", """
        from numjit import njit

        @njit
        def evens(n):
            for i in range(n):
                yield i * 2
    """)
    g = m.evens(3)
    assert iter(g) is g
    assert [next(g), next(g), next(g)] == [0, 2, 4]
    with pytest.raises(StopIteration):
        next(g)
    assert type(m.evens(1)).__name__ == "_Generator"


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_python_call_is_lazy(make_module):
    m = make_module("gen_lazy", """
        from numjit import njit

        @njit
        def marks(a):
            for i in range(a.size):
                a[i] = 1.0
                yield i

        @njit
        def naturals():
            i = 0
            while True:
                yield i
                i += 1
    """)
    import numpy as np
    a = np.zeros(3)
    g = m.marks(a)
    assert a.tolist() == [0.0, 0.0, 0.0]  # nothing runs at the call
    assert next(g) == 0 and a.tolist() == [1.0, 0.0, 0.0]
    assert next(g) == 1 and a.tolist() == [1.0, 1.0, 0.0]
    assert list(g) == [2]
    assert next(g, "end") == "end"
    with pytest.raises(StopIteration):
        next(g)
    g = m.naturals()  # endless: only what is asked for is computed
    assert [next(g) for _ in range(5)] == [0, 1, 2, 3, 4]
    assert type(g).__name__ == "_Generator" and iter(g) is g


def test_raise_in_generator_repeats(make_module):
    m = make_module("gen_raise", """
        from numjit import njit

        @njit
        def upto(n):
            for i in range(n):
                yield i
            raise IndexError("past the end")
    """)
    g = m.upto(1)
    assert next(g) == 0
    for _ in range(2):  # as Numba's generator: the same exception again
        with pytest.raises(IndexError, match="past the end"):
            next(g)


def test_dropped_generators_free_their_frames(make_module):
    m = make_module("gen_free", """
        import numpy as np
        from numjit import njit

        @njit
        def big(n):
            a = np.ones(n)
            b = a * 2.0
            for i in range(3):
                yield a[i] + b[i]
    """)
    n = 1 << 20  # 8 MiB per array, two per generator
    for _ in range(3):
        g = m.big(n)
        next(g)
    before = _rss_bytes()
    for _ in range(100):  # held at a yield, then dropped: 1.6 GB if the arrays were kept
        g = m.big(n)
        assert next(g) == 3.0
        del g
    for _ in range(100):  # run to the end: the arrays released by the body's exit
        assert list(m.big(n)) == [3.0, 3.0, 3.0]
    grown = _rss_bytes() - before
    assert grown < 200 * 1024 * 1024, grown


def test_generator_keeps_its_arguments_alive(make_module):
    m = make_module("gen_args", """
        from numjit import njit

        @njit
        def running(a):
            s = 0.0
            for x in a:
                s += x
                yield s
    """)
    import gc
    import numpy as np
    g = m.running(np.arange(1.0, 5.0))
    gc.collect()
    np.ones(1000)  # reuse of freed memory would show as wrong sums
    assert list(g) == [1.0, 3.0, 6.0, 10.0]


def test_generator_of_arrays_from_python_is_refused(make_module):
    m = make_module("gen_arrays", """
        import numpy as np
        from numjit import njit

        @njit
        def rows(n):
            for i in range(n):
                yield np.arange(i)

        @njit
        def total(n):
            s = 0
            for r in rows(n):
                s += r.sum()
            return s
    """)
    assert m.total(4) == 4  # compiled code iterates it
    with pytest.raises(numjit.errors.TypingError, match=r"gen_arrays.py:6:1: error: 'rows' is "
                       r"a generator of int64\[::1\]: numjit gives Python generators of numbers"):
        m.rows(3)


@pytest.mark.parametrize("body, where, what", [
    (["g = evens(n)", "return next(g)"], "11:9", "evens() is a generator"),
    (["s = 0", "for a, b in zip(evens(n), evens(n)):", "    s += a", "return s"], "12:31",
     "evens() is a generator"),
    (["return sum(evens(n))"], "11:12", "sum() of a generator is not supported"),
])
def test_generator_as_a_value_is_refused(make_module, body, where, what):
    text = "\n            ".join(body)
    m = make_module("gen_value", f"""
        from numjit import njit

        @njit
        def evens(n):
            for i in range(n):
                yield i * 2

        @njit
        def use(n):
            {text}
    """)
    with pytest.raises(numjit.errors.TypingError) as e:
        m.use(3)
    assert f"gen_value.py:{where}: error: {what}" in str(e.value)


def test_generator_in_a_closure_is_refused(make_module):
    m = make_module("gen_closure", """
        from numjit import njit

        @njit
        def use(n):
            def inner(k):
                for i in range(k):
                    yield i
            s = 0
            for x in inner(n):
                s += x
            return s
    """)
    with pytest.raises(numjit.errors.TypingError, match="The use of yield in a closure is "
                       "unsupported"):
        m.use(3)


def test_recursive_generator_is_refused(make_module):
    m = make_module("gen_rec", """
        from numjit import njit

        @njit
        def walk(n):
            if n > 0:
                for x in walk(n - 1):
                    yield x
            yield n

        @njit
        def use(n):
            return list(walk(n))
    """)
    with pytest.raises(numjit.errors.TypingError, match="generators nested more than 16 deep"):
        m.use(3)


def test_generator_refused_in_kernels(tmp_path):
    exe = os.path.join(BUILD, "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command in " + BUILD)
    path = tmp_path / "kern.py"
    path.write_text("from numba import cuda\n\n\n@cuda.jit(device=True)\ndef evens(n):\n"
                    "    for i in range(n):\n        yield i * 2\n\n\n@cuda.jit\ndef k(a):\n"
                    "    for x in evens(3):\n        a[0] += x\n")
    p = subprocess.run([exe, "ptx", str(path), "--sig", "k(float64[::1])"],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "kern.py:12:14: error: generators are not supported in CUDA kernels" in p.stderr, \
        p.stderr
