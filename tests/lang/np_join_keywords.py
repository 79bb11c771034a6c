# np.concatenate, np.stack, np.vstack, np.hstack, np.dstack and np.column_stack called with
# Numba's parameter names: `arrays` for every one of them (NumPy calls the tuple `tup` for the
# last four, which Numba refuses), `axis` by keyword or by position; results, dtypes, shapes.
from numba import njit
import numpy as np


@njit
def cat_kw(a, b):
    return np.concatenate(arrays=(a, b))


@njit
def cat_axis_kw(a, b):
    return np.concatenate(arrays=(a, b), axis=1)


@njit
def cat_axis_pos(a, b):
    return np.concatenate((a, b), 0)


@njit
def stack_kw(a, b):
    return np.stack(arrays=(a, b), axis=1)


@njit
def vstack_kw(a, b):
    return np.vstack(arrays=(a, b))


@njit
def hstack_kw(a, b):
    return np.hstack(arrays=(a, b))


@njit
def dstack_kw(a, b):
    return np.dstack(arrays=(a, b))


@njit
def column_stack_kw(a, b):
    return np.column_stack(arrays=(a, b))


def show(name, r):
    print(name, type(r).__name__, r.dtype, r.shape, r.tolist())


if __name__ == "__main__":
    x = np.arange(6.0).reshape(2, 3)
    y = np.arange(6, dtype=np.int32).reshape(2, 3) * 10
    u = np.arange(3.0)
    v = np.arange(3, dtype=np.int64) + 7
    show("cat_kw", cat_kw(x, y))
    show("cat_axis_kw", cat_axis_kw(x, y))
    show("cat_axis_pos", cat_axis_pos(x, x))
    show("stack_kw", stack_kw(u, v))
    show("vstack_kw", vstack_kw(u, v))
    show("hstack_kw", hstack_kw(x, y))
    show("dstack_kw", dstack_kw(u, v))
    show("column_stack_kw", column_stack_kw(u, v))
