"""numba.experimental.jitclass through numjit: what tests/lang/jitclass_basic.py does not
show — the errors, and the Python side of instances in compiled code (tests/lang/
jitclass_compiled.py has the rest).  What numjit's jitclass does not take yet is refused with
a message at the place of use."""

import textwrap

PREFIX = textwrap.dedent("""\
    import numpy as np
    from numba import njit, float64, int64
    from numba.experimental import jitclass


    @jitclass([("n", int64), ("x", float64[:])])
    class C:
        def __init__(self, n):
            self.n = n
            self.x = np.ones(n)

        def total(self):
            return self.x.sum() * self.n

""")


def test_instance_with_array_members_passed_to_njit_is_refused(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(c):
            return c.n

        print(C(3).total())
        f(C(2))
    """), ok=False)
    assert r.stdout == "9.0\n"
    assert "TypingError" in r.stderr and "argument 1: jitclass C has array members (x): " \
        "numjit passes a jitclass instance to compiled code when its members are numbers" \
        in r.stderr and "(a value of type 'C')" in r.stderr, r.stderr


def test_instance_made_in_njit_is_a_located_error(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def g(k):
            return C(k)

        g(2)
    """), ok=False)
    assert "prog_numjit.py:17:12: error:" in r.stderr, r.stderr
    assert "making a jitclass instance inside compiled code (C(...)) is not supported" \
        in r.stderr, r.stderr


def test_property_read_in_a_method_is_refused_at_its_line(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        from numba import float64
        from numba.experimental import jitclass


        @jitclass([("v", float64)])
        class D:
            def __init__(self):
                self.v = 1.0

            def twice(self):
                return self.half * 4

            @property
            def half(self):
                return self.v / 2
    """), ok=False)
    assert "UnsupportedError" in r.stderr and "prog_numjit.py:11:16: error: 'self.half'" \
        in r.stderr, r.stderr


def test_writing_method_called_in_an_expression_is_refused(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        from numba import float64
        from numba.experimental import jitclass


        @jitclass([("v", float64)])
        class D:
            def __init__(self):
                self.v = 1.0

            def bump(self):
                self.v += 1.0
                return self.v

            def twice(self):
                return self.bump() * 2
    """), ok=False)
    assert "UnsupportedError" in r.stderr and \
        "prog_numjit.py:15:16: error: 'self.bump(...)' changes members" in r.stderr, r.stderr


def test_member_of_unsupported_type(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        from numba import types
        from numba.experimental import jitclass


        @jitclass([("s", types.unicode_type)])
        class E:
            def __init__(self):
                pass
    """), ok=False)
    assert "UnsupportedError" in r.stderr and "unicode_type" in r.stderr, r.stderr
