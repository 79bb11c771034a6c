"""cmath and NumPy ufuncs on complex scalars, special values included (run by test_complex.py
under numjit and under Numba; the printed lines must agree)."""
import cmath
import numpy as np
from numba import njit

@njit
def f(x, z):
    return cmath.exp(x), cmath.phase(z), cmath.polar(z)[0], cmath.sqrt(z), np.exp(z), np.sqrt(x), cmath.isnan(z), cmath.log(z, 2+0j)

@njit
def allfuncs(z):
    return allfuncs1(z), allfuncs2(z)

@njit
def allfuncs1(z):
    return (cmath.exp(z), cmath.log(z), cmath.log10(z), cmath.sqrt(z), cmath.sin(z), cmath.cos(z),
            cmath.tan(z), cmath.sinh(z), cmath.cosh(z), cmath.tanh(z))

@njit
def allfuncs2(z):
    return (cmath.asin(z), cmath.acos(z),
            cmath.atan(z), cmath.asinh(z), cmath.acosh(z), cmath.atanh(z), cmath.phase(z),
            cmath.polar(z)[1], cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z))

@njit
def npfuncs(z, x):
    return (np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.arcsin(z), np.abs(z), np.absolute(z),
            np.real(z), np.imag(z), np.conj(z), np.conjugate(z), np.angle(z), np.angle(x))

@njit
def npf2(z, x):
    return (np.real(x),
            np.imag(x), np.power(z, 2), np.isnan(z), cmath.rect(2.0, 0.5), cmath.pi, cmath.infj)

if __name__ == "__main__":
    r = f(1.0, np.complex64(1+1j))
    print(r, [type(v).__name__ for v in r])
    inf, nan = float("inf"), float("nan")
    for z in [1.5 - 2j, -0.25 + 0.75j, 0j, complex(-0.0, 0.0), complex(inf, 1), complex(-inf, 2), complex(1, inf),
              complex(nan, 0), complex(nan, 1), complex(inf, nan), complex(1e300, 1e300), complex(1, 1e-310), 1+0j, -1+0j]:
        print(allfuncs1(z), allfuncs2(z))
        print(allfuncs1(np.complex64(z)), allfuncs2(np.complex64(z)))
    print(npfuncs(1.5 - 2j, -2.0), npf2(1.5 - 2j, -2.0))
    print(npfuncs(np.complex64(0.5 + 0.25j), np.float32(3)), npf2(np.complex64(0.5 + 0.25j), np.float32(3)))
