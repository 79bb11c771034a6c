"""Inner functions (typer/typer_closure.c) and list comprehensions in sum/min/max
(typer/typer_comp.c): what numjit refuses on its own, located, beside the differential programs
tests/lang/inner_functions.py and tests/lang/list_comprehension_reduce.py."""
import numpy as np
import pytest

import numjit


def test_inner_function_defined_twice_is_located(make_module):
    m = make_module("inner_twice", """
        from numjit import njit

        @njit
        def f(x, flag):
            if flag:
                def g(y):
                    return y + x
            else:
                def g(y):
                    return y - x
            return g(1)
        """)
    with pytest.raises(numjit.errors.TypingError,
                       match=r"inner_twice.py:10:9: error: the inner function 'g' is defined "
                             r"twice"):
        m.f(2, True)


def test_inner_function_arity_is_checked(make_module):
    m = make_module("inner_arity", """
        from numjit import njit

        @njit
        def f(x):
            def g(y):
                return y + x
            return g(1, 2)
        """)
    with pytest.raises(numjit.errors.TypingError,
                       match=r"inner_arity.py:8:12: error: too many positional arguments: g\(\) takes "
                             r"1 argument but 2 were given"):
        m.f(2)


def test_empty_min_of_comprehension_raises(make_module):
    m = make_module("comp_empty", """
        from numjit import njit

        @njit
        def f(a):
            return min([x for x in a]), max([x * 2 for x in a if x > 0])
        """)
    assert m.f(np.array([3.0, -1.0, 2.0])) == (-1.0, 6.0)
    with pytest.raises(ValueError, match="min\\(\\) arg is an empty sequence"):
        m.f(np.zeros(0))


def test_inner_function_defaults_and_keywords(make_module):
    # a call binds to the def's own parameters: defaults filled in, keywords by name
    m = make_module("inner_defaults", """
        from numjit import njit

        @njit
        def f(c):
            g = lambda x, y=2: x * y + c
            def h(a, b=0.5):
                return a - b
            return g(3), g(3, 4), g(y=5, x=1), h(2), h(b=1, a=4)
        """)
    assert m.f(1) == (7, 13, 6, 1.5, 3)


def test_lambda_misused_is_located(make_module):
    m = make_module("lambda_arity", """
        from numjit import njit

        @njit
        def f(x):
            g = lambda y: y + x
            return g(1, 2), (lambda: 1)
        """)
    with pytest.raises(numjit.errors.TypingError,
                       match=r"lambda_arity.py:7:12: error: too many positional arguments: "
                             r"g\(\) takes 1 argument but 2 were given"):
        m.f(2)
