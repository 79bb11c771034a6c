# boundscheck=True (IndexError for every index outside the array, negative ones wrapped once;
# reads and writes, views, integer index types) and error_model="numpy" (division by zero gives
# inf/nan for floats and 0 for integers, no exception) against the default error model.
from numba import njit
import numpy as np

@njit(boundscheck=True)
def get(a, i):
    return a[i]

@njit(boundscheck=True)
def get2(a, i, j):
    return a[i, j]

@njit(boundscheck=True)
def put(a, i, v):
    a[i] = v

@njit(error_model="numpy")
def fdiv(a, b):
    return a / b

@njit(error_model="numpy")
def idiv(a, b):
    return a // b

@njit(error_model="numpy")
def imod(a, b):
    return a % b

@njit(error_model="numpy")
def fmod(a, b):
    return a % b

@njit(error_model="numpy")
def ffloordiv(a, b):
    return a // b

@njit
def pdiv(a, b):
    return a / b

def attempt(f, *args):
    try:
        r = f(*args)
        print(type(r).__name__ + ":" + repr(r))
    except Exception as e:
        print(type(e).__name__)

if __name__ == "__main__":
    a = np.arange(5.0)
    m = np.arange(6.0).reshape(2, 3)
    for i in [0, 4, 5, -1, -5, -6, 100, np.uint64(3), np.int32(-2), np.uint8(7), np.uint64(4), np.uint32(9)]:
        attempt(get, a, i)
    for i, j in [(0, 0), (1, 2), (2, 0), (-2, -3), (-3, 0), (0, 3)]:
        attempt(get2, m, i, j)
    attempt(put, a, 5, 1.0)
    attempt(put, a, -6, 1.0)
    attempt(put, a, 2, 9.0)
    print(a.tolist())
    attempt(get, a[::2], 3)
    attempt(get, a[::-1], 4)
    for x, y in [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (5, 0), (7, 2), (-7, 2)]:
        attempt(fdiv, x, y)
    for x, y in [(7, 0), (-7, 0), (7, 2), (-7, 2), (0, 0), (-2**63, -1)]:
        attempt(idiv, x, y)
        attempt(imod, x, y)
    for x, y in [(7.5, 0.0), (-7.5, 0.0), (7.5, 2.0), (-7.5, 2.0), (0.0, 0.0), (7.5, -0.0)]:
        attempt(fmod, x, y)
        attempt(ffloordiv, x, y)
    attempt(pdiv, 1.0, 0.0)
    attempt(idiv, np.int32(7), np.int32(0))
    attempt(imod, np.uint8(7), np.uint8(0))
