# jitclass instances in compiled code: passed to @njit functions (the same object: writes made
# there are seen from Python and the other way), members read and written there (a store
# converts to the member's type), methods and properties (getter, setter) used there, methods
# calling each other, an @njit function that changes an instance through a method, two
# instances in one call, and two classes with the same members (each instance calls its own
# class's method).
import math

import numpy as np
from numba import njit, float64, int64, int32, boolean
from numba.experimental import jitclass


@jitclass([("x", float64), ("y", float64), ("hits", int32), ("live", boolean)])
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.hits = 0
        self.live = True

    def norm(self):
        return math.sqrt(self.x * self.x + self.y * self.y)

    def scale(self, f):
        self.x *= f
        self.y *= f
        self.hits += 1

    def dist(self, ox, oy):
        dx = self.x - ox
        dy = self.y - oy
        return math.sqrt(dx * dx + dy * dy)

    def normalize(self):
        n = self.norm()
        self.scale(1.0 / n)
        return n

    @property
    def area(self):
        return self.x * self.y

    @area.setter
    def area(self, a):
        self.y = a / self.x


@jitclass([("x", float64)])
class Twin1:
    def __init__(self, x):
        self.x = x

    def get(self):
        return self.x + 1


@jitclass([("x", float64)])
class Twin2:
    def __init__(self, x):
        self.x = x

    def get(self):
        return self.x * 10


@njit
def get_of(t):
    return t.get()


@njit
def both(a, b):
    return a.dist(b.x, b.y), a.norm() - b.norm()


@njit
def norm_of(p):
    return p.norm()


@njit
def move(p, dx, dy):
    p.x += dx
    p.y = p.y + dy
    p.hits = p.hits + 1.7
    return p.x, p.y, p.hits


@njit
def walk(p, n):
    total = 0.0
    for i in range(n):
        p.scale(1.5)
        total += p.dist(0.0, 0.0)
    return total


@njit
def area_of(p):
    return p.area + p.normalize()


@njit
def set_area(p, a):
    p.area = a
    return p.y, p.area


@njit
def kill(p):
    p.live = False
    return p.live


if __name__ == "__main__":
    p = Point(3.0, 4.0)
    r = norm_of(p)
    print(type(r).__name__, r)
    r = move(p, 1.0, 2)
    print(r, type(r[2]).__name__, p.x, p.y, p.hits, type(p.hits).__name__)
    p.x = 2
    print(norm_of(p), type(p.x).__name__)
    print(walk(p, 3), p.x, p.y, p.hits)
    print(area_of(p), p.x, p.y, p.hits)
    p.area = 10.0
    print(p.y, p.area)
    print(set_area(p, 12), p.y)
    print(kill(p), p.live, type(p.live).__name__)
    q = Point(1.0, 1.0)
    print(norm_of(q), q.hits, p.hits)
    print(get_of(Twin1(2.0)), get_of(Twin2(2.0)), get_of(Twin1(3.0)))
    print(both(q, q), both(p, q))
