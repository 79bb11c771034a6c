# Non-ASCII identifiers, as Python 3 and Numba accept them: function names, parameters, local
# variables and module constants written with accented Latin letters, Greek and other scripts,
# and names that mix them with ASCII letters and digits.
from numba import njit
import numpy as np

ÉCHELLE = 2.5
τ = 6.283185307179586


@njit
def café(x):
    naïve = x * 2.0
    return naïve + 1


@njit
def aire(rayon):
    π = 3.141592653589793
    return π * rayon * rayon


@njit
def somme_pondérée(a, poids):
    total = 0.0
    for ï in range(a.shape[0]):
        total += a[ï] * poids[ï]
    return total * ÉCHELLE


@njit
def δ2(x, y):
    Δ = x - y
    return Δ * Δ


@njit
def 数(n):
    合計 = 0
    for i in range(n):
        合計 += i
    return 合計


@njit
def tour(x):
    return τ * x + café(x)


if __name__ == "__main__":
    print(repr(café(1.5)))
    print(repr(aire(2.0)))
    print(repr(somme_pondérée(np.arange(4.0), np.ones(4))))
    print(repr(δ2(7.0, 4.5)), δ2(9, 2))
    print(数(10))
    print(repr(tour(0.5)))
