"""Typed dicts and sets of compiled code: a set returned to Python is a Python set, a dict a
numba.typed.Dict; what stays inside compiled code for now is refused with a located error, and the tables stay right under
growth, deletion and reuse."""
import pytest

import numjit


def test_returning_a_dict_python_cannot_hold_is_a_located_error(make_module):
    mod = make_module("nj_dict_ret", """
        from numjit import njit

        @njit
        def f(n):
            d = {1: (2.0, 1.0)}
            return d

        @njit
        def h(n):
            return {1: 2.0}
        """)
    with pytest.raises(numjit.TypingError, match=r"nj_dict_ret.py:5:1: error: 'f' returns "
                                                 r"DictType\[int64,UniTuple"):
        mod.f(1)
    assert type(mod.h(1)).__name__ == "Dict" and mod.h(1)[1] == 2.0


def test_a_returned_set_is_a_python_set(make_module):
    mod = make_module("nj_set_ret", """
        from numjit import njit

        @njit
        def f(n):
            return {n, 2}

        @njit
        def g(n):
            s = {1.5}
            s.discard(1.5)
            for i in range(n):
                s.add(i * 0.5)
            return s
        """)
    r = mod.f(1)
    assert type(r) is set and r == {1, 2} and all(type(x) is int for x in r)
    assert mod.f(1) is not r
    assert mod.g(0) == set() and type(mod.g(0)) is set
    assert mod.g(3) == {0.0, 0.5, 1.0}


def test_returning_a_set_of_unknown_items_is_a_located_error(make_module):
    mod = make_module("nj_set_untyped", """
        from numjit import njit

        @njit
        def f(n):
            return set()
        """)
    with pytest.raises(numjit.TypingError):
        mod.f(1)


def test_del_of_a_name_is_refused(make_module):
    mod = make_module("nj_del_name", """
        from numjit import njit

        @njit
        def f(n):
            x = n
            del x
            return n
        """)
    with pytest.raises(numjit.TypingError, match=r"'del' of dict items only") as e:
        mod.f(1)
    assert ":7:" in str(e.value)


def test_many_inserts_and_deletes_keep_every_item(make_module):
    mod = make_module("nj_dict_churn", """
        from numjit import njit

        @njit
        def churn(n):
            d = {}
            for i in range(n):
                d[i * 7919 % 100003] = i
            for i in range(0, n, 2):
                del d[i * 7919 % 100003]
            for i in range(n, n + n // 4):
                d[i * 7919 % 100003] = i
            total = 0
            count = 0
            for k, v in d.items():
                total += v
                count += 1
            return count, len(d), total, d[1 * 7919 % 100003]
        """)
    n = 20000
    ref = {}
    for i in range(n):
        ref[i * 7919 % 100003] = i
    for i in range(0, n, 2):
        del ref[i * 7919 % 100003]
    for i in range(n, n + n // 4):
        ref[i * 7919 % 100003] = i
    assert mod.churn(n) == (len(ref), len(ref), sum(ref.values()), ref[7919])


def test_string_keys_and_array_values_are_released(make_module):
    mod = make_module("nj_dict_refs", """
        import numpy as np
        from numjit import njit

        @njit
        def f(n):
            total = 0.0
            for r in range(n):
                d = {'a': np.ones(3)}
                for i in range(20):
                    d[str(i)] = np.full(4, i * 1.0)
                del d['3']
                d.pop('4')
                total += d['19'].sum() + len(d)
            return total
        """)
    assert mod.f(50) == 50 * (19 * 4.0 + 19)


def test_a_set_argument_is_reflected(make_module):
    mod = make_module("nj_set_arg", """
        from numjit import njit

        @njit
        def f(s, x):
            s.add(x)
            s.discard(1)
            return len(s)
        """)
    s = {1, 2}
    assert mod.f(s, 5) == 2 and s == {2, 5}
    t = {0.5}
    assert mod.f(t, 1.5) == 2 and t == {0.5, 1.5}
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty set"):
        mod.f(set(), 1)
    with pytest.raises(TypeError, match="can't unbox heterogeneous set"):
        mod.f({1, 2.5}, 1)
    with pytest.raises(numjit.TypingError, match="sets of numbers"):
        mod.f({"a"}, 1)


def test_signatures_spell_reflected_sets_and_lists_of_str(make_module):
    mod = make_module("nj_set_sig", """
        from numjit import njit

        @njit
        def f(s, l):
            return len(s) + len(l)
        """)
    assert mod.f({1, 2}, ["a"]) == 3
    (sig,) = mod.f.signatures
    assert [str(t) for t in sig] == ["reflected set(int64)", "reflected list(unicode_type)<iv=None>"]
    assert isinstance(sig[0], numjit.types.Set) and sig[0].dtype == numjit.types.int64
