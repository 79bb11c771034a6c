# Arrays created in one compiled function and passed to, changed by and returned from others:
# a helper that allocates, one that fills its argument, one that returns its argument, tuples of
# arrays and scalars, a temporary made in every iteration of a loop, variables reassigned and
# swapped, an array chosen by a branch, arrays made on the way to an exception (which must still
# raise cleanly), and an argument from Python returned unchanged (the same object, as in Numba).
from numba import njit
import numpy as np


def show(a):
    print(str(a.dtype) + " " + repr(a.shape) + " " + repr(a.tolist()))


@njit
def make(n, v):
    a = np.empty(n)
    for i in range(n):
        a[i] = v + i
    return a


@njit
def fill(a, v):
    for i in range(a.shape[0]):
        a[i] = v
    return a


@njit
def same(a):
    return a


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def pipeline(n):
    a = make(n, 1.0)
    b = fill(np.zeros(n), 2.0)
    c = same(a)
    c[0] = 100.0
    return a, b, total(a) + total(b)


@njit
def step(u):
    new = np.empty_like(u)
    err = 0.0
    for i in range(1, u.shape[0] - 1):
        new[i] = 0.5 * (u[i - 1] + u[i + 1])
        err = max(err, abs(new[i] - u[i]))
    new[0] = u[0]
    new[u.shape[0] - 1] = u[u.shape[0] - 1]
    return new, err


@njit
def relax(u, iters):
    err = 0.0
    for k in range(iters):
        u, err = step(u)
    return u, err


@njit
def loop_temps(n):
    s = 0.0
    for i in range(n):
        t = np.zeros(3)
        t[1] = i
        s += total(t) + total(make(2, i))
    return s


@njit
def swap(n):
    a = np.zeros(n)
    b = np.ones(n)
    for k in range(3):
        a, b = b, a
    c = a
    a = b
    b = c
    return a, b


@njit
def choose(n, flag):
    if flag:
        r = np.full(n, 1.5)
    else:
        r = np.ones(n) if n > 5 else np.zeros(n)
    return r


@njit
def pair_from_helper(n):
    x, e = step(make(n, 0.0))
    y = x.copy()
    y[0] = -1.0
    return x, y, e


@njit
def raises_late(n, d):
    a = np.ones(n)
    b = make(n, 2.0)
    return a, total(b) // d


@njit
def raises_in_callee(n):
    a = np.ones(n)
    b = raises_late(n, 0.0)
    return a, b[1]


@njit
def arg_or_new(a, flag):
    if flag:
        return a
    return a.copy()


@njit
def view_of_new(n):
    a = np.arange(n * 1.0)
    return a[2:5]


@njit
def row_of_new(n):
    m = np.zeros((n, 3))
    for i in range(n):
        m[i, 1] = i
    return m[n - 1], m.T


@njit
def views_in_loop(n):
    t = 0.0
    for i in range(n):
        a = np.full(4, i * 1.0)
        b = a[1:3]
        t += b[0] + b[1]
    return t


if __name__ == "__main__":
    a, b, s = pipeline(4)
    show(a)
    show(b)
    print(repr(s))
    u = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
    v, err = relax(u, 5)
    show(v)
    print(repr(err))
    show(u)
    print(repr(loop_temps(100)))
    for x in swap(3):
        show(x)
    show(choose(3, True))
    show(choose(3, False))
    for x in pair_from_helper(5):
        print(repr(x) if isinstance(x, float) else repr(x.tolist()))
    print(raises_late(3, 2.0)[1])
    try:
        raises_late(3, 0.0)
    except ZeroDivisionError:
        print("ZeroDivisionError")
    try:
        raises_in_callee(3)
    except ZeroDivisionError:
        print("ZeroDivisionError")
    w = np.arange(3.0)
    print(arg_or_new(w, True) is w, arg_or_new(w, False) is w)
    print(same(w) is w)
    keep = make(3, 7.0)
    for i in range(50):
        make(1000, float(i))
    show(keep)
    show(view_of_new(8))
    r, t = row_of_new(4)
    show(r)
    show(t)
    print(repr(views_in_loop(1000)))
