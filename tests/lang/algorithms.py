# Small complete algorithms combining the pieces: in-place insertion sort on int and float
# arrays (also through a reversed view), binary search, prefix sums, a sieve on a bool array,
# matrix-vector product over a Fortran array, Mandelbrot escape counts on a grid, Horner's
# rule, and a 1-D heat-equation time stepper that swaps two array variables each step.
from numba import njit
import numpy as np
import math


@njit
def insertion_sort(a):
    for i in range(1, a.shape[0]):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key


@njit
def bsearch(a, x):
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def prefix_sum(a, out):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s


@njit
def sieve(is_prime):
    n = is_prime.shape[0]
    for i in range(n):
        is_prime[i] = i >= 2
    i = 2
    while i * i < n:
        if is_prime[i]:
            for j in range(i * i, n, i):
                is_prime[j] = False
        i += 1
    c = 0
    for i in range(n):
        if is_prime[i]:
            c += 1
    return c


@njit
def matvec(m, v, out):
    n, k = m.shape
    for i in range(n):
        out[i] = 0.0
    for j in range(k):
        for i in range(n):
            out[i] += m[i, j] * v[j]


@njit
def mandel(cr, ci, maxit):
    zr = 0.0
    zi = 0.0
    for it in range(maxit):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return it
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return maxit


@njit
def mandel_grid(out, x0, x1, y0, y1, maxit):
    h, w = out.shape
    for y in range(h):
        ci = y0 + (y1 - y0) * y / (h - 1)
        for x in range(w):
            cr = x0 + (x1 - x0) * x / (w - 1)
            out[y, x] = mandel(cr, ci, maxit)


@njit
def horner(coef, x):
    r = 0.0
    for i in range(coef.shape[0] - 1, -1, -1):
        r = r * x + coef[i]
    return r


@njit
def heat(u, tmp, steps, k):
    n = u.shape[0]
    a = u
    b = tmp
    for s in range(steps):
        b[0] = a[0]
        b[n - 1] = a[n - 1]
        for i in range(1, n - 1):
            b[i] = a[i] + k * (a[i - 1] - 2.0 * a[i] + a[i + 1])
        c = a
        a = b
        b = c
    e = 0.0
    for i in range(n):
        e += a[i] * a[i]
    return math.sqrt(e)


if __name__ == "__main__":
    rng = np.random.RandomState(3)
    ai = rng.randint(-100, 100, size=25)
    insertion_sort(ai)
    print("sort_int", ai.tolist())
    af = rng.standard_normal(15)
    v = af.copy()
    insertion_sort(v[::-1])
    print("sort_rev_view", [repr(x) for x in v.tolist()])
    a32 = rng.randint(0, 1000, size=20).astype(np.int32)
    insertion_sort(a32)
    for x in [-5, 0, a32[0], a32[7], a32[19], 999, 1000]:
        print("bsearch", int(x), bsearch(a32, x))
    p = np.zeros(10, dtype=np.int64)
    prefix_sum(np.arange(10, dtype=np.int8) * 13, p)
    print("prefix_sum", p.tolist())
    pf = np.zeros(6)
    prefix_sum(np.array([0.1, 0.2, 0.3, -0.6, 1e16, 1.0]), pf)
    print("prefix_sum_f", [repr(x) for x in pf.tolist()])
    for n in [0, 2, 3, 30, 1000]:
        ip = np.zeros(n, dtype=np.bool_)
        print("sieve", n, sieve(ip), ip[:30].tolist())
    m = np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4) / 7.0)
    out = np.zeros(3)
    matvec(m, np.array([1.0, -2.0, 0.5, 3.0]), out)
    print("matvec", [repr(x) for x in out.tolist()])
    grid = np.zeros((12, 24), dtype=np.int32)
    mandel_grid(grid, -2.0, 0.6, -1.2, 1.2, 60)
    for row in grid.tolist():
        print("mandel", row)
    coef = np.array([1.0, -3.0, 0.0, 2.0, 0.5])
    for x in [0.0, 1.0, -1.0, 2.5, -3.25]:
        print("horner", repr(x), repr(horner(coef, x)))
    u = np.zeros(21)
    u[10] = 1.0
    tmp = np.zeros(21)
    print("heat", repr(heat(u, tmp, 50, 0.25)))
    print("heat_state", [repr(x) for x in u[5:16].tolist()])
