"""Generators (defs with yield): what numjit refuses, with located errors, and the generator
object a call from Python returns.  The values themselves are compared with Numba's in
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
