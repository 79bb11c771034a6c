"""@njit on NumPy arrays of every layout the dispatcher distinguishes: C- and F-contiguous,
strided views, negative strides, size-1 and empty dimensions; in-place writes are seen by the
caller; results equal the pure-Python function's on the same data."""
import numpy as np
import pytest

import numjit
from numjit import njit


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def total2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1) - j
    return s


@njit
def rel_diff(x, y, out):
    for i in range(len(x)):
        out[i] = 2.0 * (x[i] - y[i]) / (x[i] + y[i])


@njit
def dot(x, y):
    acc = 0.0
    for i in range(x.size):
        acc += x[i] * y[i]
    return acc


@njit
def scale_inplace(a, k):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] *= k


@njit
def count_true(mask):
    n = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            n += 1
    return n


@njit
def int_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def ndim_and_size(a):
    return a.ndim * 1000 + a.size


def arrays_1d():
    base = np.arange(1.0, 41.0)
    return {
        "C": base[:20].copy(),
        "strided": base[::2],
        "negative": base[::-1],
        "negative-strided": base[30:1:-3],
        "size-1": base[5:6],
        "empty": base[:0],
        "column-of-2d": np.arange(1.0, 31.0).reshape(10, 3)[:, 1],
    }


def arrays_2d():
    base = np.arange(1.0, 61.0).reshape(6, 10)
    return {
        "C": base.copy(),
        "F": np.asfortranarray(base),
        "transposed": base.T,
        "strided": base[::2, 1::3],
        "negative": base[::-1, ::-2],
        "size-1-rows": base[2:3, :],
        "empty": base[:0, :],
    }


@pytest.mark.parametrize("name", list(arrays_1d()))
def test_total_1d_layouts(name):
    a = arrays_1d()[name]
    assert total(a) == total.py_func(a)


@pytest.mark.parametrize("name", list(arrays_2d()))
def test_total_2d_layouts(name):
    a = arrays_2d()[name]
    assert total2d(a) == total2d.py_func(a)


def test_layouts_are_distinct_specializations():
    d = arrays_2d()
    for name in ("C", "F", "strided"):
        total2d(d[name])
    layouts = {sig[0].layout for sig in total2d.signatures}
    assert layouts == {"C", "F", "A"}
    assert numjit.typeof(d["F"]) == numjit.float64[::1, :]
    assert numjit.typeof(d["C"]) == numjit.float64[:, ::1]
    assert numjit.typeof(d["strided"]) == numjit.float64[:, :]


def test_writes_are_visible():
    x = np.linspace(1.0, 2.0, 101)
    y = np.linspace(2.0, 5.0, 101)
    out = np.zeros_like(x)
    rel_diff(x, y, out)
    np.testing.assert_allclose(out, 2 * (x - y) / (x + y), rtol=1e-15)


def test_writes_through_negative_stride_view():
    x = np.linspace(1.0, 2.0, 11)
    y = np.linspace(2.0, 5.0, 11)
    out = np.zeros(22)
    rel_diff(x[::-1], y[::-1], out[::-2])
    np.testing.assert_allclose(out[::-2], (2 * (x - y) / (x + y))[::-1], rtol=1e-15)
    assert np.all(out[-2::-2] == 0.0)


def test_inplace_2d_fortran_and_view():
    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    b = a.copy()
    scale_inplace(a, 3.0)
    np.testing.assert_array_equal(a, b * 3.0)
    c = np.arange(24.0).reshape(4, 6)
    d = c.copy()
    scale_inplace(c[1::2, ::-3], -1.0)
    d[1::2, ::-3] *= -1.0
    np.testing.assert_array_equal(c, d)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dot_float_dtypes(dtype):
    x = np.linspace(0, 1, 50, dtype=dtype)
    y = np.linspace(1, 2, 50, dtype=dtype)
    assert dot(x, y) == pytest.approx(float(dot.py_func(x, y)), rel=1e-6)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_int_dtypes(dtype):
    a = np.arange(1, 11, dtype=dtype)
    got = int_sum(a)
    assert got == 55
    assert type(got) is int


def test_bool_array():
    m = np.array([True, False, True, True, False])
    assert count_true(m) == 3
    assert count_true(m[::-1]) == 3


def test_attributes():
    assert ndim_and_size(np.zeros((3, 4))) == 2012
    assert ndim_and_size(np.zeros(7)) == 1007


def test_buffer_exporters_other_than_ndarray():
    import array
    a = array.array("d", [1.0, 2.0, 3.5])
    assert total(a) == 6.5
    assert total(memoryview(np.arange(4.0))[::-1]) == 6.0


def test_readonly_input():
    a = np.arange(5.0)
    a.setflags(write=False)
    assert total(a) == 10.0


@njit
def fill_from_row(a, i):
    a[:] = a[i]
    return a


@njit
def fill_rows_reversed(a):
    a[1:] = a[0, ::-1]
    return a


def test_broadcast_assignment_overlapping_the_target():
    # the source is read as if copied first, as NumPy does (Numba 0.56 corrupts its heap here)
    for i in (0, 2, -1):
        a = np.arange(12.0).reshape(4, 3)
        want = a.copy()
        want[:] = want[i]
        assert fill_from_row(a, i).tolist() == want.tolist()
    a = np.arange(12).reshape(4, 3)
    want = a.copy()
    want[1:] = want[0, ::-1]
    assert fill_rows_reversed(a).tolist() == want.tolist()


@njit
def tail_view(a):
    return a[2:]


def test_view_of_bytearray_holds_its_export():
    # the view must keep the bytearray's buffer exported: resizing would free its memory
    ba = bytearray(b"abcdefgh")
    v = tail_view(ba)
    assert v.tolist() == list(b"cdefgh")
    with pytest.raises(BufferError):
        ba.extend(b"x" * 100000)
    assert bytes(v) == b"cdefgh"
    del v
    ba.extend(b"x" * 100000)  # no view left: free to resize again


def test_view_of_array_array_and_memoryview_hold_exports():
    import array
    import gc
    aa = array.array("d", [1.0, 2.0, 3.0, 4.0])
    v = tail_view(aa)
    with pytest.raises(BufferError):
        aa.extend([0.0] * 10000)
    assert v.tolist() == [3.0, 4.0]
    ba = bytearray(b"0123456789")
    m = memoryview(ba)
    w = tail_view(m)
    with pytest.raises(BufferError):
        m.release()
    with pytest.raises(BufferError):
        ba.extend(b"x" * 100000)
    del v, w
    gc.collect()
    aa.extend([0.0] * 10000)
    m.release()
    ba.extend(b"x")
