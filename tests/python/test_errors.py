"""Errors: run-time errors of compiled code are Python's built-in exceptions; typing errors are
numjit.errors.TypingError (a TypeError) with the rendered diagnostic; source outside the
subset is NumjitSyntaxError (a SyntaxError) carrying the diagnostic text."""
import numpy as np
import pytest

import numjit
from numjit import njit
from numjit.errors import NumjitSyntaxError, TypingError, UnsupportedError


@njit
def int_floordiv(a, b):
    return a // b


@njit
def int_mod(a, b):
    return a % b


@njit
def float_div(a, b):
    return a / b


@njit(boundscheck=True)
def checked_get(a, i):
    return a[i]


@njit
def first(a):
    return a[0]


def test_zero_division_int():
    with pytest.raises(ZeroDivisionError):
        int_floordiv(1, 0)
    with pytest.raises(ZeroDivisionError):
        int_mod(5, 0)


def test_zero_division_float():
    with pytest.raises(ZeroDivisionError):
        float_div(1.0, 0.0)


def test_error_then_success():
    with pytest.raises(ZeroDivisionError):
        int_floordiv(1, 0)
    assert int_floordiv(7, 2) == 3


def test_boundscheck_index_error():
    a = np.arange(3.0)
    assert checked_get(a, 2) == 2.0
    with pytest.raises(IndexError):
        checked_get(a, 3)


def test_unsupported_argument_type():
    assert first("abc") == "a"  # a str is Numba's unicode_type
    with pytest.raises(TypingError) as info:
        first({1: 2.0})
    assert isinstance(info.value, TypeError)
    assert first([1.0, 2.0]) == 1.0  # a list of numbers is Numba's reflected list
    with pytest.raises(TypingError):
        first([object()])  # a list of what numjit cannot hold
    with pytest.raises(TypingError):
        first(np.zeros(3, dtype=np.float16))


def test_typing_error_has_location(make_module):
    mod = make_module("nj_typing_err", """
        import numpy as np
        from numjit import njit

        @njit
        def bad(x, flag):
            y = x + flag
            return y.nonexistent_attribute
        """)
    with pytest.raises(TypingError) as info:
        mod.bad(np.zeros(3), True)
    text = str(info.value)
    assert "nj_typing_err.py:" in text
    assert "error" in text


def test_syntax_outside_subset(make_module):
    mod = make_module("nj_syntax_err", """
        from numjit import njit

        @njit
        def uses_with(x):
            with open(x) as fh:
                return fh.read()
        """)
    with pytest.raises(NumjitSyntaxError) as info:
        mod.uses_with(1.0)
    assert isinstance(info.value, SyntaxError)
    assert "nj_syntax_err.py:" in str(info.value)


def test_one_unsupported_function_leaves_the_others(make_module):
    """As with Numba, each function compiles on its own: a construct numjit does not support
    in one decorated function is reported when that function is called, with its location,
    and the file's other functions work."""
    mod = make_module("nj_partly", """
        from numjit import njit

        @njit
        def good(a):
            return a + 1

        @njit
        def bad(n):
            s = sum(x for x in range(n))
            return s

        @njit
        def uses_good(a):
            return good(a) * 2
        """)
    assert mod.good(41) == 42
    assert mod.uses_good(1) == 4
    with pytest.raises(NumjitSyntaxError) as info:
        mod.bad(3)
    text = str(info.value)
    assert "nj_partly.py:" in text and "generator expressions" in text and "not supported" in text
    assert mod.good(1) == 2  # still fine afterwards


def test_unrelated_module_code_is_ignored(make_module):
    mod = make_module("nj_mixed", """
        import json
        from numjit import njit

        class NotCompiled:
            def method(self):
                return {k: v for k, v in json.loads("{}").items()}

        def plain_python(x):
            print(f"{x!r}")

        @njit
        def twice(x):
            return 2 * x

        if __name__ == "__main__":
            plain_python(twice(21))
        """)
    assert mod.twice(21) == 42


def test_star_args_and_keyword_only_parameters():
    # *args is a tuple of the extra arguments, as in Numba; keyword-only parameters are
    # refused where the function is first compiled, not when decorated: Numba compiles
    # lazily, and a library whose module defines such a function must import
    @njit
    def star(x, *args):
        return x + len(args)

    @njit
    def kw_only(x, *, scale=2):
        return x * scale

    assert star(1, 2, 3.5) == 3 and star(1) == 1 and star(x=5) == 5
    with pytest.raises(TypeError, match="not enough arguments"):
        star()
    with pytest.raises(UnsupportedError, match="parameter 'scale'"):
        kw_only(1)
    with pytest.raises(UnsupportedError):
        numjit.njit("int64(int64)")(lambda *a: 0)


def test_lambda_refused():
    f = njit(lambda x: x + 1)
    with pytest.raises(UnsupportedError):
        f(1)


def test_forceobj_runs_python():
    """Object mode: the Python function's own results, with Python objects."""
    def g(x):
        return [x, str(x)]

    for f in (numjit.jit(forceobj=True)(g), numjit.jit(g, forceobj=True),
              numjit.jit("int64(int64)", forceobj=True)(g)):
        assert f.py_func is g and f.__name__ == "g"
        assert f(1) == [1, "1"]


def test_unknown_option():
    with pytest.raises(TypeError):
        njit(no_such_option=True)


def test_cuda_target_without_a_gpu():
    """target='cuda' exists everywhere; without a driver its use is a clear error."""
    if numjit.cuda.is_available():
        pytest.skip("this machine has a GPU (tests/gpu covers it)")

    def g(x):
        return x + 1
    gu = numjit.vectorize(["float64(float64)"], target="cuda")(g)
    with pytest.raises(Exception) as info:
        gu(np.ones(3))
    assert "driver" in str(info.value) or "CUDA" in str(info.value)
