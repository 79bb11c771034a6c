# Lambdas inside jitted functions, which Numba 0.56 compiles as inner functions (closures):
# a lambda assigned to a name and called, reading the enclosing function's variables (late
# binding: their values at the call), default arguments, no parameters, a lambda
# calling another, one called where it stands ((lambda x: ...)(v)), lambdas over arrays and
# tuples, and one specialization per argument type.
from numba import njit
import numpy as np


@njit
def scaled(k):
    f = lambda x: x * k
    return f(3), f(1.5)


@njit
def defaults(c):
    f = lambda x, y=2: x * y + c
    return f(3), f(3, 4), f(2.5)


@njit
def no_params():
    f = lambda: 5
    return f()


@njit
def late(k):
    f = lambda x: x + k
    a = f(1)
    k = 10
    return a, f(1)


@njit
def chained(a):
    sq = lambda i: a[i] * a[i]
    tot = lambda n: sq(n) + 1.0
    s = 0.0
    for i in range(a.shape[0]):
        s += tot(i)
    return s


@njit
def immediate(v):
    return (lambda x: x + 1)(v), (lambda x, y: x * y)(v, 3)


@njit
def on_tuple(t):
    second = lambda p: p[1]
    first = lambda p: p[0]
    return second(t) - first(t)


@njit
def conditional(x, flag):
    f = lambda v: v - 1 if v > 0 else v + 1
    if flag:
        return f(x)
    return f(-x)


@njit
def in_loop(n):
    s = 0
    for i in range(n):
        g = lambda j: i * j
        s += g(2)
    return s


@njit
def on_array(a):
    norm = lambda v: np.sqrt(np.sum(v * v))
    return norm(a)


def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ")"
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    print(show(scaled(2)))
    print(show(scaled(0.5)))
    print(show(defaults(1)))
    print(show(defaults(0.25)))
    print(show(no_params()))
    print(show(late(1)))
    print(show(chained(np.arange(4.0))))
    print(show(immediate(4)))
    print(show(immediate(1.5)))
    print(show(on_tuple((3, 8.5))))
    print(show(conditional(5, True)), show(conditional(5, False)))
    print(show(conditional(-2.5, True)))
    print(show(in_loop(5)))
    print(show(on_array(np.array([3.0, 4.0]))))
