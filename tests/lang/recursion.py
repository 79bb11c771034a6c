# Recursive functions, typed as Numba 0.56 types them (from the returns that do not recurse):
# self-recursion on ints and floats (the return type widened by the recursive path), a base
# case written after the recursive one, mutual recursion, recursion returning tuples and new
# arrays, a function returning nothing that recurses over an array, an entry called
# recursively with arrays it made, an exception raised at depth, and quicksort, in place on
# index ranges and on slices (views) of the array.
from numba import njit
import numpy as np


@njit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@njit
def halve(n):
    if n > 0:
        return halve(n - 1) * 0.5
    return 1


@njit
def is_even(n):
    if n > 0:
        return is_odd(n - 1)
    return True


@njit
def is_odd(n):
    if n > 0:
        return is_even(n - 1)
    return False


@njit
def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


@njit
def power_pair(n):
    if n == 0:
        return (0, 1.0)
    k, x = power_pair(n - 1)
    return (k + 1, x * 2)


@njit
def layers(n):
    if n == 0:
        return np.zeros(3)
    r = layers(n - 1)
    return r + n


@njit
def bump(a, n):
    if n == 0:
        return a
    return bump(a + 1.0, n - 1)


@njit
def fill_squares(a, i):
    if i < a.shape[0]:
        a[i] = i * i
        fill_squares(a, i + 1)


@njit
def countdown(n):
    if n == 0:
        return 1 // n
    return countdown(n - 1) + 1


@njit
def partition(a, lo, hi):
    p = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < p:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


@njit
def quicksort(a, lo, hi):
    if lo < hi:
        p = partition(a, lo, hi)
        quicksort(a, lo, p - 1)
        quicksort(a, p + 1, hi)


@njit
def quicksort_views(v):
    if v.shape[0] <= 1:
        return
    p = partition(v, 0, v.shape[0] - 1)
    quicksort_views(v[:p])
    quicksort_views(v[p + 1:])


@njit
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


if __name__ == "__main__":
    print("fib", fib(0), fib(1), fib(20), fib(25))
    print("halve", halve(0), halve(3), halve(10))
    print("parity", is_even(0), is_even(11), is_odd(11), is_even(1000))
    print("gcd", gcd(1071, 462), gcd(17, 5), gcd(0, 9))
    print("power_pair", power_pair(0), power_pair(10))
    print("layers", layers(0).tolist(), layers(5).tolist())
    print("bump", bump(np.arange(3.0), 4).tolist())
    sq = np.zeros(7, dtype=np.int64)
    fill_squares(sq, 0)
    print("fill_squares", sq.tolist())
    try:
        countdown(40)
    except ZeroDivisionError:
        print("countdown ZeroDivisionError")
    print("ackermann", ackermann(2, 3), ackermann(3, 3))
    rng = np.random.RandomState(7)
    for size in (0, 1, 2, 17, 500):
        x = rng.randint(0, 100, size).astype(np.float64)
        y = x.copy()
        quicksort(y, 0, y.shape[0] - 1)
        z = x.copy()
        quicksort_views(z)
        print("quicksort", size, bool(np.array_equal(y, np.sort(x))),
              bool(np.array_equal(z, np.sort(x))), y[:5].tolist())
