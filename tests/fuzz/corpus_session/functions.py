# The file's functions: called elementwise over arrays, and whole-array with loops.
import math
import numpy as np
from numba import njit


def rel_diff(a, b):
    return 2 * (a - b) / (a + b)


def clip01(v):
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit
def dot(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    return s


@njit
def fill_squares(out):
    for k in range(out.shape[0]):
        out[k] = k * k


SCALE = 3
x = np.arange(1.0, 9.0)
z = np.full(8, 2.0)
print(rel_diff(x, z))
print(rel_diff(3.0, 1.0))
print(clip01(0.25), clip01(7.0), clip01(-2.0))
print(dot(x, z), dot(x, x))
q = np.zeros(6)
fill_squares(q)
print(q)
print(math.sqrt(2.0) * SCALE, math.floor(7.5))
for k in range(3):
    if k == 5:
        break
else:
    print("for ended without break at", k)
n = 0
while n < 10:
    n += 1
    if n == 4:
        break
else:
    print("not printed")
while n < 6:
    n += 1
else:
    print("while ended at", n)
