# Tuples inside compiled code: swapping with `a, b = b, a`, rotating three variables,
# `n, m = x.shape`, keeping a shape tuple and indexing it (constant indices, negative too),
# a helper returning a tuple to another compiled function which unpacks it, and a tuple
# assignment whose right side reads the old values (Fibonacci); last, two array variables
# swapped by tuple assignment.
from numba import njit
import numpy as np


@njit
def swap_order(a, b):
    if a > b:
        a, b = b, a
    return a * 1000 + b


@njit
def rotate3(a, b, c, k):
    for i in range(k):
        a, b, c = b, c, a
    return a * 100 + b * 10 + c


@njit
def fib(n):
    a, b = 0, 1
    for i in range(n):
        a, b = b, a + b
    return a


@njit
def shape_info(x):
    s = x.shape
    n, m = x.shape
    return s[0] * 10000 + s[1] * 100 + s[-1] + n * m


@njit
def shape3(x):
    d0, d1, d2 = x.shape
    return d0 * 100 + d1 * 10 + d2


@njit
def minmax(a):
    lo = a[0]
    hi = a[0]
    for i in range(a.shape[0]):
        if a[i] < lo:
            lo = a[i]
        if a[i] > hi:
            hi = a[i]
    return lo, hi


@njit
def spread(a):
    lo, hi = minmax(a)
    return hi - lo


@njit
def divmod_pair(a, b):
    return a // b, a % b


@njit
def use_divmod(a, b):
    q, r = divmod_pair(a, b)
    return q * 1000 + r


@njit
def tuple_index(a, b):
    t = (a, b, a + b)
    return t[0] + t[1] * 10 + t[2] * 100 + t[-1]


@njit
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@njit
def ping_pong(x, y, steps):
    a = x
    b = y
    for s in range(steps):
        for i in range(a.shape[0]):
            b[i] = a[i] * 2.0 + s
        a, b = b, a
    return a[0] + 10.0 * b[0]


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for a, b in [(1, 2), (2, 1), (5, 5), (-3, 7)]:
        print("swap_order", a, b, r(swap_order(a, b)))
    for k in [0, 1, 2, 3, 4]:
        print("rotate3", k, r(rotate3(1, 2, 3, k)))
    for n in [0, 1, 2, 10, 50, 92]:
        print("fib", n, r(fib(n)))
    print("shape_info", r(shape_info(np.zeros((3, 7)))), r(shape_info(np.zeros((5, 2)).T)))
    print("shape3", r(shape3(np.zeros((2, 3, 4)))), r(shape3(np.zeros((2, 3, 4)).T)))
    a = np.array([3.5, -1.25, 8.0, 0.0])
    print("spread", r(spread(a)), r(spread(np.array([7, 3, 9], dtype=np.int32))))
    for x, y in [(17, 5), (-17, 5), (17, -5), (-17, -5)]:
        print("use_divmod", x, y, r(use_divmod(x, y)))
    for x, y in [(1, 2), (0.5, 0.25)]:
        print("tuple_index", x, y, r(tuple_index(x, y)))
    for x, y in [(12, 18), (17, 5), (0, 9), (2**40, 2**20 * 3)]:
        print("gcd", x, y, r(gcd(x, y)))
    x = np.array([1.0, 2.0])
    y = np.zeros(2)
    print("ping_pong", r(ping_pong(x, y, 3)), x.tolist(), y.tolist())
