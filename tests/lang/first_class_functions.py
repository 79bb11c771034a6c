# First-class function values (Numba's Dispatcher types): jitted functions passed as arguments
# from Python and from compiled code, held in variables and tuples, unrolled with
# literal_unroll, returned from a jitted function, spread into a call with `*args`.
import numpy as np
from numba import njit, literal_unroll


@njit
def sq(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def shift(x, a, b):
    return x + a - b


@njit
def apply(f, x):
    return f(x)


@njit
def apply_args(f, x, args=()):
    return f(x, *args)


@njit
def twice(f, x):
    return apply(f, apply(f, x))


@njit
def both(x):
    return apply(sq, x) + apply(cube, x)


@njit
def held(x):
    g = cube
    return g(x)


@njit
def in_tuple(x):
    fs = (sq, cube)
    return fs[0](x) - fs[1](x)


@njit
def unrolled(x):
    s = 0.0
    for f in literal_unroll((sq, cube, sq)):
        s = s * 10 + f(x)
    return s


@njit
def chooser(k):
    return sq


@njit
def returned(x):
    g = chooser(1)
    return g(x)


@njit
def tuple_arg(fs, x):
    return fs[0](x) + fs[1](x)


@njit
def newton(f, fprime, x0, n):
    x = x0
    for i in range(n):
        x = x - f(x) / fprime(x)
    return x


@njit
def parabola(x):
    return x * x - 2.0


@njit
def parabola_prime(x):
    return 2.0 * x


@njit
def total(f, a):
    s = 0.0
    for i in range(a.shape[0]):
        s += f(a[i])
    return s


def show(v):
    print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    show(apply(sq, 3.0))
    show(apply(sq, 3))
    show(apply(cube, 2))
    show(apply(cube, 1.5))
    show(apply_args(shift, 1.0, (2.0, 0.5)))
    show(apply_args(sq, 4))
    show(twice(sq, 3))
    show(twice(cube, 1.5))
    show(both(2.0))
    show(both(3))
    show(held(2.0))
    show(in_tuple(2))
    show(unrolled(2.0))
    show(returned(5.0))
    show(tuple_arg((sq, cube), 2.0))
    show(tuple_arg((cube, cube), 3))
    show(newton(parabola, parabola_prime, 1.0, 8))
    show(total(sq, np.arange(5.0)))
    show(total(cube, np.arange(4)))
