"""rel_diff.py — numjit from Python: a vector kernel and a loop-heavy function, checked against
NumPy and plain Python.

    PYTHONPATH=build/python /usr/bin/python3 examples/rel_diff.py [n]

rel_diff computes 2*(x-y)/(x+y) elementwise over two arrays into a third (memory bound: it
should run at the speed of NumPy's expression or better, without NumPy's temporaries);
mandel_count counts Mandelbrot iterations over a grid (compute bound: plain Python is ~100x
slower).  The program prints each result, its check, and the time of the first call (which
compiles) and of later calls.  It is also a Numba program: replace the import by
`from numba import njit` and it runs unchanged.
"""
import sys
import time

import numpy as np

from numjit import njit


@njit
def rel_diff(x, y, out):
    for i in range(x.shape[0]):
        out[i] = 2.0 * (x[i] - y[i]) / (x[i] + y[i])


@njit
def mandel_count(width, height, max_iter):
    total = 0
    for py in range(height):
        ci = -1.25 + 2.5 * py / height
        for px in range(width):
            cr = -2.0 + 2.5 * px / width
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                n += 1
            total += n
    return total


def timed(f, *args):
    t0 = time.perf_counter()
    r = f(*args)
    return r, time.perf_counter() - t0


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    rng = np.random.default_rng(42)
    x = rng.uniform(1.0, 2.0, n)
    y = rng.uniform(1.0, 2.0, n)
    out = np.empty_like(x)
    ok = True

    _, first = timed(rel_diff, x, y, out)
    _, again = timed(rel_diff, x, y, out)
    want, t_np = timed(lambda: 2 * (x - y) / (x + y))
    err = float(np.max(np.abs(out - want)))
    ok &= err <= 1e-15
    print(f"rel_diff     n={n}: first call {first * 1e3:8.2f} ms, then {again * 1e3:7.2f} ms "
          f"(NumPy {t_np * 1e3:7.2f} ms); max |numjit - NumPy| = {err:.1e}")

    got, first = timed(mandel_count, 400, 300, 200)
    _, again = timed(mandel_count, 400, 300, 200)
    small = mandel_count(40, 30, 50)
    want_small, t_py = timed(mandel_count.py_func, 40, 30, 50)
    ok &= small == want_small
    print(f"mandel_count 400x300: {got} iterations; first call {first * 1e3:8.2f} ms, then "
          f"{again * 1e3:7.2f} ms; 40x30 equals Python's ({small} == {want_small}) "
          f"[Python took {t_py * 1e3:.1f} ms for 40x30]")

    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
