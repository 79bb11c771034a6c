# A tuple of one element type stored into a 1-d view of an array, as Numba 0.56 stores a
# sequence: a row of a trajectory (traj[k] = x, v), a slice (a[1:3] = (p, q)), a column,
# ints converted to the array's float dtype, and a tuple of another length (ValueError with
# Numba's message).
from numba import njit
import numpy as np


@njit
def trajectory(x0, v0, dt, n):
    traj = np.empty((n, 2))
    x, v = x0, v0
    for k in range(n):
        v -= x * dt
        x += v * dt
        traj[k] = x, v
    return traj


@njit
def fill_parts(n):
    a = np.zeros(n)
    a[1:3] = (2.5, -1.0)
    m = np.zeros((3, 4), dtype=np.int32)
    m[:, 2] = (7, 8, 9)
    m[1] = 1, 2, 3, 4
    return a, m


@njit
def wrong_length(n):
    a = np.zeros((n, 3))
    a[0] = (1.0, 2.0)
    return a


if __name__ == "__main__":
    t = trajectory(1.0, 0.0, 0.1, 5)
    print(t.dtype, t.shape, t.tolist())
    a, m = fill_parts(5)
    print(a.dtype, a.tolist(), m.dtype, m.tolist())
    try:
        wrong_length(2)
    except ValueError as e:
        print("ValueError", "cannot assign slice from input of different size" in str(e))
