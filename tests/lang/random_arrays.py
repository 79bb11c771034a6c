# np.random with a size: new C-contiguous arrays filled in C order with the scalar draws, the
# same numbers as Numba's after a seed in compiled code.
import numpy as np
from numba import njit


@njit
def floats(seed, n, m):
    np.random.seed(seed)
    return (np.random.random(n), np.random.rand(n, m), np.random.random_sample((m, n)),
            np.random.uniform(1.0, 2.0, (2, 2)), np.random.random(size=(2, 1, 3)),
            np.random.exponential(3.0, 3), np.random.standard_exponential(n))


@njit
def normals(seed, n):
    np.random.seed(seed)
    return (np.random.normal(0, 1, size=n), np.random.randn(n), np.random.randn(2, 3),
            np.random.standard_normal((n, 2)), np.random.normal(10.0, 0.1, n),
            np.random.standard_normal(size=3))


@njit
def integers(seed, n):
    np.random.seed(seed)
    return (np.random.randint(0, 10, size=n), np.random.randint(0, 5, size=(2, n)),
            np.random.randint(-(2**40), 2**40, n), np.random.randint(4, 5, 3))


@njit
def shape_of(a):
    np.random.seed(1)
    return np.random.random(a.shape)


@njit
def churn(n):
    # a temporary array per iteration: freed at once (constant memory)
    np.random.seed(5)
    s = 0.0
    for i in range(n):
        s += np.random.random(100).sum()
    return s


@njit
def negative(n):
    return np.random.random(n)


@njit
def empty_ok(n):
    return np.random.randint(5, 5, size=n)


for seed in (0, 7):
    for a in floats(seed, 4, 3) + normals(seed, 5) + integers(seed, 6):
        print(a.dtype, a.shape, a.flags.c_contiguous, a.ravel().tolist())
print(shape_of(np.zeros((2, 3))).tolist())
print(churn(2000))
print(empty_ok(0).shape, np.random.rand(0).shape)
try:
    negative(-1)
except ValueError:
    print("ValueError")
try:
    empty_ok(2)
except ValueError:
    print("ValueError")
