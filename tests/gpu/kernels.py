"""Kernels shared by numjit's CUDA tests: valid numba-cuda source, one kernel per feature.

tests/unit/test_kernel.c types each of them and checks its PTX (no GPU needed);
tests/gpu/test_kernel_launch.c and tests/gpu/test_kernels.py launch them on a GPU and compare
with NumPy.  The same file runs under numba-cuda unchanged (the differential oracle).
"""
import math

import numpy as np
from numba import cuda, float32, float64, int32

TPB = 16      # tile width of the shared-memory matmul
BLOCK = 128   # threads per block of the block reduction


@cuda.jit
def axpy(a, x, y):
    """1-D grid: y = a * x + y."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = a * x[i] + y[i]


@cuda.jit
def add2d(a, b, out):
    """2-D grid: out = a + 2 * b."""
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + 2 * b[i, j]


@cuda.jit
def scale_stride(x, out, s):
    """Grid-stride loop: out = x * s over any n with any grid."""
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, x.shape[0], step):
        out[i] = x[i] * s


@cuda.jit
def matmul(A, B, C):
    """C = A @ B in float32, TPB x TPB tiles through shared memory."""
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def block_sum(x, out):
    """Block reduction with syncthreads: out[b] = sum of block b's BLOCK elements."""
    buf = cuda.shared.array(BLOCK, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.shape[0]:
        buf[tid] = x[i]
    else:
        buf[tid] = 0
    cuda.syncthreads()
    s = BLOCK // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = buf[0]


@cuda.jit
def histogram(x, bins):
    """Atomic histogram of uint8 values into int32 bins."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(bins, x[i], 1)


@cuda.jit
def atomic_minmax(x, out):
    """out[0] = max(x), out[1] = min(x) through atomics (float64)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.max(out, 0, x[i])
        cuda.atomic.min(out, 1, x[i])


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit(device=True)
def poly(x):
    return 1.0 + x * (0.5 + x * 0.25)


@cuda.jit
def apply_dev(x, out):
    """Device functions that return values: out = clamp(poly(x), -2, 2)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = clamp(poly(x[i]), -2.0, 2.0)


@cuda.jit
def local_rev(x, out):
    """A per-thread local array: each row of 4 reversed."""
    tmp = cuda.local.array(4, float64)
    i = cuda.grid(1)
    if i < x.shape[0]:
        for k in range(4):
            tmp[k] = x[i, k]
        for k in range(4):
            out[i, k] = tmp[3 - k]


@cuda.jit(fastmath=True)
def fast_f32(x, out):
    """float32 math with fastmath: no float64 anywhere in the PTX."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = math.sin(x[i]) * math.exp(x[i]) + math.sqrt(x[i])


@cuda.jit
def trig64(x, out):
    """float64 libdevice math: out = sin(x)**2 + cos(x)**2 - 1 + tanh(x)."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        s = math.sin(x[i])
        c = math.cos(x[i])
        out[i] = s * s + c * c - 1.0 + math.tanh(x[i])


@cuda.jit('void(float32[:], float32[:])')
def sig_copy(x, out):
    """An explicit signature: compiled when declared."""
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i]


@cuda.jit
def scalars(out, n, f, flag):
    """Scalar arguments of several kinds: out[i] = i * n + f, negated when flag."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        v = i * n + f
        if flag:
            v = -v
        out[i] = v


@cuda.jit
def idx3d(out):
    """3-D grid: out[z, y, x] = the linear thread number."""
    x, y, z = cuda.grid(3)
    if z < out.shape[0] and y < out.shape[1] and x < out.shape[2]:
        out[z, y, x] = (z * out.shape[1] + y) * out.shape[2] + x



@cuda.jit
def row_stats(a, out):
    """Views and reductions in a kernel: each thread sums its row without the first element
    and adds the row's last element (a reversed view) and its maximum."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        row = a[i]
        out[i] = row[1:].sum() + row[::-1][0] + row.max()
