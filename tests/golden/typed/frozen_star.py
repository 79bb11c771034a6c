# sig: weigh(float64, float64)
# A global array frozen by the Python package (numjit._frozen_array: its copy's address, dtype
# and shape) is read through `addrarray`, a readonly C array of constant extents; a call of a
# function with *args packs the extra arguments into one tuple.
import numjit
from numba import njit

W = numjit._frozen_array(4096, "float64", (3,))


@njit
def total(*args):
    return args[0] + args[1]


@njit
def weigh(x, y):
    return total(x, y) * W.shape[0]
