"""print() inside compiled functions: the same text as Numba, in order with Python's prints."""
import re
import textwrap

import numpy as np
import pytest

import numjit

PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import njit, vectorize

    @njit
    def show(x, n, b):
        print("value", x, n, b, 3)
        print()
        print(1e16, 1.5e-5, 0.1, -0.0, 100.0, 123456789.125, np.float32(0.1), np.nan, -np.inf)
        print(2**63 - 1, -2**63, np.uint64(18446744073709551615), np.int8(-5), np.uint8(200))
        print("a" "b", 'q"uote', "50%", 2.5 * x, n // 2, x > 1)
        return x

    @vectorize(["float64(float64)"])
    def noisy(x):
        print("elem", x)
        return x + 1

    if __name__ == "__main__":
        print("before")
        show(2.5, 7, True)
        print("between")
        print(noisy(np.arange(3.0)))
        print("after")
    """)

def test_print_matches_numba_through_a_pipe(run_program):
    got = run_program("numjit", PROGRAM).stdout
    assert got == run_program("numba", PROGRAM).stdout
    assert got.startswith("before\nvalue 2.5 7 True 3\n\n1e+16 1.5e-05 0.1 -0.0 100.0 ")


def test_float_repr_matches_python(make_module):
    mod = make_module("nj_print_repr", """
        from numjit import njit

        @njit
        def show(a):
            for i in range(a.shape[0]):
                print(a[i])
        """)
    rng = np.random.default_rng(7)
    vals = np.concatenate([rng.standard_normal(300) * 10.0 ** rng.integers(-30, 30, 300),
                           [5e-324, 1.7976931348623157e308, 1e15, 1e16, 9999999999999998.0,
                            0.0001, 0.00001, 123.0, 2.0 ** 60, 1 / 3]])
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mod.show(vals)
    assert buf.getvalue().split("\n")[:-1] == [repr(float(v)) for v in vals]


def test_print_in_parallel_loop_keeps_lines_whole(run_program):
    program = textwrap.dedent("""
        from numba import njit, prange

        @njit(parallel=True)
        def par(n):
            s = 0
            for i in prange(n):
                print("line", i, i * 2)
                s += i
            return s

        if __name__ == "__main__":
            print(par(2000))
        """)
    out = run_program("numjit", program).stdout.splitlines()
    assert out[-1] == str(sum(range(2000)))
    assert sorted(out[:-1]) == sorted(f"line {i} {2 * i}" for i in range(2000))


@pytest.mark.parametrize("body, message", [
    ("print(a.astype(np.complex128))", "print() of complex128[::1] is not supported"),
    ("print(a[0], sep='')", "print() takes no keyword arguments"),
    ("print((1, 2.0))", "print() of Tuple(int64, float64)"),
])
def test_print_errors(make_module, body, message):
    mod = make_module("nj_print_err", f"""
        import numpy as np
        from numjit import njit

        @njit
        def f(a):
            {body}
        """)
    with pytest.raises(numjit.errors.TypingError, match=re.escape(message)):
        mod.f(np.ones(3))


ARRAY_PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit
    def show(a, m, b, i):
        print("a =", a)
        print(m)
        print(a * 2 + 1, b, i)
        print(m.T, m[0])
        print(np.zeros(0), np.arange(3), np.float32(0.1) * np.ones(2, np.float32))

    if __name__ == "__main__":
        show(np.linspace(0, 1, 5), np.arange(12.0).reshape(3, 4) / 7, np.array([True, False]),
             np.arange(1500, dtype=np.int32))
    """)


def test_print_arrays_as_numba(run_program):
    """print(array) writes str(array), NumPy's formatting (summarized past 1000 elements)."""
    got = run_program("numjit", ARRAY_PROGRAM).stdout
    assert got == run_program("numba", ARRAY_PROGRAM).stdout
    assert "[   0    1    2 ... 1497 1498 1499]" in got
