"""ufuncs_and_kernels.py — a Numba program that numjit runs unchanged: a ufunc with two
signatures on all CPU threads, a gufunc, an @njit function that creates and returns arrays,
and, where a GPU is present, the same ufunc on the GPU and a Monte Carlo kernel with
numba.cuda.random.

    PYTHONPATH=build/python /usr/bin/python3 examples/ufuncs_and_kernels.py

The first two lines make `numba` mean numjit; delete them and the file runs under Numba (and
numba-cuda) with the same results.  Every result is checked against NumPy.
"""
import numjit
numjit.install_as_numba()

import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from numba import cuda, guvectorize, njit, vectorize  # noqa: E402
from numba.cuda.random import (create_xoroshiro128p_states,  # noqa: E402
                               xoroshiro128p_uniform_float32)


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="parallel")
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def row_dot(a, b, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s


@njit
def normalize_rows(m):
    out = np.empty_like(m)
    norms = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        row = m[i]
        norms[i] = math.sqrt(np.dot(row, row))
        for j in range(m.shape[1]):
            out[i, j] = m[i, j] / norms[i]
    return out, norms


@vectorize(["float32(float32, float32)"], target="cuda")
def rel_diff_gpu(x, y):
    return 2 * (x - y) / (x + y)


@cuda.jit
def compute_pi(rng_states, iterations, out):
    i = cuda.grid(1)
    inside = 0
    for _ in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, i)
        y = xoroshiro128p_uniform_float32(rng_states, i)
        if x * x + y * y <= 1.0:
            inside += 1
    out[i] = 4.0 * inside / iterations


def timed(label, fn):
    t = time.perf_counter()
    r = fn()
    print(f"{label}: {(time.perf_counter() - t) * 1e3:.2f} ms")
    return r


def main():
    rng = np.random.default_rng(0)
    x = rng.random(2_000_000) + 0.5
    y = rng.random(2_000_000) + 0.5
    r = timed("rel_diff, first call (compiles)", lambda: rel_diff(x, y))
    r = timed("rel_diff, second call", lambda: rel_diff(x, y))
    assert np.allclose(r, 2 * (x - y) / (x + y))
    a = rng.random((1000, 64))
    d = timed("row_dot (gufunc), first call", lambda: row_dot(a, a))
    assert np.allclose(d, (a * a).sum(1))
    out, norms = timed("normalize_rows (@njit, returns arrays)", lambda: normalize_rows(a))
    assert np.allclose(norms, np.linalg.norm(a, axis=1))
    assert np.allclose(out, a / norms[:, None])
    print("CPU results match NumPy")

    if not cuda.is_available():
        print("no GPU here: the GPU part is skipped")
        return
    xf, yf = x.astype(np.float32), y.astype(np.float32)
    g = timed("rel_diff on the GPU, first call", lambda: rel_diff_gpu(xf, yf))
    assert np.allclose(g, 2 * (xf - yf) / (xf + yf), rtol=1e-6)
    threads, blocks = 256, 256
    states = create_xoroshiro128p_states(threads * blocks, seed=1)
    est = np.zeros(threads * blocks, dtype=np.float32)
    timed("compute_pi kernel, first launch", lambda: compute_pi[blocks, threads](states, 1000, est))
    print(f"pi ~ {est.mean():.5f}")
    assert abs(est.mean() - math.pi) < 0.01
    print("GPU results match")


if __name__ == "__main__":
    main()
