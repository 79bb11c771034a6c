"""Arrays of NumPy structured dtypes at the boundary: their types as Numba spells them
(typeof, from_dtype, signatures), each record type a specialization of its own, arrays of
records given back (the argument itself, or views of it that keep it alive), and the errors
for what is not supported: a record returned alone or in a tuple, a record in a tuple
argument, fields that are not numbers."""
import gc

import numpy as np
import pytest

import numjit
from numjit import njit, types
from numjit.errors import TypingError

PACKED = np.dtype([("x", "f8"), ("y", "i4")])
ALIGNED = np.dtype([("x", "f8"), ("y", "i4")], align=True)
SPELL = "Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False)"


@njit
def first_x(a):
    return a[0].x


@njit
def same(a):
    return a


@njit
def tail(a):
    return a[1:]


@njit
def first(a):
    return a[0]


@njit
def pair(a):
    return a, 1


@njit
def get_y(r):
    return r.y


def test_typeof_spells_records_as_numba():
    a = np.zeros(2, PACKED)
    assert str(numjit.typeof(a)) == f"unaligned array({SPELL}, 1d, C)"
    assert str(numjit.typeof(a[0])) == SPELL
    b = np.zeros(2, ALIGNED)
    assert str(numjit.typeof(b)) == f"array({SPELL[:-10]};16;True), 1d, C)"
    rec = numjit.from_dtype(PACKED)
    assert isinstance(rec, types.Record) and str(rec) == SPELL
    assert rec.dtype == PACKED and rec.fields["y"] == (types.int32, 8)


def test_each_record_type_compiles_once():
    a, b = np.ones(2, PACKED), np.ones(2, ALIGNED)
    assert first_x(a) == 1.0 and first_x(b) == 1.0 and first_x(np.ones(3, PACKED)) == 1.0
    assert len(first_x.signatures) == 2


def test_returned_arrays_of_records_share_the_argument():
    a = np.zeros(4, PACKED)
    assert same(a) is a
    t = tail(a)
    assert t.dtype == PACKED and t.shape == (3,) and np.shares_memory(t, a)
    del a
    gc.collect()
    t["y"] = 5
    assert t["y"].tolist() == [5, 5, 5]


def test_records_returned_alone_or_in_tuples_are_refused():
    a = np.zeros(2, PACKED)
    with pytest.raises(TypingError, match="gives records back"):
        first(a)
    with pytest.raises(TypingError, match="gives records back"):
        pair(a)


def test_record_arguments_in_tuples_and_odd_fields_are_refused():
    a = np.zeros(2, PACKED)
    with pytest.raises(TypingError, match="a tuple holding a record"):
        first_x((a, 1))
    nested = np.zeros(2, np.dtype([("p", PACKED), ("q", "f8")]))
    with pytest.raises(TypingError, match="fields of numbers"):
        first_x(nested)
    assert get_y(np.ones(1, PACKED)[0]) == 1
