#!/usr/bin/env python3
"""np.linalg's decompositions: numjit's own kernels (runtime/linalg_decomp.c, linalg_eig.c)
against Numba 0.56, which calls SciPy's LAPACK, side by side in one process.

Workloads, float64, each an @njit function of one random matrix of order n (n = 8, 32, 128):
  eigh   np.linalg.eigh of a symmetric matrix        (numjit: tridiagonal + implicit QL)
  svd    np.linalg.svd(a, False)                      (numjit: bidiagonal + Golub-Kahan)
  qr     np.linalg.qr                                 (numjit: Householder, as dgeqr2/dorg2r)
  eig    np.linalg.eig of a matrix with real spectrum (numjit: Hessenberg + double-shift QR,
                                                       inverse iteration)
  lstsq  np.linalg.lstsq(a, b) with a (2n x n)        (numjit: through the SVD)
  pinv   np.linalg.pinv                               (numjit: through the SVD)
Times are medians of 7 interleaved rounds after a warm-up call (which compiles), in CPU time
of the process (time.process_time); the table gives microseconds per call and Numba's time
over numjit's (above 1: numjit is faster).  LAPACK's divide and conquer and blocked BLAS pull
ahead as n grows.  Output: stdout and
bench/results/linalg.{txt,json}.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/linalg.py [n ...]
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
from numba import njit


@njit
def eigh(a, b):
    return np.linalg.eigh(a)[0][0]


@njit
def svd(a, b):
    return np.linalg.svd(a, False)[1][0]


@njit
def qr(a, b):
    return np.linalg.qr(a)[1][0, 0]


@njit
def eig(a, b):
    return np.linalg.eig(a)[0][0]


@njit
def lstsq(a, b):
    return np.linalg.lstsq(b, a[:, 0].copy().repeat(2))[0][0]


@njit
def pinv(a, b):
    return np.linalg.pinv(a)[0, 0]
'''

NAMES = ["eigh", "svd", "qr", "eig", "lstsq", "pinv"]


def operands(name, n, rng):
    a = rng.standard_normal((n, n))
    if name == "eigh":
        a = a + a.T
    if name == "eig":  # a real spectrum: a similarity transform of a diagonal matrix
        q, _ = np.linalg.qr(a)
        a = q @ np.diag(np.arange(1.0, n + 1)) @ q.T + np.triu(a, 1) * 1e-3
    return a, rng.standard_normal((2 * n, n))



def main(sizes):
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        mods = {lib: load_under(tmp, lib, WORKLOADS, "linalg_bench") for lib in ("numba", "numjit")}
        rows = []
        for n in sizes:
            for name in NAMES:
                args = operands(name, n, rng)
                reps = max(1, int(2e6 // (n ** 3 + 1)))
                times = {lib: [] for lib in mods}
                for lib, mod in mods.items():
                    getattr(mod, name)(*args)  # compile
                for _ in range(7):
                    for lib, mod in mods.items():
                        f = getattr(mod, name)
                        t = time.process_time()
                        for _ in range(reps):
                            f(*args)
                        times[lib].append((time.process_time() - t) / reps)
                us = {lib: statistics.median(v) * 1e6 for lib, v in times.items()}
                rows.append({"workload": name, "n": n, "numba_us": us["numba"],
                             "numjit_us": us["numjit"], "ratio": us["numba"] / us["numjit"]})
                r = rows[-1]
                print(f"{name:6s} n={n:4d}  numba {r['numba_us']:12.1f} us  numjit "
                      f"{r['numjit_us']:12.1f} us  numba/numjit {r['ratio']:6.2f}", flush=True)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "linalg.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
    with open(os.path.join(HERE, "results", "linalg.txt"), "w") as fh:
        for r in rows:
            fh.write(f"{r['workload']:6s} n={r['n']:4d}  numba {r['numba_us']:12.1f} us  numjit "
                     f"{r['numjit_us']:12.1f} us  numba/numjit {r['ratio']:6.2f}\n")


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [8, 32, 128])
