# Loops with an `else:` clause: it runs when the loop ends by its test (range exhausted, while
# condition false, zero iterations included) and is skipped by `break`; a `break` inside the
# else clause belongs to the enclosing loop; `continue` does not skip it; a `return` inside
# the loop leaves before it.
from numba import njit
import numpy as np


@njit
def find_or_minus(a, t):
    for i in range(a.shape[0]):
        if a[i] == t:
            break
    else:
        return -1
    return i


@njit
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            break
        d += 1
    else:
        return True
    return False


@njit
def count_else(n):
    # the else clause runs once per outer iteration whose inner loop did not break
    c = 0
    for i in range(n):
        for j in range(i):
            if j == 3:
                break
        else:
            c += 10
        c += 1
    return c


@njit
def else_breaks_outer(n):
    k = 0
    while k < n:
        for j in range(2):
            k += 1
        else:
            if k >= 5:
                break
    return k


@njit
def skip_evens(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        s += i
    else:
        s = -s
    return s


@njit
def early_return(a):
    for i in range(a.shape[0]):
        if a[i] < 0:
            return i
    else:
        return 100
    return -5


if __name__ == "__main__":
    a = np.array([4, 8, 15, 16, 23, 42])
    for t in [4, 23, 42, 7]:
        print("find_or_minus", t, find_or_minus(a, t))
    print("find_empty", find_or_minus(np.zeros(0, dtype=np.int64), 1))
    print("is_prime", [n for n in range(40) if is_prime(n)])
    for n in [0, 1, 3, 5, 8]:
        print("count_else", n, count_else(n))
    for n in [0, 1, 4, 9]:
        print("else_breaks_outer", n, else_breaks_outer(n))
    for n in [0, 1, 6, 7]:
        print("skip_evens", n, skip_evens(n))
    print("early_return", early_return(np.array([1.0, -2.0])), early_return(np.array([1.0])))
