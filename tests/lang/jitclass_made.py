# jitclass instances made inside compiled code: the compiled __init__ runs there, the instance
# is returned to Python as an instance of the class sharing its state, passed back in, made by
# the class's own methods, and made and dropped in a loop.
import numpy as np
from numba import njit, float64, int64
from numba.experimental import jitclass


@jitclass([('x', float64), ('y', float64), ('moves', int64)])
class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.moves = 0

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def move(self, dx, dy):
        self.x += dx
        self.y += dy
        self.moves += 1

    def plus(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    @property
    def flipped(self):
        return Vec(self.y, self.x)


@jitclass([('count', int64)])
class Counter:
    def __init__(self):
        self.count = 0

    def tick(self):
        self.count += 1
        return self.count


@njit
def make(x, y):
    v = Vec(x, y)
    v.move(1.0, 0.5)
    return v


@njit
def sum_of_norms(k):
    s = 0.0
    for i in range(k):
        v = Vec(float(i), 1.0)
        w = v.plus(Vec(0.5, 0.5))
        s += w.norm2()
    return s


@njit
def nudge(v):
    v.move(0.25, 0.25)
    return v


@njit
def counted(k):
    c = Counter()
    for _ in range(k):
        c.tick()
    return c


@njit
def keep_second(k):
    first = Vec(1.0, 1.0)
    second = first
    for i in range(k):
        second = Vec(float(i), 0.0)
    return first.x + second.x


v = make(1.0, 2.0)
print(type(v).__name__, v.x, v.y, v.moves, v.norm2())
v.move(1.0, 1.0)
print(v.x, v.y, v.moves)
w = nudge(v)
print(type(w).__name__, v.x, w.x, v.moves, w.moves)
w.y = 10.0
print(v.y, v.norm2())
print(sum_of_norms(100))
c = counted(7)
print(type(c).__name__, c.count, c.tick(), c.count)
p = Vec(3.0, 4.0)
q = nudge(p)
print(p.x, q.x, p.moves, q.moves)
s = p.plus(Vec(1.0, 1.0))
print(type(s).__name__, s.x, s.y, s.moves)
f = p.flipped
print(type(f).__name__, f.x, f.y)
print(keep_second(5))
