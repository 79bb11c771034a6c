# Loops: range with one, two and three arguments (positive and negative steps, empty ranges,
# steps that overshoot the bound), while loops with break and continue, nested loops with an
# inner break, early return from inside a loop, a loop counter read after the loop, and a
# range whose step is zero (ValueError, as in Python).
from numba import njit
import numpy as np


@njit
def range_sum(a, b, c):
    s = 0
    n = 0
    for i in range(a, b, c):
        s += i * (n + 1)
        n += 1
    return s * 1000 + n


@njit
def range_sum2(a, b):
    s = 0
    for i in range(a, b):
        s += i
    return s


@njit
def range_sum1(n):
    s = 0
    for i in range(n):
        s = s * 3 + i
    return s


@njit
def last_index(n):
    # The loop variable keeps its last value after the loop (n >= 1).
    k = -1
    for i in range(n):
        k = i
    return k * 10 + i


@njit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@njit
def while_break(limit):
    i = 0
    s = 0
    while True:
        i += 1
        if i % 3 == 0:
            continue
        if i > limit:
            break
        s += i
    return s


@njit
def skip_odd(n):
    s = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        s += i
    return s


@njit
def first_index(a, x):
    # Early return from inside the loop.
    for i in range(a.shape[0]):
        if a[i] == x:
            return i
    return -1


@njit
def find_pair(a, target):
    # Nested loops, the inner one broken out of; the result encodes both indices.
    n = a.shape[0]
    found = -1
    for i in range(n):
        for j in range(i + 1, n):
            if a[i] + a[j] == target:
                found = i * 100 + j
                break
        if found >= 0:
            break
    return found


@njit
def primes_below(n):
    c = 0
    k = 2
    while k < n:
        d = 2
        prime = True
        while d * d <= k:
            if k % d == 0:
                prime = False
                break
            d += 1
        if prime:
            c += 1
        k += 1
    return c


@njit
def fib_steps(x):
    # A while loop updating two float variables by tuple assignment.
    a = 0.0
    b = 1.0
    n = 0
    while b < x:
        a, b = b, a + b
        n += 1
    return n


@njit
def countdown(n):
    s = 0
    for i in range(n, 0, -1):
        s = s * 2 + i
    return s


if __name__ == "__main__":
    triples = [(0, 10, 1), (0, 10, 3), (0, 10, 20), (10, 0, -1), (10, 0, -3), (10, -10, -7),
               (0, 0, 1), (5, 0, 1), (0, 5, -1), (-5, 5, 2), (-5, -15, -4), (3, 4, 100),
               (-2**40, -2**40 + 5, 1), (2**62, 2**62 - 3, -1)]
    for a, b, c in triples:
        print("range3", a, b, c, range_sum(a, b, c))
    for a, b in [(0, 5), (5, 0), (-3, 3), (7, 7), (-10, -5)]:
        print("range2", a, b, range_sum2(a, b))
    for n in [0, 1, 2, 5, -3, 30]:
        print("range1", n, range_sum1(n))
    for n in [1, 2, 10]:
        print("last_index", n, last_index(n))
    for n in [1, 2, 3, 7, 27, 97, 871]:
        print("collatz", n, collatz(n))
    for lim in [0, 1, 2, 10, 100]:
        print("while_break", lim, while_break(lim))
    for n in [0, 1, 2, 9, 10]:
        print("skip_odd", n, skip_odd(n))
    a = np.array([5, 3, 8, 3, -1, 0], dtype=np.int64)
    for x in [5, 3, -1, 0, 42]:
        print("first_index", x, first_index(a, x))
    fa = np.array([0.5, 1.5, 2.5, -0.5])
    print("first_index_f", first_index(fa, 2.5), first_index(fa, 2))
    for t in [8, 11, 13, 7, -1, 100]:
        print("find_pair", t, find_pair(a, t))
    for n in [0, 2, 3, 10, 100, 1000]:
        print("primes_below", n, primes_below(n))
    for x in [0.5, 1.0, 2.0, 100.0, 1e10]:
        print("fib_steps", x, fib_steps(x))
    for n in [0, 1, 5, 20]:
        print("countdown", n, countdown(n))
    try:
        print("range_step0", range_sum(0, 10, 0))
    except ValueError:
        print("range_step0 ValueError")
