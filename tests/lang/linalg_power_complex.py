# np.linalg.matrix_power of complex matrices (complex128 and complex64): the identity for 0,
# copies for 1, the inverse for -1, repeated squaring with np.dot for larger powers and the
# inverse's powers for negative ones; the results' dtypes, shapes and values, and Numba's
# errors for a non-square or singular matrix.
# diff: rtol=1e-6
import numpy as np
from numba import njit


@njit
def power(a, n):
    return np.linalg.matrix_power(a, n)


def r(z):
    z = complex(z)
    return complex(round(z.real, 3) + 0.0, round(z.imag, 3) + 0.0)


if __name__ == "__main__":
    for dt in (np.complex128, np.complex64):
        a = (np.array([[1.0, 0.5, 0.0], [0.25, 1.0, -0.5], [0.0, 0.5, 0.75]])
             + 1j * np.array([[0.0, 0.25, 0.5], [-0.5, 0.0, 0.25], [0.25, 0.0, 0.5]])).astype(dt)
        for n in (0, 1, 2, 3, 5, 8, -1, -2, -3):
            x = power(a, n)
            print(dt.__name__, n, x.dtype, x.shape, x.flags.c_contiguous, [r(z) for z in x.ravel()])
        for bad in (a[:2], np.ones((2, 2), dt)):
            try:
                power(bad, -1)
                print("no error")
            except (ValueError, np.linalg.LinAlgError) as e:
                name = type(e).__name__
                print(name, str(e).splitlines()[0].split(name + ": ")[-1])
