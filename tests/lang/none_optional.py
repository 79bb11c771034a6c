# None as a value and Numba's Optional: `is None` / `is not None` (folded when the type says, so
# the dead branch is never typed), default arguments (None, ints, bools) of functions called
# from Python and from other compiled functions, None passed from Python, functions returning
# None on some paths (Optional results: None or the value in Python), `return` with no value,
# Optional variables unified in if/else, and the TypeError of using an Optional holding None.
from numba import njit
import numpy as np


def show(v):
    if isinstance(v, np.ndarray):
        return "ndarray:" + str(v.dtype) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)


@njit
def add_opt(x, y=None):
    if y is None:
        return x
    return x + y


@njit
def scale(a, factor=None):
    if factor is not None:
        return a * factor
    return a * 2.0


@njit
def power(x, k=3, negate=False):
    r = x ** k
    if negate:
        r = -r
    return r


@njit
def calls_with_defaults(x):
    return add_opt(x) + add_opt(x, 10) + power(x) + power(x, 2) + power(x, 2, True)


@njit
def calls_array_defaults(a):
    b = scale(a)
    c = scale(a, 3.0)
    return b.sum() + c.sum()


@njit
def positive_or_none(x):
    if x > 0:
        return x
    return None


@njit
def half_or_none(x):
    if x > 0:
        return x / 2
    # falls off the end: an implicit return None


@njit
def nothing(x):
    if x > 0:
        return
    x += 1


@njit
def use_optional(x):
    r = positive_or_none(x)
    if r is None:
        return -1.0
    return r * 1.5


@njit
def unified(x):
    if x > 2:
        v = None
    else:
        v = x * 2.0
    if v is not None:
        return v + 1.0
    return 0.0


@njit
def unified_count(n):
    total = 0.0
    for i in range(n):
        v = None if i % 3 == 0 else float(i)
        if v is None:
            total += 100.0
        else:
            total += v
    return total


@njit
def unwrap(x):
    r = positive_or_none(x)
    return r + 1


@njit
def opt_arg(v):
    if v is None:
        return -1.0
    return v * 2.0


@njit
def pass_optional(x):
    return opt_arg(positive_or_none(x))


@njit
def say(x=None):
    print("value:", x)
    return 0


@njit
def is_none_flags(y=None):
    return (y is None, y is not None)


@njit
def fill(a, out=None):
    if out is None:
        out = np.empty_like(a)
    for i in range(a.size):
        out[i] = a[i] * 10
    return out


if __name__ == "__main__":
    print(show(add_opt(5)))
    print(show(add_opt(5, 2)))
    print(show(add_opt(1.5, None)))
    print(show(add_opt(np.arange(3.0))))
    print(show(add_opt(np.arange(3.0), np.ones(3))))
    print(show(scale(np.arange(4.0))))
    print(show(scale(np.arange(4.0), 0.5)))
    print(show(power(2)))
    print(show(power(2, 5)))
    print(show(power(2.0, k=2, negate=True)))
    print(show(power(3, negate=True)))
    print(show(calls_with_defaults(3)))
    print(show(calls_array_defaults(np.arange(5.0))))
    print(show(positive_or_none(4)))
    print(show(positive_or_none(-4)))
    print(show(positive_or_none(2.5)))
    print(show(half_or_none(3)))
    print(show(half_or_none(-3)))
    print(show(nothing(1)))
    print(show(nothing(-1)))
    print(show(use_optional(2)))
    print(show(use_optional(-2)))
    print(show(unified(1)))
    print(show(unified(5)))
    print(show(unified_count(10)))
    print(show(unwrap(3)))
    try:
        unwrap(-3)
    except TypeError as e:
        print("TypeError:", e)
    print(show(pass_optional(4)))
    print(show(pass_optional(-4)))
    print(show(opt_arg(None)))
    print(show(opt_arg(3)))
    print(show(say()))
    print(show(is_none_flags()))
    print(show(is_none_flags(1.0)))
    print(show(fill(np.arange(4))))
    out = np.zeros(4, dtype=np.int64)
    r = fill(np.arange(4), out)
    print(show(r), show(out))
