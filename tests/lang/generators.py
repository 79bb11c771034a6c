# Generators (a def with yield) iterated by compiled code: for loops (break, continue, else,
# return from the caller), several yields, yields in loops and ifs, `return` ending one,
# endless generators, generators that iterate generators, list(), min()/max(), enumerate(),
# zip() of a generator and sequences (to the shortest),
# keyword and default arguments, tuples yielded, try/except in a generator (a raise in the
# loop's body is the caller's, not caught there); list() of other iterables.
import numpy as np
from numba import njit


@njit
def evens(n):
    for i in range(n):
        yield i * 2


@njit
def naturals(start):
    i = start
    while True:
        yield i
        i += 1


@njit
def signs(a):
    for x in a:
        if x > 1.0:
            yield x
        else:
            yield -x


@njit
def three_parts(n):
    yield -1
    for i in range(n):
        if i == 3:
            return
        yield i
    yield 100


@njit
def pairs(n, scale=10):
    for i in range(n):
        yield i, i * scale


@njit
def squares_of(n):
    for x in evens(n):
        yield x * x


@njit
def nothing(n):
    if n > 100:
        yield 1.5


@njit
def mixed(n):
    yield 1
    yield 2.5
    yield n


@njit
def total(n):
    s = 0
    for x in evens(n):
        s += x
    return s


@njit
def first_over(limit):
    for x in naturals(1):
        if x * x > limit:
            return x
    return -1


@njit
def odd_until(n):
    out = []
    for x in naturals(0):
        if x % 2 == 0:
            continue
        if x > n:
            break
        out.append(x)
    else:
        out.append(-1)
    return out


@njit
def with_else(n):
    out = []
    for x in three_parts(n):
        out.append(x)
    else:
        out.append(999)
    return out


@njit
def as_list(a):
    return list(signs(a))


@njit
def extremes(n):
    return min(evens(n)), max(evens(n)), min(squares_of(n)), max(three_parts(n))


@njit
def counted(n):
    s = 0
    for i, x in enumerate(evens(n)):
        s += i * x
    last = (0, 0)
    for t in enumerate(evens(n), 5):
        last = t
    return s, last


@njit
def pair_sums(n):
    s = 0
    for a, b in pairs(n):
        s += a + b
    for p in pairs(n, scale=3):
        s += p[1]
    return s


@njit
def nested(n):
    out = []
    for x in evens(n):
        for y in evens(x):
            out.append(y)
    return out


@njit
def empty_min(n):
    return min(evens(n))


@njit
def count_nothing(n):
    c = 0
    for x in nothing(n):
        c += 1
    return c


@njit
def mixed_types(n):
    out = []
    for x in mixed(n):
        out.append(x)
    return out


@njit
def guarded(n):
    for i in range(n):
        try:
            if i == 2:
                raise ValueError("two")
            yield i
        except Exception:
            yield -1


@njit
def caller_raises(n):
    out = []
    try:
        for x in guarded(n):
            if x == 1:
                raise ValueError("one")
            out.append(x)
    except Exception:
        out.append(99)
    return out


@njit
def zipped(n, a):
    out = []
    for x, y in zip(evens(n), a):
        out.append(x * y)
    else:
        out.append(-1.0)
    s = 0
    for p in zip(range(10, 20), evens(n), [1, 2, 3]):
        s += p[0] * p[1] + p[2]
    return out, s


@njit
def lists_of(n, a):
    return list(range(n)), list(a), list([1, 2, 3]), list((4, 5, 6))


if __name__ == "__main__":
    for n in (0, 1, 5):
        r = total(n)
        print("total", n, type(r).__name__, r)
    print("first_over", first_over(50), first_over(0))
    print("odd_until", odd_until(9), odd_until(0))
    for n in (0, 2, 5):
        print("with_else", n, with_else(n))
    r = as_list(np.arange(4.0))
    print("as_list", type(r).__name__, type(r[0]).__name__, r)
    print("extremes", extremes(5))
    print("counted", counted(4))
    print("pair_sums", pair_sums(4))
    print("nested", nested(4))
    print("count_nothing", count_nothing(3))
    r = mixed_types(4)
    print("mixed", [type(x).__name__ for x in r], r)
    print("zipped", zipped(2, np.arange(5.0)), zipped(5, np.arange(3.0)))
    print("guarded", list(guarded(4)), caller_raises(1), caller_raises(4))
    r = lists_of(3, np.arange(2.0))
    print("lists", [type(x).__name__ for x in r], r)
    try:
        empty_min(0)
    except StopIteration as e:
        print("StopIteration", repr(e))
