#!/usr/bin/env python3
"""Complex arithmetic: numjit against Numba and NumPy, side by side in one process.

Workloads (complex128 unless named):
  C1 Mandelbrot, @njit loops over a 600 x 400 grid with z = z*z + c, abs(z) > 2, 100 steps
  C2 the same as a @vectorize("int64(complex128, int64)") applied to the grid of c
  C3 a whole-array expression  np.exp(1j * a) * b + a.conjugate()  over 1e6 elements
     (NumPy: the same expression, with its temporaries)
  C4 a complex dot product loop  s += x[i] * y[i].conjugate()  over 1e6 elements (NumPy: np.vdot)
  C5 an iterated array expression  Z = Z*Z + c  (10 steps over 2e5 elements, a new Z each step)
  C6 the same as a scalar loop per element (one output array)
  C7 Julia set, @njit loops over a 600 x 400 grid of starting points, z = z*z + c for a fixed
     c = -0.8 + 0.156j, abs(z) > 2, 100 steps
  C8 the same as a @vectorize("int64(complex128, complex128, int64)") over the grid of z
Times are medians of 9 interleaved rounds after a warm-up call (which compiles), in CPU time
of the process (time.process_time: on a shared machine wall time also counts the wait for a
core; none of these workloads runs threads); the table gives microseconds per call and numjit's speed-up over the best peer.  Output: stdout and
bench/results/complex.{txt,json}.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/complex.py
"""
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = '''
import numpy as np
from numba import njit, vectorize


@njit
def mandel_grid(cr, ci, maxit, out):
    for j in range(ci.shape[0]):
        for i in range(cr.shape[0]):
            c = complex(cr[i], ci[j])
            z = 0j
            n = 0
            while n < maxit and abs(z) <= 2.0:
                z = z * z + c
                n += 1
            out[j, i] = n


@vectorize(["int64(complex128, int64)"])
def mandel_point(c, maxit):
    z = 0j
    n = 0
    while n < maxit and abs(z) <= 2.0:
        z = z * z + c
        n += 1
    return n


@njit
def julia_grid(xr, yi, c, maxit, out):
    for j in range(yi.shape[0]):
        for i in range(xr.shape[0]):
            z = complex(xr[i], yi[j])
            n = 0
            while n < maxit and abs(z) <= 2.0:
                z = z * z + c
                n += 1
            out[j, i] = n


@vectorize(["int64(complex128, complex128, int64)"])
def julia_point(z, c, maxit):
    n = 0
    while n < maxit and abs(z) <= 2.0:
        z = z * z + c
        n += 1
    return n


@njit
def expr(a, b):
    return np.exp(1j * a) * b + a.conjugate()


@njit
def zz_expr(z, c, k):
    for _ in range(k):
        z = z * z + c
    return z


@njit
def zz_loop(z, c, k):
    out = np.empty_like(z)
    for i in range(z.shape[0]):
        w = z[i]
        ci = c[i]
        for _ in range(k):
            w = w * w + ci
        out[i] = w
    return out


@njit
def cdot(x, y):
    s = 0j
    for i in range(x.shape[0]):
        s += x[i] * y[i].conjugate()
    return s
'''


def load(tmp, lib):
    return load_under(tmp, lib, WORKLOADS, "cx")


def timeit_all(thunks, rounds=9):
    for fn in thunks.values():
        fn()
    ts = {k: [] for k in thunks}
    for _ in range(rounds):
        for k, fn in thunks.items():
            t0 = time.process_time()
            fn()
            ts[k].append(time.process_time() - t0)
    return {k: statistics.median(v) for k, v in ts.items()}


def main():
    import numba
    import numjit
    tmp = tempfile.mkdtemp(prefix="nj_cx_")
    nb, nj = load(tmp, "numba"), load(tmp, "numjit")
    rng = np.random.default_rng(5)
    w, h, maxit = 600, 400, 100
    cr = np.linspace(-2.0, 1.0, w)
    ci = np.linspace(-1.2, 1.2, h)
    grid = cr[None, :] + 1j * ci[:, None]
    out = {k: np.zeros((h, w), np.int32) for k in ("nb", "nj")}
    n = 1_000_000
    a = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)

    def np_mandel():
        c = grid
        z = np.zeros_like(c)
        cnt = np.zeros(c.shape, np.int32)
        alive = np.ones(c.shape, bool)
        for _ in range(maxit):
            alive &= np.abs(z) <= 2.0
            z = np.where(alive, z * z + c, z)
            cnt += alive
        return cnt

    xr = np.linspace(-1.6, 1.6, w)
    yi = np.linspace(-1.0, 1.0, h)
    zgrid = xr[None, :] + 1j * yi[:, None]
    cj = -0.8 + 0.156j

    m = 200_000
    z0 = (rng.standard_normal(m) + 1j * rng.standard_normal(m)) * 0.1
    c0 = (rng.standard_normal(m) + 1j * rng.standard_normal(m)) * 0.1

    def np_zz():
        z = z0
        for _ in range(10):
            z = z * z + c0
        return z

    cases = {
        "C1 Mandelbrot @njit": {
            "numpy": np_mandel,
            "numba": lambda: nb.mandel_grid(cr, ci, maxit, out["nb"]),
            "numjit": lambda: nj.mandel_grid(cr, ci, maxit, out["nj"]),
        },
        "C2 Mandelbrot @vectorize": {
            "numba": lambda: nb.mandel_point(grid, maxit),
            "numjit": lambda: nj.mandel_point(grid, maxit),
        },
        "C3 exp(1j*a)*b + conj(a)": {
            "numpy": lambda: np.exp(1j * a) * b + a.conjugate(),
            "numba": lambda: nb.expr(a, b),
            "numjit": lambda: nj.expr(a, b),
        },
        "C4 complex dot loop": {
            "numpy": lambda: np.vdot(b, a),
            "numba": lambda: nb.cdot(a, b),
            "numjit": lambda: nj.cdot(a, b),
        },
        "C5 Z = Z*Z + c arrays": {
            "numpy": np_zz,
            "numba": lambda: nb.zz_expr(z0, c0, 10),
            "numjit": lambda: nj.zz_expr(z0, c0, 10),
        },
        "C6 Z = Z*Z + c loop": {
            "numba": lambda: nb.zz_loop(z0, c0, 10),
            "numjit": lambda: nj.zz_loop(z0, c0, 10),
        },
        "C7 Julia @njit": {
            "numba": lambda: nb.julia_grid(xr, yi, cj, maxit, out["nb"]),
            "numjit": lambda: nj.julia_grid(xr, yi, cj, maxit, out["nj"]),
        },
        "C8 Julia @vectorize": {
            "numba": lambda: nb.julia_point(zgrid, cj, maxit),
            "numjit": lambda: nj.julia_point(zgrid, cj, maxit),
        },
    }
    # the answers agree first
    nb.mandel_grid(cr, ci, maxit, out["nb"])
    nj.mandel_grid(cr, ci, maxit, out["nj"])
    assert (out["nb"] == out["nj"]).all()
    assert (nb.mandel_point(grid, maxit) == nj.mandel_point(grid, maxit)).all()
    assert np.allclose(nb.expr(a, b), nj.expr(a, b), rtol=1e-13)
    assert nb.cdot(a, b) == nj.cdot(a, b)
    assert np.allclose(nb.zz_expr(z0, c0, 10), nj.zz_expr(z0, c0, 10), rtol=1e-13)
    assert np.allclose(nb.zz_loop(z0, c0, 10), nj.zz_loop(z0, c0, 10), rtol=1e-13)
    nb.julia_grid(xr, yi, cj, maxit, out["nb"])
    nj.julia_grid(xr, yi, cj, maxit, out["nj"])
    assert (out["nb"] == out["nj"]).all()
    assert (nb.julia_point(zgrid, cj, maxit) == nj.julia_point(zgrid, cj, maxit)).all()

    lines = [f"Numba {numba.__version__}, numjit {numjit.library_version()}, NumPy "
             f"{np.__version__}; CPU microseconds per call (median of 9 rounds)",
             f"{'workload':<28}{'numpy':>12}{'numba':>12}{'numjit':>12}  vs Numba  vs best peer"]
    rows = []
    for name, th in cases.items():
        res = timeit_all(th)
        peers = [v for k, v in res.items() if k != "numjit"]
        ratio = min(peers) / res["numjit"]
        lines.append(f"{name:<28}" + "".join(
            f"{res[k] * 1e6:>12.1f}" if k in res else f"{'-':>12}"
            for k in ("numpy", "numba", "numjit"))
            + f"{res['numba'] / res['numjit']:>9.2f}x{ratio:>12.2f}x")
        rows.append({"workload": name, **{k: v for k, v in res.items()}})
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "complex.txt"), "w") as fh:
        fh.write(text + "\n")
    with open(os.path.join(HERE, "results", "complex.json"), "w") as fh:
        json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
