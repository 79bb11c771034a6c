# numba.objmode, more: a block inside a prange loop of a parallel function, blocks whose
# outputs feed later compiled code (an int32 output used as an index, a Fortran result
# converted to C order), output types given as a module-level type object, a block reading a
# global list and calling a module function, a block in a branch taken on some calls only,
# and a block reading and assigning one variable.
import numpy as np
from numba import njit, objmode, prange, types

SEEN = []
MAT = types.float64[:, :]


def helper(v):
    SEEN.append(v)
    return v * 3


@njit(parallel=True)
def par(n):
    out = np.zeros(n)
    for i in prange(n):
        with objmode(y='float64'):
            y = float(i) * 2
        out[i] = y
    return out


@njit
def index_from_python(a):
    with objmode(k='int32'):
        k = int(np.argmax(a))
    return a[k], k


@njit
def fortran(a):
    with objmode(b=MAT):
        b = np.asfortranarray(a.T * 2)
    return b[0, 1], b.sum()


@njit
def update(x):
    x = x + 1.0
    with objmode(x='float64'):
        x = x * 10
    return x


@njit
def branch(x):
    r = x + 1.0
    if x > 2:
        with objmode(r='float64'):
            r = helper(x)
    return r


if __name__ == "__main__":
    print(repr(par(1000).sum()))
    v, k = index_from_python(np.array([3.0, 9.0, 1.0]))
    print(repr(v), type(k).__name__, k)
    print(fortran(np.arange(6.0).reshape(2, 3)))
    print([branch(float(x)) for x in range(5)], SEEN)
    print(repr(update(0.5)))
