"""numba.typed.List in Python code (numjit.typed): items converted by Numba's safe casts, the
errors of unsafe ones, Numba's repr, equality with typed lists only, and the list crossing into
compiled code with its changes seen by the caller (empty typed lists included)."""
import pytest

import numjit
from numjit import types
from numjit.typed import List


def test_items_take_the_first_items_type():
    l = List([1, 2])
    l.append(True)
    assert list(l) == [1, 2, 1] and all(type(x) is int for x in l)
    assert repr(l) == "ListType[int64]([1, 2, 1])" and str(l) == "[1, 2, 1]"
    f = List.empty_list(types.float32)
    f.append(1)
    f.append(0.1)
    assert type(f[0]) is float and f[1] == pytest.approx(0.1, rel=1e-7) and f[1] != 0.1
    assert repr(List()) == "ListType[Undefined]([])"
    assert repr(List(["a"])) == "ListType[unicode_type]([a])"


def test_unsafe_casts_are_typing_errors():
    l = List([1])
    with pytest.raises(numjit.TypingError, match="cannot safely cast float64 to int64"):
        l.append(2.5)
    with pytest.raises(numjit.TypingError):
        l[0] = "x"
    with pytest.raises(numjit.UnsupportedError):
        List([(1, 2)])
    assert list(l) == [1]


def test_equality_slices_and_copies_stay_typed():
    l = List([1.5, 2.5, 3.5])
    assert l != [1.5, 2.5, 3.5] and l == List([1.5, 2.5, 3.5])
    s = l[1:]
    assert type(s) is List and repr(s) == "ListType[float64]([2.5, 3.5])"
    c = l.copy()
    c.append(4)
    assert len(l) == 3 and c[-1] == 4.0 and type(c[-1]) is float


def test_compiled_code_changes_the_callers_typed_list():
    @numjit.njit
    def grow(l, x):
        l.append(x)
        return len(l)

    l = List([1, 2])
    assert grow(l, 5) == 3 and l == List([1, 2, 5]) and type(l) is List
    e = List.empty_list(types.float64)
    assert grow(e, 1.5) == 1 and list(e) == [1.5]
    s = List.empty_list(types.unicode_type)
    assert grow(s, "a") == 1 and list(s) == ["a"]
    with pytest.raises(TypeError, match="invalid operation on untyped list"):
        grow(List(), 1)


def test_the_list_is_the_compiled_storage():
    @numjit.njit
    def fill(l, n):
        for i in range(n):
            l.append(i * 0.5)
        l[0] = -1.0
        return len(l)

    l = List.empty_list(types.float64)
    assert fill(l, 1000) == 1000 and l[0] == -1.0 and l[-1] == 499.5   # grown by compiled code
    l[1] = 7.0
    l.insert(0, 3.0)
    assert fill(l, 0) == 1001 and l[0] == -1.0 and l[2] == 7.0 and not isinstance(l, list)
    for _ in range(100):                    # no copies: the same items each call
        fill(l, 0)
    assert sum(l) == pytest.approx(-1.0 - 1.0 + 7.0 + sum(i * 0.5 for i in range(2, 1000)))
    s = List(["a"])
    for i in range(50):
        s.append("x" * i)
    del s[1:40]
    assert len(s) == 12 and s[1] == "x" * 39 and s.pop() == "x" * 49
    with pytest.raises(IndexError, match="list index out of range"):
        s[20]
