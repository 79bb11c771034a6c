# Inner functions and closures defined inside a jitted function: calls with arguments of
# several types (one specialization each), captured scalars and arrays read with their values
# at the time of the call (late binding, as Python and Numba), captured variables reassigned
# in a loop, nested inner functions, sibling inner functions calling each other, and an inner
# function without captures.
from numba import njit
import numpy as np


@njit
def add_offset(x, off):
    def g(y):
        return y + off
    return g(x), g(2), g(1.5)


@njit
def late_binding(x):
    def g(y):
        return x + y
    a = g(1)
    x = 10
    b = g(1)
    return a, b


@njit
def sum_sq(a):
    def sq(i):
        return a[i] * a[i]
    s = 0.0
    for i in range(a.shape[0]):
        s += sq(i)
    return s


@njit
def in_loop(n):
    t = 0
    k = 0
    def step(j):
        return j * k
    for i in range(n):
        k = i
        t += step(i)
    return t


@njit
def nested(x):
    def outer(y):
        def inner(z):
            return x * z
        return inner(y) + 1
    return outer(3)


@njit
def siblings(x):
    def h(y):
        return y * x
    def g(y):
        return h(y) + 1
    return g(3)


@njit
def no_capture(a, b):
    def hyp(u, v):
        return np.sqrt(u * u + v * v)
    return hyp(a, b), hyp(3, 4)


@njit
def fill(n, scale):
    out = np.empty(n)
    def f(i):
        return scale * i
    for i in range(n):
        out[i] = f(i)
    return out


@njit
def branchy(x, flag):
    def pick(v):
        if flag:
            return v * 2
        return v - 1
    return pick(x)


@njit
def shadow(x):
    def g(x):
        return x * 100
    return g(1) + x


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(e) for e in v) + ")"
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    print(show(add_offset(1, 2)))
    print(show(add_offset(1.25, 0.5)))
    print(show(late_binding(1)))
    print(show(late_binding(-4)))
    print(show(sum_sq(np.arange(5.0))))
    print(show(sum_sq(np.arange(4))))
    print(show(in_loop(6)))
    print(show(nested(7)))
    print(show(nested(0.5)))
    print(show(siblings(2)))
    print(show(no_capture(1.0, 1.0)))
    print(fill(4, 0.5).tolist(), fill(3, 2).dtype)
    print(show(branchy(5, True)), show(branchy(5, False)), show(branchy(2.5, True)))
    print(show(shadow(3)))
