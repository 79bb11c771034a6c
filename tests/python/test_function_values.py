"""Jitted functions as values (Numba's Dispatcher types): passed from Python, compiled per
function passed, and what numjit does not do yet (a function returned to Python)."""
import pytest

from numjit import njit
from numjit.errors import TypingError


@njit
def sq(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def apply(f, x):
    return f(x)


@njit
def chooser(k):
    return sq


@njit
def mixed(t, x):
    return t[0](x) + t[1]


def test_each_function_passed_is_a_variant_of_its_own():
    assert apply(sq, 3) == 9 and apply(cube, 3) == 27
    assert apply(sq, 1.5) == 2.25      # the variant for sq, specialized again for float64
    assert len(apply.__dict__["_variants"]) == 2


def test_a_tuple_holding_a_function_and_a_number():
    assert mixed((cube, 0.5), 2) == 8.5
    assert mixed((sq, 1), 3) == 10


def test_a_function_returned_to_python_is_a_located_refusal():
    with pytest.raises(TypingError) as e:
        chooser(1)
    assert "gives a function back only to compiled code" in str(e.value)


def test_plain_calls_still_take_the_fast_path():
    assert apply.__dict__.get("_variants") is not None
    assert sq(4) == 16 and "_variants" not in sq.__dict__
