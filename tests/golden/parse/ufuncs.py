import math
import numpy as np
from numba import vectorize, guvectorize, float64, float32, int64

@vectorize(['float64(float64, float64)', float32(float32, float32)], target='parallel')
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)

@vectorize
def sig(x):
    return 1.0 / (1.0 + math.exp(-x))

@vectorize([int64(int64, int64)], identity=0)
def add(a, b):
    return a + b

@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()')
def dot(a, b, out):
    acc = 0.
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    out[0] = acc

@guvectorize(['void(float64[:, :], float64[:, :], float64[:, :])'], '(m,n),(n,p)->(m,p)', target='cuda')
def matmul(A, B, C):
    m, n = A.shape
    n, p = B.shape
    for i in range(m):
        for j in range(p):
            C[i, j] = 0
            for k in range(n):
                C[i, j] += A[i, k] * B[k, j]
