"""numba.typed.Dict from Python (numjit.typed.Dict over python/numjit/_typeddict.c): one
storage with compiled code (no copies either way), the mapping interface as Numba's typed.Dict
gives it, and its errors (KeyError without arguments, TypingError of an unsafe cast, TypeError
of an untyped dict passed in, a clear error for item types that do not cross yet)."""
import gc

import pytest

import numjit
from numjit import types
from numjit.errors import TypingError, UnsupportedError
from numjit.typed import Dict


@numjit.njit
def _make(n):
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(n):
        d[i] = i * 0.5
    return d


@numjit.njit
def _put(d, k, v):
    d[k] = v
    return len(d)


@numjit.njit
def _get(d, k):
    return d[k]


@numjit.njit
def _same(d):
    return d


@numjit.njit
def _tuple_values(n):
    d = {}
    for i in range(n):
        d[i] = (i, i)
    return d


def test_returned_dict_is_a_typed_dict_sharing_storage():
    d = _make(3)
    assert type(d) is Dict and repr(d) == "DictType[int64,float64]<iv=None>({0: 0.0, 1: 0.5, 2: 1.0})"
    assert str(d) == "{0: 0.0, 1: 0.5, 2: 1.0}" and str(d._dict_type) == "DictType[int64,float64]<iv=None>"
    assert _put(d, 10, 2.5) == 4 and d[10] == 2.5          # compiled change seen in Python
    d[11] = 3                                              # an int stored as a float
    assert type(d[11]) is float and _get(d, 11) == 3.0     # Python change seen by compiled code
    e = _same(d)
    assert e is not d and e._same_storage(d)
    e[12] = 1.0
    assert 12 in d and len(d) == 6


def test_python_made_dicts_cross_and_keep_their_types():
    d = Dict.empty(key_type=types.unicode_type, value_type=types.int64)
    d["a"] = 1
    assert _put(d, "b", 2) == 2 and d["b"] == 2 and list(d.items()) == [("a", 1), ("b", 2)]
    u = Dict()
    assert repr(u) == "None({})" and len(u) == 0 and list(u) == [] and 1 not in u
    u[1.5] = True
    assert repr(u) == "DictType[float64,bool]<iv=None>({1.5: True})"
    assert _put(u, 2.5, False) == 2 and u[2.5] is False
    f = Dict.empty(types.int32, types.float32)
    f[3] = 0.1
    assert f[3] == pytest.approx(0.1, rel=1e-7) and f[3] != 0.1


def test_mapping_methods_as_numba():
    d = _make(5)
    assert d.get(1) == 0.5 and d.get(99) is None and d.get(99, -1.0) == -1.0
    assert d.pop(1) == 0.5 and d.pop(99, 7) == 7 and 1 not in d
    assert d.setdefault(2, 9.0) == 1.0 and d.setdefault(50, 9.0) == 9.0
    assert d.popitem() == (50, 9.0) and list(d) == [0, 2, 3, 4]
    c = d.copy()
    c[0] = 100.0
    assert d[0] == 0.0 and not c._same_storage(d) and c != d and d == d.copy()
    assert d == {0: 0.0, 2: 1.0, 3: 1.5, 4: 2.0} and (d == 1) is False
    d.update({8: 8.0})
    del d[8]
    assert list(d.values()) == [0.0, 1.0, 1.5, 2.0]
    for k in d:                 # iteration over a snapshot: changes do not disturb it
        d[k + 100] = 1.0
    assert len(d) == 8 and not isinstance(d, dict)
    d.clear()
    assert len(d) == 0 and str(d) == "{}"
    with pytest.raises(TypeError, match="unhashable"):
        hash(d)


def test_errors_as_numba():
    d = _make(2)
    for f in (lambda: d[5], lambda: d.pop(5), lambda: d.__delitem__(5)):
        with pytest.raises(KeyError) as e:
            f()
        assert e.value.args == ()
    with pytest.raises(KeyError) as e:
        Dict()[1]
    assert e.value.args == (1,)
    with pytest.raises(KeyError, match="dictionary is empty"):
        _make(0).popitem()
    with pytest.raises(TypingError, match="cannot safely cast float64 to int64"):
        Dict.empty(types.int64, types.int64)[1] = 2.5
    with pytest.raises(TypingError, match="cannot safely cast unicode_type to int64"):
        d["a"] = 1.0
    with pytest.raises(TypeError, match="invalid operation on untyped dictionary"):
        _put(Dict(), 1, 1.0)


def test_types_that_do_not_cross_are_clear_errors():
    with pytest.raises(UnsupportedError, match="not UniTuple"):
        Dict.empty(types.int64, types.UniTuple(types.int64, 2))
    with pytest.raises(TypingError, match="complex"):
        Dict.empty(types.complex128, types.int64)
    with pytest.raises(TypingError, match="returns DictType"):
        _tuple_values(2)
    with pytest.raises(TypingError, match="holds numbers and strings"):
        Dict()[1] = [1]


def test_storage_outlives_either_side():
    d = _make(1000)
    e = _same(d)
    del d
    gc.collect()
    assert len(e) == 1000 and e[999] == 499.5
    for i in range(200):        # many round trips release what they take
        e = _same(e)
    assert sum(e.values()) == sum(i * 0.5 for i in range(1000))
