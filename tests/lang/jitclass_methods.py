# jitclass methods calling each other: a reader in an expression, a method that changes
# members called as a statement (its changes seen by the caller), __init__ calling a method,
# and a chain of calls that reads an array member.
import numpy as np
from numba import float64, int64
from numba.experimental import jitclass


@jitclass([("n", int64), ("hist", int64[:]), ("lo", float64), ("hi", float64)])
class Histogram:
    def __init__(self, n, lo, hi):
        self.n = n
        self.lo = lo
        self.hi = hi
        self.hist = np.zeros(n, dtype=np.int64)
        self.clear()

    def clear(self):
        for i in range(self.n):
            self.hist[i] = 0

    def width(self):
        return (self.hi - self.lo) / self.n

    def bin_of(self, x):
        k = int((x - self.lo) / self.width())
        return min(max(k, 0), self.n - 1)

    def add(self, x):
        self.hist[self.bin_of(x)] += 1

    def add_all(self, xs):
        for x in xs:
            self.add(x)
        return self.total()

    def total(self):
        return self.hist.sum()

    def widen(self, f):
        self.hi = self.lo + (self.hi - self.lo) * f

    def widen_and_refill(self, f, xs):
        self.widen(f)
        self.clear()
        return self.add_all(xs)


if __name__ == "__main__":
    h = Histogram(4, 0.0, 8.0)
    print(h.width(), h.bin_of(5.5), h.bin_of(-3.0), h.bin_of(100.0))
    print(h.add_all(np.array([0.5, 1.5, 2.5, 6.0, 7.9, 9.0])), h.hist.tolist())
    r = h.widen_and_refill(2.0, np.array([0.5, 1.5, 2.5, 6.0, 7.9, 9.0]))
    print(type(r).__name__, r, h.hist.tolist(), h.hi, type(h.hi).__name__, h.width())
