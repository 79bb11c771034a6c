"""numba.extending through numjit: @overload and its relatives where a program and a library
are separate modules, the errors of the extension hook, and the refusals (intrinsic,
structref) at the place of use.  Each program runs in a child Python under numjit; those that
Numba runs too are compared with Numba 0.56's output."""

import textwrap

import pytest

LIBRARY = textwrap.dedent("""
    import numpy as np
    from numba import types
    from numba.extending import overload, overload_method


    def smooth(a, w):
        raise NotImplementedError


    @overload(smooth)
    def smooth_typing(a, w):
        if not (isinstance(a, types.Array) and a.ndim == 1 and isinstance(w, types.Integer)):
            return None
        if isinstance(a.dtype, types.Integer):
            def impl(a, w):
                out = np.zeros(a.size - w + 1, dtype=np.int64)
                for i in range(out.size):
                    for k in range(w):
                        out[i] += a[i + k]
                return out
            return impl

        def impl(a, w):
            out = np.zeros(a.size - w + 1)
            for i in range(out.size):
                for k in range(w):
                    out[i] += a[i + k]
                out[i] /= w
            return out
        return impl


    @overload_method(types.Float, "clipped")
    def clipped_typing(x, lo, hi):
        def impl(x, lo, hi):
            return min(max(x, lo), hi)
        return impl
""")

PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import njit
    import extlib
    from extlib import smooth


    @njit
    def run(a, b, x):
        return smooth(a, 2), extlib.smooth(b, 3), x.clipped(0.0, 1.0)


    r = run(np.arange(6), np.linspace(0.0, 1.0, 5), 1.75)
    print(r[0].tolist(), r[0].dtype, r[1].tolist(), r[1].dtype, type(r[2]).__name__, r[2])
    r = run(np.arange(4, dtype=np.int8), np.ones(3, np.float32), np.float32(-2.0))
    print(r[0].tolist(), r[0].dtype, r[1].tolist(), r[1].dtype, type(r[2]).__name__, r[2])
""")


def test_overloads_of_an_imported_library_as_under_numba(run_program, tmp_path, numba056):
    (tmp_path / "extlib.py").write_text(LIBRARY)
    got = run_program("numjit", PROGRAM).stdout
    want = run_program("numba", PROGRAM).stdout
    assert got == want and got.count("\n") == 2


INTRINSIC = textwrap.dedent("""
    from numba import njit
    from numba.extending import intrinsic


    @intrinsic
    def raw_add(typingctx, a, b):
        raise AssertionError("the typing of an intrinsic never runs under numjit")


    @njit
    def f(x):
        return raw_add(x, 1)


    try:
        raw_add(1, 2)
    except NotImplementedError as e:
        print("python:", type(e).__name__, e)
    f(3)
""")


def test_intrinsic_refused_where_called(run_program):
    r = run_program("numjit", INTRINSIC, ok=False)
    assert "python: UnsupportedError numba.extending.intrinsic 'raw_add' is not supported " \
        "by numjit" in r.stdout, r.stdout
    assert "llvmlite" in r.stdout
    assert "TypingError" in r.stderr
    assert ":13:12: error:" in r.stderr and "intrinsic 'raw_add' is not supported" in r.stderr
    assert "raw_add(x, 1)" in r.stderr and "^" in r.stderr


TYPING_RAISES = textwrap.dedent("""
    from numba import njit
    from numba.extending import overload


    def g(x):
        pass


    @overload(g)
    def g_typing(x):
        raise ValueError("g wants a float, got " + str(x))


    @njit
    def f(x):
        return g(x)


    f(3)
""")


def test_exception_in_typing_function_is_a_located_typing_error(run_program):
    r = run_program("numjit", TYPING_RAISES, ok=False)
    assert "TypingError" in r.stderr
    assert ":17:12: error: the typing of 'g' failed: ValueError: g wants a float, got int64" \
        in r.stderr, r.stderr


@pytest.mark.parametrize("snippet,line", [
    ("from numba.experimental import structref\nfrom numba.core import types\n"
     "@structref.register\nclass S(types.StructRef):\n    pass\n", 3),
    ("from numba.experimental import structref\n"
     "class P(structref.StructRefProxy):\n    pass\n", 2),
])
def test_structref_refused_where_used(run_program, snippet, line):
    r = run_program("numjit", snippet, ok=False)
    assert "UnsupportedError" in r.stderr and "structref" in r.stderr, r.stderr
    where = [ln for ln in r.stderr.splitlines() if 'File "' in ln and "prog_numjit" in ln][-1]
    assert f"line {line}" in where


CLOSURE_OVER_OVERLOADS = textwrap.dedent("""
    import numpy as np
    import numba
    from numba.extending import overload


    def double(x):
        return 2 * x


    def square(x):
        return x * x


    @overload(double)
    def _double(x):
        return lambda x: 2.0 * x


    @overload(square)
    def _square(x):
        return lambda x: x * x


    def make(fn):
        @numba.njit
        def test(x):
            return fn(x)
        return test


    for fn in (double, square, double):
        print(fn.__name__, make(fn)(3.0))
""")


def test_closure_over_another_overload_compiles_again(run_program, numba056):
    """numba-stats' tests define the same inner function over norm.pdf, then norm.logpdf
    (`def test(x): return fn(x, 0.0, 1.0)`): the same text, its name bound to another
    overloaded function each time, must compile each time, as under Numba (the module cache
    once gave the first function's results for the second)."""
    want = "double 6.0\nsquare 9.0\ndouble 6.0\n"
    assert run_program("numba", CLOSURE_OVER_OVERLOADS).stdout == want
    assert run_program("numjit", CLOSURE_OVER_OVERLOADS).stdout == want
