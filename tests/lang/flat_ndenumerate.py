# a.flat and np.ndenumerate in compiled functions: elements in C (row-major) order for C,
# Fortran, strided and transposed arrays; a.flat[i] read and written (also `+=`) with C-order
# indices; break, continue and the loop's else clause; indices of 1-d and 3-d arrays, unpacked
# or kept as a tuple; the loop over a temporary array.  (a.flat[-1] is left out: Numba 0.56
# reads outside the array there; numjit counts from the end as NumPy does.)
from numba import njit
import numpy as np


@njit
def horner_flat(a):
    s = 0.0
    for v in a.flat:
        s = s * 1.5 + v
    return s


@njit
def flat_get(a, i):
    return a.flat[i]


@njit
def flat_put(a, i, v):
    a.flat[i] = v


@njit
def flat_add_index(a):
    for i in range(a.size):
        a.flat[i] += i
    return a


@njit
def weighted(a):
    t = 0.0
    for idx, v in np.ndenumerate(a):
        t = t * 1.1 + v + idx[0] * 3 - idx[1]
    return t, idx[0], idx[1]


@njit
def first_big(a, limit):
    s = 0.0
    for v in a.flat:
        if v > limit:
            break
        if v == 2:
            continue
        s += v
    else:
        s = -1.0
    return s


@njit
def count_else(a):
    n = 0
    for idx, v in np.ndenumerate(a):
        n += 1
    else:
        n += 100
    return n


@njit
def index_sum_1d(a):
    r = 0
    for (i,), v in np.ndenumerate(a):
        r += i * v
    return r


@njit
def index_sum_3d(a):
    s = 0
    for (i, j, k), v in np.ndenumerate(a):
        s += (i * 100 + j * 10 + k) * v
    return s


@njit
def flat_of_temporary(a):
    s = 0.0
    for v in (a * 2).flat:
        s += v
    return s


if __name__ == "__main__":
    c = np.arange(12.0).reshape(3, 4)
    arrays = [("C", c), ("F", np.asfortranarray(c)), ("strided", c[:, ::2]), ("T", c.T),
              ("reversed", c[::-1, ::-1])]
    for name, a in arrays:
        print(name, horner_flat(a), flat_get(a, 0), flat_get(a, 5), flat_get(a, a.size - 1),
              weighted(a), first_big(a, 6.0), first_big(a, 100.0), count_else(a),
              flat_of_temporary(a))
        b = a.copy() if name == "C" else np.asfortranarray(a.copy())
        flat_put(b, 1, 100.0)
        print(name, b.ravel().tolist(), flat_add_index(a.copy()).ravel().tolist())
    print("1d", index_sum_1d(np.arange(5)), horner_flat(np.arange(5.0)[::-2]))
    x3 = np.arange(24).reshape(2, 3, 4)
    print("3d", index_sum_3d(x3), index_sum_3d(x3.transpose(2, 0, 1)),
          index_sum_3d(x3[:, ::-1, 1:]))
    print("empty", horner_flat(np.zeros((0, 3))), count_else(np.zeros((2, 0))))
