import numpy as np
from numba import cuda, float32

TPB = 16


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit('void(float32[:, :], float32[:, :], float32[:, :])')
def matmul(A, B, C):
    """Shared-memory tiled matrix product."""
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = clamp(tmp, -1e30, 1e30)


@cuda.jit
def count(hist, data):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.size:
        cuda.atomic.add(hist, data[i] % 10, 1)
        i += stride


if __name__ == "__main__":
    a = np.ones((64, 64), dtype=np.float32)
    matmul[(4, 4), (TPB, TPB)](a, a, a)
