# jitclass instances with array members in compiled code: the members read there are the
# instance's own arrays (element writes are seen from Python), methods that read and change
# them, a member replaced from Python then used in compiled code, 2-d and C-contiguous
# members, arrays returned from the instance (valid after the member is replaced), and the
# types of what comes back.
import numpy as np
from numba import njit, float64, int64, int32
from numba.experimental import jitclass


@jitclass([("count", int64), ("data", float64[:]), ("grid", int32[:, ::1]), ("scale", float64)])
class Acc:
    def __init__(self, n):
        self.count = 0
        self.data = np.zeros(n)
        self.grid = np.zeros((2, 3), dtype=np.int32)
        self.scale = 1.0

    def add(self, x):
        self.data[self.count] = x * self.scale
        self.count += 1

    def total(self):
        return self.data[:self.count].sum()

    def mark(self, i, j):
        self.grid[i, j] += 1
        return self.grid.sum()


@njit
def fill(acc, xs):
    for x in xs:
        acc.add(x)
    return acc.total(), acc.count


@njit
def peek(acc):
    return acc.data.shape[0], acc.data[0], acc.grid.shape, acc.mark(1, 2)


@njit
def bump_all(acc):
    for i in range(acc.data.size):
        acc.data[i] += 0.5
    acc.grid[0, :] = 7
    return acc.data


@njit
def half(acc):
    return acc.data[1:]


if __name__ == "__main__":
    a = Acc(5)
    r = fill(a, np.array([1.0, 2.0, 3.0]))
    print(r, type(r[1]).__name__, a.count, a.data.tolist())
    a.scale = 10
    a.add(4.0)
    print(fill(a, np.array([0.25])), a.data.tolist())
    print(peek(a), a.grid.tolist())
    d = bump_all(a)
    print(d.tolist(), d.dtype, d.shape, a.data.tolist(), a.grid.tolist())
    a.data = np.arange(3.0)
    a.count = 3
    print(fill(a, np.zeros(0)), peek(a)[:2])
    b = Acc(2)
    print(fill(b, np.array([9.0])), a.count, b.data.tolist())
    e = bump_all(b)
    f = half(b)
    b.data = np.ones(4)
    print(e.tolist(), f.tolist(), b.data.tolist())
