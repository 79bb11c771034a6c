"""Complex numbers in compiled functions: the same values and types as Numba 0.56."""
import os
import re
import textwrap

import numpy as np
import pytest

import numjit

pytestmark = pytest.mark.usefixtures("numba056")  # Numba 0.56 is the oracle

PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit
    def mandel(cr, ci, maxit):
        c = complex(cr, ci)
        z = 0j
        for i in range(maxit):
            z = z * z + c
            if abs(z) > 2.0:
                return i
        return maxit

    @njit
    def ops(z, w):
        return (z ** w, z ** 2, z ** 3, z ** 0.5, abs(z), z.real, z.imag, z.conjugate(),
                complex(1, 2), -z, +z, z == w, z != w, z / w, z * w, z - w)

    @njit
    def pw(z, w):
        return z ** w

    @njit
    def mixed(x, n, z):
        return x + z, n * z, z / n, z - x, 2 ** z, x / z, z ** n, x.real, x.imag, n.conjugate()

    @njit
    def c64(a, b):
        return a * b, a / b, a + 1.5, a + np.float32(1.5), a ** 2, a ** 3, abs(a)

    @njit
    def truth(z):
        return 1 if z else 0

    @njit
    def loopvar(n):
        z = 0.0
        for i in range(n):
            z = z + 1j * i
        return z

    @njit
    def arrays(a, out):
        s = 0j
        for i in range(a.shape[0]):
            out[i] = a[i] * a[i] + 1
            s += out[i]
        return s

    @njit
    def show(z, w):
        print(z, w, 1j, -0.0 + 1j, complex(-0.0, -1.0), complex(1.5, np.nan))

    if __name__ == "__main__":
        print(mandel(0.25, 0.5, 100), mandel(-0.75, 0.1, 1000), mandel(1.0, 1.0, 50))
        print(ops(1.5 + 2j, 0.5 - 1j))
        print(pw(0j, -1 + 0j), pw(0j, 2j), pw(0j, 0j), pw(0j, 2.0 + 0j), pw(1j, 0j))
        print(ops(complex(np.inf, 1), complex(np.nan, 2)))
        print(mixed(2.5, 3, 1 - 2j))
        r = c64(np.complex64(1 + 2j), np.complex64(0.5 - 0.25j))
        print(r, [type(v).__name__ for v in r])
        print(truth(0j), truth(1e-300j), truth(complex(np.nan, 0)))
        print(loopvar(4))
        a = np.array([1 + 1j, 2 - 1j, -0.5j])
        out = np.zeros(3, np.complex128)
        print(arrays(a, out), out)
        out32 = np.zeros(3, np.complex64)
        print(arrays(a.astype(np.complex64), out32), out32, out32.dtype)
        show(1 + 2j, np.complex64(0.1 - 0.2j))
    """)

def test_complex_matches_numba(run_program):
    got = run_program("numjit", PROGRAM).stdout
    assert got == run_program("numba", PROGRAM).stdout


def test_complex_division_by_zero(make_module):
    mod = make_module("nj_cdiv", """
        from numjit import njit

        @njit
        def d(z, w):
            return z / w

        @njit(error_model="numpy")
        def dn(z, w):
            return z / w
        """)
    for f in (mod.d, mod.dn):   # Numba's complex_div_impl raises under either error model
        with pytest.raises(ZeroDivisionError, match="complex division by zero"):
            f(1 + 1j, 0j)


@pytest.mark.parametrize("body, message", [
    ("return z < w", "complex numbers are not ordered"),
    ("return z // w", "can't take the floor division (//) of a complex number"),
    ("return int(z)", "int() of complex128 is not supported"),
    ("return z.phase", "complex128 has no attribute 'phase'"),
])
def test_complex_errors(make_module, body, message):
    mod = make_module("nj_cerr", f"""
        from numjit import njit

        @njit
        def f(z, w):
            {body}
        """)
    with pytest.raises(numjit.errors.TypingError, match=re.escape(message)):
        mod.f(1 + 1j, 2j)


def test_cmath_matches_numba(run_program):
    """Every cmath function and NumPy's ufuncs on complex64/complex128 scalars, at ordinary
    points and at infinities, nans, signed zeros and near overflow: Numba's values bit for bit."""
    program = open(os.path.join(os.path.dirname(__file__), "cmath_cases.py")).read()
    got = run_program("numjit", program).stdout
    assert got == run_program("numba", program).stdout
    assert got.count("\n") == 31


ARRAY_PROGRAM = """import numpy as np
from numba import njit

@njit
def e1(a, b):
    return a * 1j + 2, np.divide(a, b), a * b - a, -a, a ** 2, a + 1.5

@njit
def e2(a, x):
    return np.abs(a), np.exp(a), np.sqrt(a), np.conj(a), a == a, a != x, np.isnan(a), np.log(a)

@njit
def e3(a, x):
    return x * 1j, x + a, np.sin(a * x)

@njit
def inplace(a):
    a *= 2j
    a += 1
    return a

a = np.array([1 + 2j, 3 - 1j, -0.5j, 0j])
b = np.array([0.5 - 1j, 0j, 2 + 2j, 1e-300 + 0j])
x = np.array([1.0, 2.0, 3.0, -1.0])
for r in e1(a, b): print(r, r.dtype)
for r in e2(a, x): print(r, r.dtype)
for r in e3(a.astype(np.complex64), x.astype(np.float32)): print(r, r.dtype)
print(inplace(a.copy()))

@njit
def opdiv(a, b):
    return a / b

print(opdiv(a, a + 1))
try:
    opdiv(a, b)
except ZeroDivisionError as e:
    print("ZDE")

@njit
def parts(a):
    r = a.real
    i = a.imag
    s = 0.0
    for k in range(r.shape[0]):
        s += r[k] * 10 + i[k]
    a.imag[0] = 99.0
    a.real[1:] = -1.0
    return s, np.real(a).sum(), np.imag(a).sum(), a.real.copy()

@njit
def parts2(m):
    return m.real.T.copy(), m.imag[:, 1].copy(), m.real.sum(), np.abs(m).max()

a = np.array([1 + 2j, 3 - 1j, -0.5j, 0j])
print(parts(a), a)
m = (np.arange(6) * (1 - 2j)).reshape(2, 3).astype(np.complex64)
print(parts2(m))
print(parts2(np.asfortranarray(m)))
"""


def test_complex_arrays_match_numba(run_program):
    """Array expressions and ufuncs on complex arrays (np.divide as NumPy's loop, `/` as the
    scalar operator, which raises on zero), in-place updates, .real/.imag views (written
    through), reductions of views."""
    got = run_program("numjit", ARRAY_PROGRAM).stdout
    assert got == run_program("numba", ARRAY_PROGRAM).stdout
    assert "ZDE" in got
