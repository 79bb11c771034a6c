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


def test_instance_assigning_array_members_made_in_njit_is_a_located_error(run_program):
    # an instance made in compiled code runs its __init__ there, where an array member cannot
    # be assigned yet: the error is at the assignment, with the constructor's call as a note
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def g(k):
            return C(k)

        g(2)
    """), ok=False)
    assert "prog_numjit.py:10:5: error: assigning the array member 'x' of jitclass C in " \
        "compiled code is not supported by numjit yet" in r.stderr, r.stderr
    assert "prog_numjit.py:17:12: note:" in r.stderr, r.stderr


def test_constructor_arity_is_checked(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def g(k):
            return C(k, k)

        g(2)
    """), ok=False)
    assert "C() takes 1 positional arguments but 2 were given" in r.stderr, r.stderr


def test_property_read_in_an_array_assigning_method_is_refused_at_its_line(run_program):
    # a method that assigns an array member runs members-in, members-out, without the
    # instance's properties (one that does not runs on the instance: tests/lang/
    # jitclass_props.py)
    r = run_program("numjit", textwrap.dedent("""\
        import numpy as np
        from numba import float64
        from numba.experimental import jitclass


        @jitclass([("v", float64), ("a", float64[:])])
        class D:
            def __init__(self):
                self.v = 1.0

            def grow(self):
                self.a = np.zeros(self.half)

            @property
            def half(self):
                return int(self.v)

        d = D()
        print(d.half)
        d.grow()
    """), ok=False)
    assert r.stdout == "1\n", r.stdout
    assert "UnsupportedError" in r.stderr and "prog_numjit.py:12:27: error: 'self.half'" \
        in r.stderr, r.stderr


def test_writing_method_in_an_expression_of_an_array_assigning_method(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        import numpy as np
        from numba import float64
        from numba.experimental import jitclass


        @jitclass([("v", float64), ("a", float64[:])])
        class D:
            def __init__(self):
                self.v = 1.0

            def bump(self):
                self.v += 1.0
                return self.v

            def grow(self):
                self.a = np.zeros(int(self.bump()) * 2)

        d = D()
        print(d.bump())
        d.grow()
    """), ok=False)
    assert r.stdout == "2.0\n", r.stdout
    assert "UnsupportedError" in r.stderr and \
        "prog_numjit.py:16:31: error: 'self.bump(...)' changes members" in r.stderr, r.stderr


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
