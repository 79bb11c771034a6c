# np.sum and np.prod of an array expression: the expression's loop folds into the sum (no
# temporary array) and the answer is that of summing the array it would make, to the bit:
# float rounding in the same order (C order; F order for F operands), integers and bools
# widened to 64 bits, complex sums, broadcasting (and its error), 2-d and transposed operands,
# an empty expression, inside a loop over the rows, KDE style.
from numba import njit
import numpy as np


@njit
def sums(a, b):
    return (np.sum(a * b), np.sum(np.exp(a - 1.0)), np.prod(a + 1.0), np.sum(-(a - 0.1) ** 2),
            np.sum(a > 0.5), np.sum(np.sqrt(a) / (b + 1)))


@njit
def int_sums(i, j):
    return np.sum(i * j), np.prod(j + 1), np.sum(i < j), np.sum(i // 3), np.sum(np.abs(i - 7))


@njit
def small_ints(i):
    return np.sum(i + i), np.prod(i * i)


@njit
def broadcast(m, v):
    return np.sum(m * v), np.sum(m.T - v), np.prod(m[0] - v + 2.0)


@njit
def complex_sum(z):
    return np.sum(z * z + 1j), np.prod(z / 2.0), np.sum(np.abs(z) ** 2)


@njit
def kde(x, points, bw):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        d = -(x[i] - points) ** 2 / (2.0 * bw ** 2)
        m = np.max(d)
        out[i] = np.exp(m) * np.sum(np.exp(d - m))
    return out


@njit
def bad_shapes(a, b):
    return np.sum(a + b)


def show(label, r):
    if isinstance(r, tuple):
        for k, v in enumerate(r):
            print(label, k, repr(v), type(v).__name__)
    else:
        print(label, repr(r), type(r).__name__)


a = np.linspace(0.0, 1.0, 1001)
b = np.cos(np.arange(1001.0))
show("sums", sums(a, b))
show("sums empty", sums(a[:0], b[:0]))
i = np.arange(-20, 40, dtype=np.int64)
j = (np.arange(60) % 7).astype(np.int64)
show("int_sums", int_sums(i, j))
show("int_sums i32", int_sums(i.astype(np.int32), j.astype(np.int32)))
show("small_ints u8", small_ints(np.arange(1, 9, dtype=np.uint8)))
show("small_ints i16", small_ints(np.arange(1, 9, dtype=np.int16)))
m = np.arange(16.0).reshape(4, 4) / 7.0
show("broadcast", broadcast(m, np.array([0.5, 1.5, 2.5, 3.5])))
show("broadcast F", broadcast(np.asfortranarray(m), np.array([0.5, 1.5, 2.5, 3.5])))
z = (np.arange(9.0) + 1j * np.arange(9.0)[::-1]) / 3.0
show("complex", complex_sum(z))
show("complex64", complex_sum(z.astype(np.complex64)))
k = kde(np.linspace(-2.0, 2.0, 9), np.array([-1.0, 0.25, 1.5]), 0.5)
print("kde", k.dtype, k.shape, k.tolist())
try:
    bad_shapes(np.ones(3), np.ones(4))
except ValueError as e:
    print("ValueError", str(e).splitlines()[0].split("ValueError: ")[-1])
