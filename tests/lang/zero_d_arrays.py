import numpy as np
from numba import njit


# 0-d array arguments: in arithmetic, comparisons and ufuncs a 0-d array stands for its
# element (the result is a scalar, or an array of the other operand's shape), as in Numba's
# array expressions; a[()] reads and writes the element.
@njit
def mul(a):
    return a * 2


@njit
def add(a, b):
    return a + b


@njit
def neg_cmp(a):
    return -a, a > 1, ~(a > 1)


@njit
def ufuncs(a, b):
    return np.sqrt(a), np.maximum(a, b), np.add(a, 1)


@njit
def item(a):
    a[()] = a[()] + 1
    return a[()], len(a.shape), a.ndim, a.size


@njit
def chain(a, x):
    return (a * x + a) / 2


def show(name, r):
    if isinstance(r, tuple):
        for k, v in enumerate(r):
            show(f"{name}[{k}]", v)
    elif isinstance(r, np.ndarray):
        print(name, r.tolist(), r.dtype, r.shape)
    else:
        print(name, r, type(r).__name__)


f8, i8, f4 = np.array(3.5), np.array(4), np.array(1.5, dtype=np.float32)
u1, b1 = np.array(200, dtype=np.uint8), np.array(True)
for a in (f8, i8, f4, u1, b1):
    show(f"mul {a.dtype}", mul(a))
    show(f"neg_cmp {a.dtype}", neg_cmp(a) if a.dtype != np.bool_ else (a > 0,))
show("add f8 i8", add(f8, i8))
show("add f4 2.0", add(f4, 2.0))
show("add f4 f4", add(f4, f4))
show("add u1 u1", add(u1, u1))
show("add f8 arr", add(f8, np.arange(3.0)))
show("add arr i8", add(np.arange(4, dtype=np.int32), i8))
show("add 2-d f4", add(np.ones((2, 2), dtype=np.float32), f4))
show("ufuncs", ufuncs(f8, i8))
show("ufuncs f4", ufuncs(f4, f4))
c = np.array(7.25)
show("item", item(c))
show("after", c)
show("chain", chain(f8, np.arange(3.0)))
show("chain scalar", chain(i8, 3))
