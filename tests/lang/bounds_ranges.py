# Indices and range bounds at the edges of int64: a variable index into a tuple or a.shape
# raises IndexError outside [-n, n) (negative indices wrap), boundscheck=True refuses a uint64
# index that a signed reading would take for -1, and range() with bounds or steps near INT64_MAX
# runs exactly as many times as Python's range.
from numba import njit
import numpy as np

@njit
def tuple_at(i):
    t = (10, 20, 30)
    return t[i]

@njit
def shape_at(a, i):
    return a.shape[i]

@njit(boundscheck=True)
def checked_get(a, i):
    return a[i]

@njit(boundscheck=True)
def checked_set(a, i, v):
    a[i] = v
    return a[0]

@njit(boundscheck=True)
def checked_get2(a, i, j):
    return a[i, j]

@njit(boundscheck=True)
def checked_row(a, i):
    return a[i, :].sum()

@njit
def range_count(a, b, c):
    n = 0
    last = 0
    for i in range(a, b, c):
        n += 1
        last = i
    return n, last

@njit
def range_count_pos(a, b):
    n = 0
    last = 0
    for i in range(a, b, 4611686018427387904):
        n += 1
        last = i
    return n, last

@njit
def range_count_neg(a, b):
    n = 0
    last = 0
    for i in range(a, b, -4611686018427387904):
        n += 1
        last = i
    return n, last

@njit
def range_u64(a, b):
    n = 0
    for i in range(a, b):
        n += 1
    return n

def show(f, *args):
    try:
        r = f(*args)
        print(f.__name__, repr(r))
    except (IndexError, ValueError) as e:
        print(f.__name__, type(e).__name__)

if __name__ == "__main__":
    for i in (0, 1, 2, -1, -2, -3, 3, 7, -4, -100, 2**62):
        show(tuple_at, i)
    a2 = np.zeros((3, 5))
    for i in (0, 1, -1, -2, 2, 5, -3, 100):
        show(shape_at, a2, i)
    show(shape_at, a2, np.int32(-1))
    show(shape_at, a2, np.uint8(1))
    a = np.arange(5.0)
    for i in (np.uint64(0), np.uint64(4), np.uint64(5), np.uint64(2**64 - 1), np.uint64(2**63),
              np.uint32(4), np.uint32(2**32 - 1), np.uint8(255), np.int64(-1), np.int64(-5),
              np.int64(-6), np.int64(5)):
        show(checked_get, a, i)
        show(checked_set, a.copy(), i, 9.0)
    m = np.arange(12.0).reshape(3, 4)
    show(checked_get2, m, np.uint64(2), np.uint64(3))
    show(checked_get2, m, np.uint64(2), np.uint64(2**64 - 1))
    show(checked_get2, m, np.uint64(2**64 - 1), np.uint64(0))
    show(checked_row, m, np.uint64(1))
    show(checked_row, m, np.uint64(2**64 - 1))
    big = 2**63 - 1
    small = -2**63
    # where i + step leaves int64 (Numba 0.56 gets these right; ranges whose bounds are
    # further apart than INT64_MAX it counts as empty, numjit as Python: test_hardening.py)
    for args in ((0, big, 2**62), (0, big, big), (big - 3, big, 1), (small + 3, small, -1),
                 (0, 10, 3), (10, 0, -3), (5, 5, 1), (5, 5, -1), (0, big, 2**61 + 1),
                 (-1, small, small), (1, big, big - 1)):
        show(range_count, *args)
    show(range_count_pos, 0, big)
    show(range_count_pos, big - 1, big)
    show(range_count_neg, 0, small)
    show(range_u64, np.uint64(2**64 - 3), np.uint64(2**64 - 1))
    show(range_u64, np.uint64(0), np.uint64(5))
    show(range_u64, np.uint64(7), np.uint64(5))
