"""Tuples at the boundary: tuples as arguments from Python (flat, nested, holding arrays and
buffers, of any length) and nested tuples as results; each tuple type a specialization of its
own; arrays of tuple arguments borrowed without leaking references; strings in tuples both
ways, lists of numbers and Optionals in results; the errors for what a tuple cannot hold."""
import array
import collections
import gc
import sys

import numpy as np
import pytest

from numjit import literal_unroll, njit
from numjit.errors import TypingError


@njit
def shape_and_array(a):
    return a.shape, a


@njit
def pairs(x):
    return ((x, 2), (3, x))


@njit
def flat_from_nested(x):
    t = pairs(x)
    return t[0] + t[1]


@njit
def first(t):
    return t[0]


@njit
def arrays_total(t):
    s = 0.0
    for a in t:
        s += a.sum()
    return s


@njit
def echo(t):
    return t


def nested_of(n):
    return (n, (n, 2.0))


def test_declared_signature_with_nested_result():
    g = njit("(int64,)")(nested_of)
    assert g(4) == (4, (4, 2.0))
    assert g(np.int32(3)) == (3, (3, 2.0))  # converted to the declared int64: another entry
    assert g(True) == (1, (1, 2.0))
    del g  # each cache entry frees its own result layout
    gc.collect()


def test_nested_results():
    a = np.arange(3.0)
    r = shape_and_array(a)
    assert r[0] == (3,) and r[1] is a
    assert pairs(5) == ((5, 2), (3, 5))
    assert pairs(1.5) == ((1.5, 2), (3, 1.5))


def test_nested_inside_compiled_code():
    assert flat_from_nested(5) == (5, 2, 3, 5)


def test_one_specialization_per_tuple_type():
    assert first((1, 2)) == 1
    assert first((1.5, 2)) == 1.5
    assert first((3, 4)) == 3
    assert first(((1, 2), 3)) == (1, 2)
    assert len(first.signatures) == 3


def test_arrays_in_tuples_are_borrowed():
    a = np.arange(4.0)
    b = np.ones(3, dtype=np.float32)
    before = sys.getrefcount(a), sys.getrefcount(b)
    for _ in range(200):
        assert arrays_total((a, a)) == 12.0
        assert first((a, 1)) is a
    assert (sys.getrefcount(a), sys.getrefcount(b)) == before
    # a buffer that is not an ndarray, inside a tuple
    m = memoryview(array.array("d", [1.0, 2.0]))
    assert arrays_total((m, a[1:3])) == 6.0


def test_large_tuples_go_to_the_heap():
    arrs = tuple(np.full(2, float(i)) for i in range(20))  # 20 NjArrays: past the slot
    assert arrays_total(arrs) == 380.0
    t = tuple(range(40)) + (np.arange(3),)
    r = echo(t)
    assert r[:40] == tuple(range(40)) and r[40].tolist() == [0, 1, 2]


@njit
def str_in_tuple(t):
    return len(t[1]) + t[0], t[1] + "!"


@njit
def list_and_str(n):
    l = [0.5]
    for i in range(n):
        l.append(i * 2.0)
    return (l, "n=" + str(n), (n, np.arange(n)))


@njit
def maybe_pair(n):
    if n > 0:
        return (n, "pos")
    return None


@njit
def maybe_array(n):
    if n > 0:
        return np.arange(n)
    return None


def test_strings_in_tuples_both_ways():
    assert first((1, "x")) == 1
    assert str_in_tuple((2, "héllo")) == (7, "héllo!")
    r = echo((1, "é", np.arange(2)))
    assert r[:2] == (1, "é") and r[2].tolist() == [0, 1]


def test_lists_and_strings_in_tuple_results():
    l, s, (n, a) = list_and_str(3)
    assert l == [0.5, 0.0, 2.0, 4.0] and type(l[0]) is float
    assert s == "n=3" and n == 3 and a.tolist() == [0, 1, 2]


def test_optional_results_box_as_none_or_the_value():
    assert maybe_pair(2) == (2, "pos") and maybe_pair(0) is None
    assert maybe_array(3).tolist() == [0, 1, 2] and maybe_array(0) is None


def test_what_a_tuple_cannot_hold():
    with pytest.raises(TypingError) as e:
        first((1, [2, 3]))
    assert "argument 1" in str(e.value) and "'list'" in str(e.value)
    with pytest.raises(TypingError) as e:
        first((None, 1))
    assert "argument 1" in str(e.value) and "None" in str(e.value)
    deep = 1
    for _ in range(40):
        deep = (deep,)
    with pytest.raises(TypingError) as e:
        first(deep)
    assert "nested more than 32 deep" in str(e.value)


@njit
def unroll_mixed():
    s = 0j
    for x in literal_unroll((1, 2.5, 3j)):
        s += x
    return s


def test_literal_unroll_of_a_heterogeneous_tuple_versions_the_body():
    # Numba versions the loop body per element type: x is int64, float64, complex128 in turn
    r = unroll_mixed()
    assert r == 3.5 + 3j and type(r) is complex


@njit
def twice(x):
    return x * 2


@njit
def apply(fn, x):
    return fn(x)


def test_a_compiled_function_as_an_argument_is_called():
    # Numba types it as a first-class function value, compiled per function passed
    assert apply(twice, 3) == 6 and apply(twice, 1.5) == 3.0
    variants = apply.__dict__["_variants"]
    assert len(variants) == 1  # one variant for `twice`, typed for int64 and float64


@njit
def pair(fs, x):
    return fs[0](x) + fs[1](x)


def test_a_tuple_of_compiled_functions_as_an_argument():
    assert pair((twice, twice), 2) == 8
    with pytest.raises(TypingError) as e:
        pair((twice, 1), 2)      # an int where a function is called
    assert "is not callable" in str(e.value)


Span = collections.namedtuple("Span", "lo hi")
Range2 = collections.namedtuple("Range2", "start stop")


@njit
def same_back(p):
    return p


@njit
def span_in_tuple(a):
    return (Span(a, a + 1.0), 1)


def test_named_tuples_of_two_classes_are_two_types():
    # the same element types under two classes: each comes back as its own class
    a, b = same_back(Span(1, 2)), same_back(Range2(1, 2))
    assert type(a) is Span and a == (1, 2)
    assert type(b) is Range2 and b.stop == 2
    assert len(same_back.signatures) == 2


def test_a_named_tuple_inside_a_result_tuple_is_refused():
    # Numba boxes it as its class; numjit does so only for a whole result, and says so
    # rather than give back a plain tuple
    with pytest.raises(TypingError, match=r"returns Tuple\(Span\(float64 x 2\), int64\)"):
        span_in_tuple(1.0)


NAMED_CACHED = '''
import collections, numjit
R = collections.namedtuple("R", "a b")
@numjit.njit(cache=True)
def f(x, o):
    return R(x + o.a, o.b)
r = f(1.0, R(2.0, 3))
print(type(r).__name__, r)
'''


def test_a_named_tuple_result_from_the_disk_cache_keeps_its_class(tmp_path):
    # the cache keeps a named tuple type's class key, so a warm process boxes it as R too
    import os
    import subprocess
    (tmp_path / "named_cached.py").write_text(NAMED_CACHED)
    env = dict(os.environ, NUMJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.dirname(os.path.dirname(sys.modules["numjit"].__file__)))
    env.pop("NUMJIT_CACHE", None)
    outs = [subprocess.run([sys.executable, str(tmp_path / "named_cached.py")], env=env,
                           capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert list((tmp_path / "cache").glob("*.nje"))
    assert [p.stdout for p in outs] == ["R R(a=3.0, b=3)\n"] * 2, outs[1].stderr
