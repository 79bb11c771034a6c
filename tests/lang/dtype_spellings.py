# Every spelling of a dtype where a function takes one: np.float32, 'float32', 'f4', float,
# np.dtype('float32'), np.dtype(np.int16), np.dtype('i8'), a.dtype of an argument (integer,
# float, bool, complex, non-contiguous); in np.empty/zeros/ones/full,
# np.arange, np.empty_like/zeros_like/ones_like/full_like, np.array, np.eye, a.astype and
# a.sum(dtype=); and np.int32(x)-style casts of numbers (wrapping, truncating).
from numba import njit
import numpy as np


@njit
def zeros_like_dtype(a, n):
    return np.zeros(n, dtype=a.dtype)


@njit
def empty_shape_dtype(a):
    r = np.empty((2, 3), a.dtype)
    r[:] = 1
    return r


@njit
def ones_np_dtype(n):
    return np.ones(n, np.dtype('float32'))


@njit
def full_np_dtype_class(n):
    return np.full(n, 7, dtype=np.dtype(np.int16))


@njit
def arange_dtype(a):
    return np.arange(5, dtype=a.dtype)


@njit
def arange_short(n):
    return np.arange(n, dtype=np.dtype('i8'))


@njit
def like_forms(a, b):
    r = np.empty_like(a, dtype=b.dtype)
    r[:] = 4
    return r, np.zeros_like(a, dtype=b.dtype)


@njit
def ones_like_np(a):
    return np.ones_like(a, dtype=np.dtype('float64'))


@njit
def full_like_dtype(a, b):
    return np.full_like(a, 3, dtype=b.dtype)


@njit
def astype_same(a):
    return a.astype(a.dtype)


@njit
def astype_other(a, b):
    return a.astype(b.dtype)


@njit
def astype_np_dtype(a):
    return a.astype(np.dtype('int8'))


@njit
def array_dtype(a):
    return np.array([1, 2, 3], dtype=a.dtype)


@njit
def eye_dtype(a):
    return np.eye(2, dtype=a.dtype)


@njit
def sum_dtype(a):
    return a.sum(dtype=np.dtype('float32'))


@njit
def casts(x):
    return np.int32(x), np.float32(x), np.uint8(x), np.int64(x), np.float64(x), np.int8(x)


def show(v):
    if isinstance(v, np.ndarray):
        print(type(v).__name__, v.dtype, v.shape, v.tolist())
    elif isinstance(v, tuple):
        print("(" + ", ".join(type(x).__name__ + ":" + repr(x) for x in v) + ")")
    else:
        print(type(v).__name__ + ":" + repr(v))


if __name__ == "__main__":
    for dt in (np.int8, np.int32, np.uint16, np.float32, np.float64, np.bool_, np.complex128):
        a = np.ones(4, dtype=dt)
        show(zeros_like_dtype(a, 3))
        show(empty_shape_dtype(a))
        show(arange_dtype(a) if dt not in (np.bool_,) else np.arange(0))
        show(astype_same(a))
        show(full_like_dtype(np.zeros(2), a))
        show(array_dtype(a) if dt is not np.bool_ else np.zeros(0))
        show(eye_dtype(a))
    show(zeros_like_dtype(np.zeros((3, 4), np.float32)[:, ::2], 2))
    show(zeros_like_dtype(np.zeros(2), 0))
    show(ones_np_dtype(3))
    show(full_np_dtype_class(2))
    show(arange_short(4))
    r = like_forms(np.zeros((2, 2)), np.zeros(1, np.int16))
    show(r[0])
    show(r[1])
    show(ones_like_np(np.zeros(3, np.int32)))
    show(astype_other(np.array([1.5, -2.7, 300.2]), np.zeros(1, np.int32)))
    show(astype_other(np.array([1, 0, 5]), np.zeros(1, np.bool_)))
    show(astype_other(np.arange(6.0).reshape(2, 3).T, np.zeros(1, np.float32)))
    show(astype_np_dtype(np.array([1.9, -3.2, 100.0])))
    show(sum_dtype(np.arange(5)))
    show(casts(3.75))
    show(casts(2.5))
    show(casts(-3))
    show(casts(300))
    show(casts(np.int16(-129)))
