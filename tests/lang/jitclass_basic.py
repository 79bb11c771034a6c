# numba.experimental.jitclass used from Python: a spec list and annotations, __init__,
# methods that read and write scalar and array members, a property with a setter, a static
# method, attribute reads and writes from Python, and the types members are boxed as.
import numpy as np
from numba import float64, int32, int64
from numba.experimental import jitclass

spec = [("count", int64), ("total", float64), ("data", float64[:])]


@jitclass(spec)
class Accumulator:
    def __init__(self, n):
        self.count = 0
        self.total = 0
        self.data = np.zeros(n)

    def add(self, x):
        self.data[self.count % self.data.size] = x
        self.count += 1
        self.total += x

    def mean(self):
        return self.total / self.count

    def window_sum(self):
        s = 0.0
        for i in range(min(self.count, self.data.size)):
            s += self.data[i]
        return s

    def reset(self, n):
        self.count = 0
        self.total = 0.0
        self.data = np.zeros(n)
        return n * 2

    @property
    def size(self):
        return self.data.size

    @staticmethod
    def scale(x, k):
        return x * k


@jitclass
class Box:
    lo: int32
    hi: int32
    weight: float64

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi
        self.weight = 1.5

    @property
    def width(self):
        return self.hi - self.lo

    @width.setter
    def width(self, w):
        self.hi = self.lo + w

    def contains(self, v):
        return self.lo <= v and v < self.hi


if __name__ == "__main__":
    acc = Accumulator(3)
    for v in (1.5, 2.5, 4.0, 8.0):
        acc.add(v)
    print(type(acc).__name__, isinstance(acc, Accumulator))
    print(type(acc.count).__name__, acc.count, type(acc.total).__name__, acc.total)
    print(acc.data.tolist(), acc.data.dtype, acc.mean(), acc.window_sum(), acc.size)
    print(acc.reset(5), acc.count, acc.total, acc.data.tolist(), acc.size)
    acc.count = 7
    acc.total = 3
    print(type(acc.total).__name__, acc.total, acc.mean())
    print(Accumulator.scale(2.5, 4), acc.scale(3, 4))
    b = Box(2, 9)
    print(type(b.lo).__name__, b.lo, b.hi, b.weight, b.width, b.contains(5), b.contains(9))
    b.width = 20
    print(b.hi, b.width, b.contains(21))
    b.lo = 2.9
    print(b.lo, type(b.weight).__name__)
