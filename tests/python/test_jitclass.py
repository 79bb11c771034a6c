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


def test_instance_with_array_members_passed_to_njit(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(c):
            c.x[0] = 5.0
            return c.n, c.total()

        c = C(3)
        print(C(3).total(), f(c), c.x.tolist())
    """))
    assert r.stdout == "9.0 (3, 21.0) [5.0, 1.0, 1.0]\n", r.stdout


def test_array_member_assigned_in_njit_is_a_located_error(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(c):
            c.x = np.zeros(2)

        f(C(2))
    """), ok=False)
    assert "prog_numjit.py:17:5: error: assigning the array member 'x' of jitclass C in " \
        "compiled code is not supported by numjit yet" in r.stderr, r.stderr


def test_array_member_store_checks(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        c = C(2)
        ro = np.ones(3)
        ro.flags.writeable = False
        for v in (ro, np.ones((2, 2)), np.ones(3, dtype=np.int64)):
            try:
                c.x = v
            except TypeError as e:
                print(e)
        c.x = np.arange(6.0)[::2]        # float64[:] takes any strides
        print(c.total())
    """))
    assert r.stdout == (
        "cannot store a read-only array in member 'x' of C (array(float64, 1d, A))\n"
        "cannot store a 2-d array in member 'x' of C (array(float64, 1d, A))\n"
        "cannot store an array of int64 in member 'x' of C (array(float64, 1d, A))\n"
        "12.0\n"), r.stdout


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
