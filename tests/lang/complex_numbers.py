# Complex numbers in @njit code: literals, module constants, arithmetic with Numba's promotion,
# cmath, arrays of complex64/complex128, reductions, views of the parts, print.
import cmath
import numpy as np
from numba import njit

I = 1j
Z0 = 0.5 - 2j


@njit
def mandel(cr, ci, maxit):
    c = complex(cr, ci)
    z = 0j
    for n in range(maxit):
        z = z * z + c
        if abs(z) > 2.0:
            return n
    return maxit


@njit
def consts(x):
    return x * I + Z0


@njit
def roots_of_unity(n):
    out = np.empty(n, np.complex128)
    for k in range(n):
        out[k] = cmath.exp(2j * cmath.pi * k / n)
    return out


@njit
def stats(a):
    return a.sum(), a.mean(), a.var(), np.abs(a).max(), a.real.sum(), a.imag.sum()


@njit
def rotate(a, phi):
    a *= cmath.rect(1.0, phi)
    return a


@njit
def show(z):
    print("z =", z, "conj", z.conjugate(), "phase", cmath.phase(z))


def main():
    print([mandel(x, y, 50) for x, y in ((0.25, 0.5), (-0.75, 0.1), (1.0, 1.0), (0.0, 0.0))])
    print(consts(2.0), consts(-1.5))
    r = roots_of_unity(6)
    for z in r:
        print(z)
    a = np.array([1 + 2j, 3 - 1j, -0.5j, 2.0])
    for v in stats(a):
        print(v)
    for v in stats(a.astype(np.complex64)):
        print(v)
    print(rotate(a.copy(), 0.25))
    show(1.5 - 2j)
    show(-1j)


if __name__ == "__main__":
    main()
