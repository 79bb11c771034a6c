# jitclass methods that read the instance's properties and call methods that change members
# inside expressions: called from Python and from @njit code, on a class of numbers and on
# one with an array member (a method that does not assign the array runs on the instance
# itself); static methods called through an instance, there and in a method.
import numpy as np
from numba import njit, float64, int64
from numba.experimental import jitclass


@jitclass([("v", float64), ("n", int64)])
class D:
    def __init__(self, v):
        self.v = v
        self.n = 0
        self.bump()

    def bump(self):
        self.n += 1
        self.v += 1.0
        return self.v

    @property
    def half(self):
        return self.v / 2

    @half.setter
    def half(self, h):
        self.v = h * 2

    def twice(self):
        return self.half * 4

    def bumped_twice(self):
        return self.bump() * 2 + self.bump()

    def reset(self, h):
        self.half = h
        return self.v

    @staticmethod
    def sq(x):
        return x * x

    def sq_v(self):
        return self.sq(self.v) + self.sq(2)


@jitclass([("buf", float64[:]), ("k", int64)])
class Ring:
    def __init__(self, n):
        self.buf = np.zeros(n)
        self.k = 0

    @property
    def size(self):
        return self.buf.size

    def push(self, x):
        self.buf[self.k % self.size] = x
        self.k += 1
        return self.k

    def push_two(self, x, y):
        return self.push(x) + self.push(y)


@njit
def use(d, r):
    return d.twice(), d.bumped_twice(), r.push_two(d.v, d.half), d.reset(1.5)


@njit
def statics(d):
    return d.sq(3), d.sq(1.5), d.sq_v()


if __name__ == "__main__":
    d = D(1.0)
    print(d.v, d.n, d.half, d.twice(), type(d.twice()).__name__)
    print(d.bumped_twice(), d.v, d.n)
    print(d.reset(4.0), d.half, d.v)
    r = Ring(3)
    print(r.push_two(1.0, 2.0), r.push(3.0), r.push(4.0), r.buf.tolist(), r.size)
    print(use(d, r), d.v, d.n, r.k, r.buf.tolist())
    print(statics(d), D.sq(4), d.sq(2.5), d.sq_v(), type(d.sq_v()).__name__)
