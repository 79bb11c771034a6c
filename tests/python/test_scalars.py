"""@njit on scalar arguments: results equal the pure-Python function's, and come back as the
Python types Numba returns (any float → float, any int → int, bool → bool, None)."""
import math

import numpy as np
import pytest

import numjit
from numjit import njit

RATE = 0.25
STEPS = 10


@njit
def add(a, b):
    return a + b


@njit
def poly(x):
    return 3.0 * x * x - 2.0 * x + 1.0


@njit
def int_ops(a, b):
    return a // b + a % b - (a << 2) + (a & b) + (a ^ b) - (a | b)


@njit
def true_div(a, b):
    return a / b


@njit
def floor_mod(a, b):
    return a % b


@njit
def is_between(x, lo, hi):
    return lo < x < hi


@njit
def nothing(x):
    pass


@njit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@njit
def uses_math(x):
    return math.sqrt(x) + math.exp(-x) + math.sin(x) * math.cos(x) + math.log1p(x)


@njit
def uses_constants(x):
    acc = x
    for _ in range(STEPS):
        acc = acc * (1.0 + RATE)
    return acc


@njit
def square(x):
    return x * x


@njit
def calls_other(x):
    return square(x) + square(x + 1.0)


@njit
def with_default(a, b=2.0):
    return a * b


@njit
def to_f32(x):
    return np.float32(x) * np.float32(2.0)


@njit
def pick(c, a, b):
    return a if c else b


@pytest.mark.parametrize("a,b", [(1, 2), (-7, 3), (2**40, 5), (1.5, 2.25), (1, 2.5), (True, 3)])
def test_add_matches_python(a, b):
    got = add(a, b)
    want = add.py_func(a, b)
    assert got == want
    assert type(got) is type(want)


@pytest.mark.parametrize("x", [0.0, 1.5, -3.25, 1e10])
def test_poly(x):
    assert poly(x) == poly.py_func(x)
    assert type(poly(x)) is float


@pytest.mark.parametrize("a,b", [(17, 5), (-17, 5), (17, -5), (-17, -5), (123456789, 97)])
def test_int_ops(a, b):
    assert int_ops(a, b) == int_ops.py_func(a, b)
    assert type(int_ops(a, b)) is int


@pytest.mark.parametrize("a,b", [(7, 2), (-7, 2), (7.5, -2.0), (1, 3)])
def test_true_div_and_mod(a, b):
    assert true_div(a, b) == true_div.py_func(a, b)
    assert type(true_div(a, b)) is float
    assert floor_mod(a, b) == floor_mod.py_func(a, b)


def test_bool_result():
    assert is_between(2.0, 1.0, 3.0) is True
    assert is_between(5.0, 1.0, 3.0) is False


def test_none_result():
    assert nothing(1) is None


def test_while_loop():
    for n in (1, 6, 27, 97):
        assert collatz(n) == collatz.py_func(n)


def test_math():
    for x in (0.5, 1.0, 7.25):
        assert uses_math(x) == pytest.approx(uses_math.py_func(x), rel=1e-13)


def test_module_constants():
    assert uses_constants(3.0) == pytest.approx(uses_constants.py_func(3.0), rel=1e-15)


def test_calls_between_functions():
    assert calls_other(2.0) == 13.0


def test_defaults_and_keywords():
    assert with_default(3.0) == 6.0
    assert with_default(3.0, 4.0) == 12.0
    assert with_default(a=3.0, b=5.0) == 15.0
    assert with_default(3.0, b=0.5) == 1.5
    with pytest.raises(TypeError):
        with_default()
    with pytest.raises(TypeError):
        with_default(1.0, 2.0, 3.0)


def test_float32_result_is_python_float():
    r = to_f32(1.25)
    assert type(r) is float      # Numba boxes float32 results as Python floats too
    assert r == 2.5


@pytest.mark.parametrize("value,kind", [
    (np.float32(1.5), float), (np.float64(1.5), float), (np.int32(7), int), (np.int8(-3), int),
    (np.uint16(9), int), (np.int64(2**40), int), (np.uint64(3_000_000_000), int)])
def test_numpy_scalar_arguments(value, kind):
    got = square(value)
    want = square.py_func(value)
    assert got == pytest.approx(float(want)) if kind is float else got == int(want)
    assert type(got) is kind


def test_ternary_with_bool_argument():
    assert pick(True, 1.0, 2.0) == 1.0
    assert pick(False, 1.0, 2.0) == 2.0
    assert pick(np.bool_(True), 3, 4) == 3


def test_dispatcher_attributes():
    assert add.py_func.__name__ == "add"
    assert add.__wrapped__ is add.py_func
    assert add.__name__ == "add"
    assert isinstance(add, numjit.Dispatcher)
    add(1, 2)
    add(1.0, 2.0)
    sigs = add.signatures
    assert (numjit.int64, numjit.int64) in sigs
    assert (numjit.float64, numjit.float64) in sigs


def test_same_types_compile_once():
    square(3.0)
    before = len(square.signatures)
    for _ in range(100):
        square(4.0)
    assert len(square.signatures) == before
