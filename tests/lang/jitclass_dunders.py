# The special methods Numba 0.56 gives a jitclass's instances in Python (len, [], [] =, ==,
# <, hash, abs, bool, float, int, arithmetic): each runs the class's compiled method; another
# special method (__repr__) is left out of the class, as Numba leaves it out.  In @njit code:
# len, [], [] =, in, abs, ==, != (from __eq__), <, + and unary -.
import numpy as np
from numba import njit, float64, int64
from numba.experimental import jitclass


@jitclass([("data", float64[:]), ("n", int64)])
class Vec:
    def __init__(self, n):
        self.n = n
        self.data = np.arange(n) * 1.5

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.data[i]

    def __setitem__(self, i, v):
        self.data[i] = v

    def __contains__(self, v):
        for i in range(self.n):
            if self.data[i] == v:
                return True
        return False

    def __abs__(self):
        return np.sqrt((self.data ** 2).sum())

    def __repr__(self):
        return "never used"


@jitclass([("v", int64)])
class Num:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __lt__(self, other):
        return self.v < other.v

    def __hash__(self):
        return self.v * 7

    def __float__(self):
        return self.v / 2

    def __int__(self):
        return self.v + 1

    def __bool__(self):
        return self.v != 0

    def __add__(self, k):
        return self.v + k

    def __neg__(self):
        return -self.v


@njit
def vec_ops(v):
    v[0] = len(v) * 2.0
    s = 0.0
    for i in range(len(v)):
        s += v[i]
    return s, 10.0 in v, 11.0 in v, 3.0 not in v, abs(v)


@njit
def num_ops(a, b):
    return a == b, a != b, a < b, b < a, a + 2, -a


if __name__ == "__main__":
    v = Vec(4)
    print(len(v), v[2], type(v[2]).__name__, 3.0 in v, 2.0 in v)
    v[1] = 10.0
    print(v.data.tolist(), abs(v), "never" in repr(v))
    a, b, c = Num(3), Num(3), Num(5)
    print(a == b, a == c, a != c, a < c, c < a, hash(a), float(a), int(a), bool(a),
          bool(Num(0)), a + 4, -a)
    print(vec_ops(v), v.data.tolist())
    print(num_ops(a, b), num_ops(a, c), num_ops(c, a))
