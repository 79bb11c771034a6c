"""Complex-number kernels for tests/gpu/test_complex_gpu.py, written for numba-cuda."""
import cmath
import numpy as np
from numba import cuda

@cuda.jit
def kc(a, out, mag):
    i = cuda.grid(1)
    if i < a.shape[0]:
        z = a[i]
        w = z * z + 1j
        out[i] = cmath.exp(w) / (z + 2)
        mag[i] = abs(w) + out[i].real

@cuda.jit
def mandel(img, w, h, maxit):
    x, y = cuda.grid(2)
    if x < w and y < h:
        c = complex(-2.0 + 3.0 * x / w, -1.5 + 3.0 * y / h)
        z = 0j
        n = 0
        while n < maxit and abs(z) <= 2.0:
            z = z * z + c
            n += 1
        img[y, x] = n
