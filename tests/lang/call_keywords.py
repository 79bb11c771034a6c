# Keyword and default arguments: calls between compiled functions (keywords in any order,
# defaults filled in, None defaults) and calls from Python into the dispatcher (keywords,
# defaults), with the TypeError messages of Numba's dispatcher for calls it cannot bind.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def g(x, y=1.0):
    return x * y


@njit
def lin(x, a=2, b=3, flag=False):
    r = a * x + b
    if flag:
        return -r
    return r


@njit
def calls_g(x):
    return g(x) + g(x, y=3.0) + g(y=0.5, x=x) + g(x, 4)


@njit
def calls_lin(x):
    return (lin(x), lin(x, b=10), lin(x, flag=True), lin(x, 1, flag=True, b=0),
            lin(b=1, a=1, x=x))


@njit
def weighted(a, w=None, n=3):
    s = 0.0
    for i in range(min(n, a.size)):
        if w is None:
            s += a[i]
        else:
            s += a[i] * w[i]
    return s


@njit
def calls_weighted(a):
    return weighted(a), weighted(a, n=2), weighted(a, np.ones(a.size) * 2.0), \
        weighted(a, w=np.ones(a.size) * 3.0, n=1)


@njit
def total(a, n=3):
    return a[:n].sum()


if __name__ == "__main__":
    print(show(g(2.0)))
    print(show(g(2.0, 4.0)))
    print(show(g(y=3, x=2)))
    print(show(calls_g(2.0)))
    print(show(calls_g(3)))
    print(show(lin(1)))
    print(show(lin(1, flag=True)))
    print(show(lin(2.5, b=1)))
    print(show(calls_lin(4)))
    a = np.arange(1.0, 6.0)
    print(show(weighted(a)))
    print(show(weighted(a, n=5)))
    print(show(weighted(a, np.ones(5) * 0.5)))
    print(show(weighted(a, w=None, n=4)))
    print(show(calls_weighted(a)))
    print(show(total(a)))
    print(show(total(a, n=2)))
    print(show(total(n=4, a=a)))
    for call in (lambda: total(), lambda: total(a, m=3), lambda: total(a, 2, n=3),
                 lambda: total(a, 1, 2), lambda: total(n=2), lambda: g()):
        try:
            call()
        except TypeError as e:
            print("TypeError:", e)
