#!/usr/bin/env python3
"""Complex arithmetic on the GPU: a Mandelbrot kernel written with complex numbers
(tests/gpu/complex_kernels.py's `mandel`) compiled by numjit and by numba-cuda, timed side by
side in one process (kernel time by CUDA events, median of 21 launches after a warm-up), plus
the first call (compile + launch) of each.  Needs a GPU; numba-cuda is optional.
Usage: PYTHONPATH=<numjit>/python python3 bench/gpu_complex.py
"""
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import load_file_under  # noqa: E402

KERNELS = os.path.join(HERE, "..", "tests", "gpu", "complex_kernels.py")


def load(lib):
    if lib != "numjit":
        np.row_stack = np.vstack  # numba-cuda under NumPy 2.x
    return load_file_under(lib, KERNELS, f"gpu_complex_{lib}")


def bench(lib, w, h, maxit):
    mod = load(lib)
    cuda = sys.modules["numjit"].cuda if lib == "numjit" else __import__("numba").cuda
    img = cuda.device_array((h, w), dtype=np.int32)
    grid, block = ((w + 15) // 16, (h + 15) // 16), (16, 16)
    t0 = time.perf_counter()
    mod.mandel[grid, block](img, w, h, maxit)
    cuda.synchronize()
    first = time.perf_counter() - t0
    ts = []
    for _ in range(21):
        a, b = cuda.event(), cuda.event()
        a.record()
        mod.mandel[grid, block](img, w, h, maxit)
        b.record()
        b.synchronize()
        ts.append(cuda.event_elapsed_time(a, b))
    return statistics.median(ts), first, img.copy_to_host()


def main():
    w, h, maxit = 4096, 4096, 256
    res = {}
    for lib in ("numjit", "numba"):
        try:
            res[lib] = bench(lib, w, h, maxit)
        except Exception as e:  # numba-cuda missing or failing: numjit alone
            print(f"{lib}: {type(e).__name__}: {e}")
    print(f"Mandelbrot {w}x{h}, {maxit} steps, complex128 arithmetic")
    for lib, (ms, first, _) in res.items():
        print(f"  {lib:<7} kernel {ms:8.3f} ms (median of 21)   first call {first * 1e3:8.1f} ms")
    if len(res) == 2:
        a, b = res["numjit"][2], res["numba"][2]
        print(f"  images differ in {(a != b).mean() * 100:.4f}% of pixels; numba/numjit kernel "
              f"time {res['numba'][0] / res['numjit'][0]:.2f}x")


if __name__ == "__main__":
    main()
