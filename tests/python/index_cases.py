"""Programs for test_index.py: advanced indexing and joining arrays.  Run as a script, it
calls every case and prints one line each (the result's values, dtype, shape and memory order,
or the exception's type and message); test_index.py runs it under numjit and under real Numba
and compares the lines."""
import numpy as np
from numba import njit


@njit
def get(a, i):
    return a[i]


@njit
def get_filter(a):
    return a[a > 0.5]


@njit
def get_cols(a, i):
    return a[:, i]


@njit
def get_rows_int(a, i):
    return a[i, 1]


@njit
def get_rows_slice(a, i):
    return a[i, 1:3]


@njit
def get_mid(a, i):
    return a[:, i, ::2]


@njit
def get_strided(a, i):
    return a[::2][i]


@njit
def get_reversed(a, i):
    return a[::-1][i]


@njit
def get_last(a, i):
    return a[i, -1]


@njit
def set_(a, i, v):
    b = a.copy()
    b[i] = v
    return b


@njit
def set_cols(a, i, v):
    b = a.copy()
    b[:, i] = v
    return b


@njit
def set_rows_int(a, i, v):
    b = a.copy()
    b[i, 1] = v
    return b


@njit
def clip_neg(a):
    b = a.copy()
    b[b > 0.5] = 0.0
    return b


@njit
def filter_sum(a, n):
    s = 0.0
    for k in range(n):
        s += a[a > 0.1 * k].sum()
    return s


@njit
def add_at(a, i, v):
    b = a.copy()
    b[i] += v
    return b


@njit
def nonzero(a):
    return np.nonzero(a)


@njit
def nonzero_m(a):
    return a.nonzero()


@njit
def where1(a):
    return np.where(a)


@njit
def argwhere(a):
    return np.argwhere(a)


@njit
def flatnonzero(a):
    return np.flatnonzero(a)


@njit
def cat2(a, b):
    return np.concatenate((a, b))


@njit
def cat3(a, b, c):
    return np.concatenate((a, b, c))


@njit
def cat_axis(a, b, ax):
    return np.concatenate((a, b), axis=ax)


@njit
def cat_1(a):
    return np.concatenate((a,), 0)


@njit
def cat_tuple_var(a, b):
    t = (a, b)
    return np.concatenate(t, axis=-1)


@njit
def vstack(a, b):
    return np.vstack((a, b))


@njit
def hstack(a, b):
    return np.hstack((a, b))


@njit
def stack0(a, b):
    return np.stack((a, b))


@njit
def stack1(a, b):
    return np.stack((a, b), axis=1)


@njit
def stack_last(a, b):
    return np.stack((a, b), -1)


@njit
def stack_oob(a, b):
    return np.stack((a, b), axis=3)


@njit
def column_stack(a, b):
    return np.column_stack((a, b))


@njit
def dstack(a, b):
    return np.dstack((a, b))


a1 = np.arange(6.0)
a2 = np.arange(12.0).reshape(3, 4)
a3 = np.arange(24).reshape(2, 3, 4)
F2 = np.asfortranarray(a2)
rnd = np.random.RandomState(0).random_sample(1000)
m1 = a1 > 2
T, F_ = True, False
i1 = np.array([2, -1, 0])

CASES = [
    ("mask", get, (a1, m1)),
    ("mask_empty", get, (a1, np.zeros(6, np.bool_))),
    ("mask_all", get, (a1, np.ones(6, np.bool_))),
    ("mask_short", get, (a1, np.array([T, F_]))),
    ("mask_long_false", get, (a1[:2], np.array([F_, T, F_, F_]))),
    ("mask_rows", get, (a2, np.array([T, F_, T]))),
    ("mask_cols", get_cols, (a2, np.array([T, F_, T, T]))),
    ("mask_rows_int", get_rows_int, (a2, np.array([T, F_, T]))),
    ("mask_strided", get_strided, (a1, np.array([T, F_, T]))),
    ("mask_int", get, (np.arange(6), m1)),
    ("mask_bool", get, (m1, m1)),
    ("mask_f32", get, (a1.astype(np.float32), m1)),
    ("filter", get_filter, (rnd,)),
    ("filter_2d_view", get_filter, (rnd[:100],)),
    ("fancy", get, (a1, i1)),
    ("fancy_empty", get, (a1, np.zeros(0, np.int64))),
    ("fancy_i32", get, (a1, i1.astype(np.int32))),
    ("fancy_u8", get, (a1, np.array([1, 2], np.uint8))),
    ("fancy_rows", get, (a2, i1)),
    ("fancy_rows_F", get, (F2, i1)),
    ("fancy_cols", get_cols, (a2, i1)),
    ("fancy_rows_int", get_rows_int, (a2, i1)),
    ("fancy_rows_slice", get_rows_slice, (a2, i1)),
    ("fancy_mid", get_mid, (a3, i1)),
    ("fancy_reversed", get_reversed, (a1, np.array([0, 1, 5]))),
    ("fancy_last", get_last, (a2, np.array([0, 2]))),
    ("fancy_dup", get, (a1, np.array([1, 1, 1]))),
    ("set_mask", set_, (a1, m1, 0.0)),
    ("set_mask_int", set_, (a1, m1, 3)),
    ("set_mask_arr", set_, (a1, m1, np.array([7.0, 8.0, 9.0]))),
    ("set_mask_arr1", set_, (a1, m1, np.array([7.0]))),
    ("set_mask_arr_bad", set_, (a1, m1, np.array([7.0, 8.0]))),
    ("set_mask_rows", set_, (a2, np.array([T, F_, T]), 0.0)),
    ("set_mask_rows_arr", set_, (a2, np.array([T, F_, T]), np.ones(4))),
    ("set_mask_bool", set_, (a1 > 1, m1, False)),
    ("set_fancy", set_, (a1, i1, 0.0)),
    ("set_fancy_arr", set_, (a1, i1, np.array([7.0, 8.0, 9.0]))),
    ("set_fancy_arr_bad", set_, (a1, i1, np.array([7.0, 8.0]))),
    ("set_fancy_dup", set_, (a1, np.array([1, 1]), np.array([5.0, 6.0]))),
    ("set_fancy_cols", set_cols, (a2, i1, 0.0)),
    ("set_fancy_rows_int", set_rows_int, (a2, i1, -1.0)),
    ("set_fancy_rows_arr", set_, (a2, i1, np.ones((3, 4)))),
    ("set_fancy_rows_bcast", set_, (a2, i1, np.arange(4.0))),
    ("set_fancy_int_arr", set_, (np.arange(6), i1, np.array([1.5, 2.5, 3.5]))),
    ("aug_mask", add_at, (a1, m1, 1.5)),
    ("aug_fancy_dup", add_at, (np.arange(6), np.array([1, 1, 4]), 10)),
    ("aug_rows", add_at, (a2, np.array([T, F_, T]), np.arange(4.0))),
    ("clip", clip_neg, (rnd[:50],)),
    ("filter_loop", filter_sum, (rnd, 10)),
    ("nonzero1", nonzero, (np.array([0, 1, 0, 2]),)),
    ("nonzero2", nonzero, (a2 % 3,)),
    ("nonzero3", nonzero, (a3 % 3,)),
    ("nonzero_bool", nonzero, (m1,)),
    ("nonzero_empty", nonzero, (np.zeros(4),)),
    ("nonzero_m", nonzero_m, (a2 % 3,)),
    ("nonzero_view", nonzero, ((a2 % 3).T,)),
    ("where1", where1, (a2 % 3,)),
    ("argwhere1", argwhere, (np.array([0, 1, 0, 2]),)),
    ("argwhere2", argwhere, (a2 % 3,)),
    ("argwhere3", argwhere, (a3 % 3,)),
    ("flatnonzero", flatnonzero, (a2 % 3,)),
    ("flatnonzero_T", flatnonzero, ((a2 % 3).T,)),
    ("cat", cat2, (a1, a1)),
    ("cat_views", cat3, (a1, a1[:2], a1[::-2])),
    ("cat_empty", cat2, (a1[:0], a1)),
    ("cat_mixed", cat2, (a1, np.arange(3))),
    ("cat_i32_f32", cat2, (np.arange(3, dtype=np.int32), np.arange(3, dtype=np.float32))),
    ("cat_i8_u8", cat2, (np.arange(2, dtype=np.int8), np.arange(2, dtype=np.uint8))),
    ("cat_u64_i64", cat2, (np.arange(2, dtype=np.uint64), np.arange(2))),
    ("cat_f32_i16", cat2, (np.arange(2, dtype=np.float32), np.arange(2, dtype=np.int16))),
    ("cat_bool_int", cat2, (m1, np.arange(2))),
    ("cat_bool", cat2, (m1, m1)),
    ("cat_2d", cat2, (a2, a2)),
    ("cat_F", cat2, (F2, F2)),
    ("cat_CF", cat2, (a2, F2)),
    ("cat_axis1", cat_axis, (a2, a2, 1)),
    ("cat_axis_neg", cat_axis, (a2, a2, -2)),
    ("cat_axis_oob", cat_axis, (a2, a2, 2)),
    ("cat_mismatch", cat_axis, (a2, a2[:, :3], 0)),
    ("cat_mismatch1", cat_axis, (a2, a2[:2], 1)),
    ("cat_3d", cat_axis, (a3, a3, 1)),
    ("cat_1", cat_1, (a2,)),
    ("cat_tuple_var", cat_tuple_var, (a2, a2[:, :1])),
    ("vstack1", vstack, (a1, a1)),
    ("vstack2", vstack, (a2, a2[:1])),
    ("vstack_bad", vstack, (a1, a1[:3])),
    ("vstack_F", vstack, (F2, F2)),
    ("hstack1", hstack, (a1, a1[:2])),
    ("hstack2", hstack, (a2, a2[:, :1])),
    ("stack0", stack0, (a1, a1)),
    ("stack_2d", stack0, (a2, a2)),
    ("stack_F", stack0, (F2, F2)),
    ("stack1", stack1, (a1, a1 * 2)),
    ("stack1_2d", stack1, (a2, a2)),
    ("stack_last", stack_last, (a2, a2)),
    ("stack_bad", stack0, (a1, a1[:3])),
    ("stack_oob", stack_oob, (a2, a2)),
    ("column_stack1", column_stack, (a1, a1)),
    ("column_stack2", column_stack, (a2, a2)),
    ("column_stack_mix", column_stack, (a1[:3], a2)),
    ("column_stack_F", column_stack, (F2, F2)),
    ("dstack1", dstack, (a1, a1)),
    ("dstack2", dstack, (a2, a2)),
    ("dstack3", dstack, (a3, a3)),
]

BOUNDS_CASES = [
    ("fancy_oob", get, (a1, np.array([6]))),
    ("fancy_neg_oob", get, (a1, np.array([-7]))),
    ("mask_long_true", get, (a1[:2], np.array([F_, T, F_, T]))),
]


def show(r):
    if isinstance(r, tuple):
        return "(" + ", ".join(show(x) for x in r) + ")"
    if isinstance(r, np.ndarray):
        order = "C" if r.flags.c_contiguous else "F" if r.flags.f_contiguous else "A"
        return f"{r.dtype} {r.shape} {order} {r.tolist()!r}"
    return repr(r)


def run(cases):
    for name, f, args in cases:
        try:
            out = show(f(*args))
        except Exception as e:
            out = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print(name, out)


if __name__ == "__main__":
    run(CASES)
