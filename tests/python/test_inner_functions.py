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
                       match=r"inner_arity.py:8:12: error: g\(\) takes 1 argument but 2 were "
                             r"given"):
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
