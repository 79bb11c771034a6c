"""Read-only arrays (docs/python.md, "Guarantees"): an array whose WRITEABLE flag is off (or a
read-only buffer such as bytes) is typed `readonly array(...)`, a distinct specialization that
may read but never write it; ufunc calls refuse it as out= with NumPy's ValueError.
tests/lang/readonly_arrays.py and tests/lang/errors/readonly_*.py compare with Numba."""
import numpy as np
import pytest

import numjit
from numjit import njit


def readonly(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


@njit
def fill(a):
    for i in range(a.shape[0]):
        a[i] = 65


@njit
def total(a):
    return a.sum()


def test_typeof_and_key():
    b = np.frombuffer(b"hello", dtype=np.uint8)
    assert str(numjit.typeof(b)) == "readonly array(uint8, 1d, C)"
    assert numjit.typeof(b).readonly and not numjit.typeof(np.zeros(2)).readonly
    assert str(numjit.typeof(memoryview(b"ab"))) == "readonly array(uint8, 1d, C)"
    assert total(b) == 532 and total(np.frombuffer(bytearray(b"hello"), dtype=np.uint8)) == 532
    assert len(total.signatures) == 2  # the writable and the read-only one


def test_bytes_are_never_written():
    data = b"hello"
    with pytest.raises(numjit.errors.TypingError, match="read-only array"):
        fill(np.frombuffer(data, dtype=np.uint8))
    with pytest.raises(numjit.errors.TypingError, match="read-only array"):
        fill(memoryview(data))
    assert data == b"hello"
    a = np.zeros(3, dtype=np.uint8)
    fill(a)  # the writable specialization is another one
    assert a.tolist() == [65, 65, 65]


def test_read_only_signature():
    ro_any = numjit.types.Array(numjit.float64, 1, "A", readonly=True)

    @njit(numjit.float64(ro_any))
    def ro_total(a):
        return a.sum()

    assert ro_total(readonly([1.0, 2.0])) == 3.0
    assert ro_total(np.array([1.0, 2.0])) == 3.0  # writable converts to read-only (safe)

    @njit("float64(float64[:])")
    def rw_total(a):
        return a.sum()

    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) "
                                        r"readonly array\(float64, 1d, C\)"):
        rw_total(readonly([1.0]))


def test_ufunc_out_read_only():
    @numjit.vectorize(["float64(float64)"])
    def twice(x):
        return 2.0 * x

    @numjit.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
    def copy(x, out):
        for i in range(x.shape[0]):
            out[i] = x[i]

    out = readonly([0.0, 0.0])
    with pytest.raises(ValueError):
        twice(np.ones(2), out=out)
    with pytest.raises(ValueError):
        copy(np.ones(2), out)
    assert out.tolist() == [0.0, 0.0]
