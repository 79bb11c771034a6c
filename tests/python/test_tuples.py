"""Tuples at the boundary: a compiled function returning a tuple of tuples to Python is refused
with an error at the function that names the construct (it used to crash the interpreter);
the same nested tuple inside compiled code, and flat tuples returned, work."""
import numpy as np
import pytest

from numjit import njit
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


def test_nested_result_is_a_located_error():
    with pytest.raises(TypingError) as e:
        shape_and_array(np.arange(3.0))
    msg = str(e.value)
    assert "test_tuples.py:" in msg and "returns the nested tuple" in msg
    assert "tuple of tuples" in msg and "^" in msg


def test_nested_inside_compiled_code():
    assert flat_from_nested(5) == (5, 2, 3, 5)
