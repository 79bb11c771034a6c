#!/usr/bin/env python3
"""NumPy functions inside @njit code: numjit against Numba (and NumPy called from Python),
side by side in one process.

Workloads (float64 unless named):
  sort        np.sort(a), a of 1e6 random values
  argsort     np.argsort(a), the same a
  median      np.median(a)
  mask        a[a > 0.5], 1e6 elements (a new array of about half of them)
  take        a[idx], 1e6 random int64 indices
  concatenate np.concatenate((a, b)), two 1e6 arrays
  matmul      A @ B, 512 x 512 (Numba calls the BLAS its SciPy has: on Debian the reference
              BLAS, far from a tuned one; NumPy's column shows what NumPy's BLAS does)
  solve       np.linalg.solve(A, B), 256 x 256 and 256 right-hand sides
Each figure is the median of 9 interleaved rounds (each round times every column once, after
a warm-up call that compiles), in milliseconds; the last column is Numba / numjit.
Output: stdout and bench/results/njit_numpy.txt.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/njit_numpy.py
"""
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
def sort(a):
    return np.sort(a)


@njit
def argsort(a):
    return np.argsort(a)


@njit
def median(a):
    return np.median(a)


@njit
def mask(a):
    return a[a > 0.5]


@njit
def take(a, idx):
    return a[idx]


@njit
def concatenate(a, b):
    return np.concatenate((a, b))


@njit
def matmul(a, b):
    return a @ b


@njit
def solve(a, b):
    return np.linalg.solve(a, b)
'''


def load(tmp, lib):
    return load_under(tmp, lib, WORKLOADS, "nn")


def main():
    import numba
    import numjit
    tmp = tempfile.mkdtemp(prefix="nj_nn_")
    nb, nj = load(tmp, "numba"), load(tmp, "numjit")
    rng = np.random.default_rng(9)
    n = 1_000_000
    a, b = rng.random(n), rng.random(n)
    idx = rng.integers(0, n, n)
    A, B = rng.random((512, 512)), rng.random((512, 512))
    S = rng.random((256, 256)) + 256 * np.eye(256)
    R = rng.random((256, 256))
    cases = {
        "sort": ((a,), np.sort),
        "argsort": ((a,), np.argsort),
        "median": ((a,), np.median),
        "mask": ((a,), lambda x: x[x > 0.5]),
        "take": ((a, idx), lambda x, i: x[i]),
        "concatenate": ((a, b), lambda x, y: np.concatenate((x, y))),
        "matmul": ((A, B), lambda x, y: x @ y),
        "solve": ((S, R), np.linalg.solve),
    }
    lines = [f"Numba {numba.__version__}, numjit {numjit.library_version()}, NumPy "
             f"{np.__version__}; milliseconds per call (median of 9 interleaved rounds)",
             f"{'workload':<14}{'numpy':>10}{'numba':>10}{'numjit':>10}   numba/numjit"]
    for name, (args, np_fn) in cases.items():
        fns = {"numpy": lambda: np_fn(*args), "numba": lambda: getattr(nb, name)(*args),
               "numjit": lambda: getattr(nj, name)(*args)}
        r_nb, r_nj = fns["numba"](), fns["numjit"]()
        assert np.allclose(r_nb, r_nj, rtol=1e-10, atol=1e-10), name
        ts = {k: [] for k in fns}
        for _ in range(9):
            for k, fn in fns.items():
                t0 = time.perf_counter()
                fn()
                ts[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) * 1e3 for k, v in ts.items()}
        lines.append(f"{name:<14}{med['numpy']:>10.2f}{med['numba']:>10.2f}{med['numjit']:>10.2f}"
                     f"   {med['numba'] / med['numjit']:.2f}x")
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "njit_numpy.txt"), "w") as fh:
        fh.write(text + "\n")


if __name__ == "__main__":
    main()
