#!/usr/bin/env python3
"""Complex arithmetic: numjit against Numba and NumPy, side by side in one process.

Workloads (complex128 unless named):
  C1 Mandelbrot, @njit loops over a 600 x 400 grid with z = z*z + c, abs(z) > 2, 100 steps
  C2 the same as a @vectorize("int64(complex128, int64)") applied to the grid of c
  C3 a whole-array expression  np.exp(1j * a) * b + a.conjugate()  over 1e6 elements
     (NumPy: the same expression, with its temporaries)
  C4 a complex dot product loop  s += x[i] * y[i].conjugate()  over 1e6 elements (NumPy: np.vdot)
Times are medians of 9 interleaved rounds after a warm-up call (which compiles); the table
gives microseconds per call and numjit's speed-up over the best peer.  Output: stdout and
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
def expr(a, b):
    return np.exp(1j * a) * b + a.conjugate()


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
            t0 = time.perf_counter()
            fn()
            ts[k].append(time.perf_counter() - t0)
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
    }
    # the answers agree first
    nb.mandel_grid(cr, ci, maxit, out["nb"])
    nj.mandel_grid(cr, ci, maxit, out["nj"])
    assert (out["nb"] == out["nj"]).all()
    assert (nb.mandel_point(grid, maxit) == nj.mandel_point(grid, maxit)).all()
    assert np.allclose(nb.expr(a, b), nj.expr(a, b), rtol=1e-13)
    assert nb.cdot(a, b) == nj.cdot(a, b)

    lines = [f"Numba {numba.__version__}, numjit {numjit.library_version()}, NumPy "
             f"{np.__version__}; microseconds per call (median of 9 rounds)",
             f"{'workload':<28}{'numpy':>12}{'numba':>12}{'numjit':>12}   numjit vs best peer"]
    rows = []
    for name, th in cases.items():
        res = timeit_all(th)
        peers = [v for k, v in res.items() if k != "numjit"]
        ratio = min(peers) / res["numjit"]
        lines.append(f"{name:<28}" + "".join(
            f"{res[k] * 1e6:>12.1f}" if k in res else f"{'-':>12}"
            for k in ("numpy", "numba", "numjit")) + f"   {ratio:.2f}x")
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
