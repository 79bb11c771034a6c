# Array sizes at the edges of int64 in compiled code: a negative extent and an element count or
# byte size beyond INT64_MAX raise Numba's ValueError (never a wrapped, too small block, even
# when a later extent is 0), an allocation malloc refuses raises MemoryError, and an empty array
# of a huge extent is fine.  np.arange and np.linspace go through the same checks; an arange
# whose count is no int64 is empty, as in Numba 0.56.
from numba import njit
import numpy as np


@njit
def zeros2(n, m):
    return np.zeros((n, m)).size


@njit
def zeros1(n):
    return np.zeros(n).size


@njit
def empty3(a, b, c):
    return np.empty((a, b, c), np.int8).size


@njit
def ones_const():
    return np.ones((2**31, 2**31, 4)).size


@njit
def arange3(a, b, c):
    return np.arange(a, b, c).size


@njit
def linspace(n):
    return np.linspace(0, 1, n).size


def show(f, *args):
    try:
        r = f(*args)
        print(f.__name__, repr(r))
    except (ValueError, MemoryError) as e:
        print(f.__name__, type(e).__name__)


if __name__ == "__main__":
    for a in [(2**32, 2**32), (2**31, 2**31), (2**40, 2**30), (-1, 5), (0, 2**62), (2**62, 0),
              (2**61, 2**3), (2**31, 2**29), (3, 4), (2**60, 2**3)]:
        show(zeros2, *a)
    for a in [2**60, 2**59, -3, 2**63 - 1, 0, 7]:
        show(zeros1, a)
    for a in [(2**62, 2, 0), (2**62, 2, 1), (2**21, 2**21, 2**21), (0, -1, 3),
              (2**32, 2**32, 0), (2**62, 1, 1), (2, 3, 4)]:
        show(empty3, *a)
    show(ones_const)
    for a in [(0, 2**63 - 1, 1), (-2**63, 2**63 - 1, 1), (0, 10, 3), (0, 2**62, 1),
              (2**63 - 1, 0, -1), (5, 0, 1), (0, 2**61, 1)]:
        show(arange3, *a)
    for a in [2**62, -5, 2**60, 0, 1, 50]:
        show(linspace, a)
