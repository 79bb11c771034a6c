# a.fill(value): every element of an array set to a value converted to the array's dtype, as
# Numba's array.fill: a random-state vector seeded (a signature given, compiled at once), a
# 2-d array, an int array given a float (truncated), a bool array, a view, a complex array.
from numba import njit
import numpy as np


@njit("void(i8[:], i8)")
def seed_state(state, seed):
    state.fill(seed + 0xFFFF)


@njit
def filled(n):
    a = np.empty((n, 2))
    a.fill(2)
    b = np.zeros(n, dtype=np.int32)
    b.fill(3.7)
    c = np.zeros(n, dtype=np.bool_)
    c.fill(1)
    d = np.zeros(n, dtype=np.complex128)
    d.fill(1.5)
    return a, b, c, d


@njit
def fill_view(a, v):
    a[1:3].fill(v)
    a[:, 0].fill(-v)
    return a


def show(a):
    return str(a.dtype) + ":" + str(a.shape) + ":" + repr(a.tolist())


if __name__ == "__main__":
    st = np.zeros(3, dtype=np.int64)
    seed_state(st, 5)
    print(show(st))
    for r in filled(3):
        print(show(r))
    print(show(fill_view(np.zeros((4, 3)), 2.5)))
