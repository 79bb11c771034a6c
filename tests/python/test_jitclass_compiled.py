"""jitclass instances crossing into compiled code, seen from Python: one state on both sides
(the instance's members live in a record that compiled code is given, not a copy), one
compiled specialization per class (two classes with the same members do not share one), and
the errors for what is not supported there yet."""

import textwrap

PREFIX = textwrap.dedent("""\
    import numpy as np
    from numba import njit, float64, int64, int32
    from numba.experimental import jitclass


    @jitclass([("n", int32), ("x", float64)])
    class S:
        def __init__(self, n):
            self.n = n
            self.x = 0.5

        def bump(self):
            self.n += 1
            return self.n

        @property
        def twice(self):
            return self.x * 2

""")


def test_one_state_on_both_sides(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def touch(s, v):
            s.x = v
            return s.bump()

        s = S(4)
        print(touch(s, 2.5), s.n, s.x, s.twice)
        s.n = 40                      # a write from Python, seen by compiled code
        print(touch(s, 1.0), s.n, type(s.n).__name__)
        t = S(0)
        print(touch(t, 3.0), t.n, s.n, s.x, t.x)
        print(touch(s, 7), s.x, type(s.x).__name__)
    """))
    assert r.stdout == ("5 5 2.5 5.0\n41 41 int\n1 1 41 1.0 3.0\n42 7.0 float\n"), r.stdout


def test_same_instance_twice_in_one_call(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def twice(a, b):
            a.bump()
            return b.bump()

        s = S(1)
        print(twice(s, s), s.n)
    """))
    assert r.stdout == "3 3\n", r.stdout


def test_classes_with_the_same_members_do_not_share_code(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        from numba import njit, float64
        from numba.experimental import jitclass

        @jitclass([("v", float64)])
        class A:
            def __init__(self, v):
                self.v = v

            def f(self):
                return self.v + 1

        @jitclass([("v", float64)])
        class B:
            def __init__(self, v):
                self.v = v

            def f(self):
                return self.v * 100

        @njit
        def call(o):
            return o.f()

        print(call(A(1.0)), call(B(1.0)), call(A(2.0)), call(B(2.0)))
    """))
    assert r.stdout == "2.0 100.0 3.0 200.0\n", r.stdout


def test_unknown_attribute_in_compiled_code_is_located(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(s):
            return s.nothing

        f(S(1))
    """), ok=False)
    assert "prog_numjit.py:22:12: error: Unknown attribute 'nothing' of jitclass S" \
        in r.stderr, r.stderr


def test_setting_a_property_without_setter_in_compiled_code(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(s):
            s.twice = 3.0

        f(S(1))
    """), ok=False)
    assert "prog_numjit.py:22:5: error: Unknown attribute 'twice' of jitclass S" in r.stderr, \
        r.stderr


def test_the_mark_field_is_no_member(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(s):
            return s._nj_S_1

        f(S(1))
    """), ok=False)
    assert "prog_numjit.py:22:12: error: Unknown attribute '_nj_S_1' of jitclass S" \
        in r.stderr, r.stderr


def test_strided_and_contiguous_array_members(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        import numpy as np
        from numba import njit, float64
        from numba.experimental import jitclass

        @jitclass([("a", float64[:]), ("c", float64[:, ::1])])
        class M:
            def __init__(self):
                self.a = np.zeros(1)
                self.c = np.zeros((1, 1))

        @njit
        def f(m):
            s = 0.0
            for i in range(m.a.size):
                s += m.a[i] * (i + 1)
            m.a[-1] = -1.0
            return s, m.c.sum()

        m = M()
        base = np.arange(8.0)
        m.a = base[::-3]                     # 7, 4, 1: negative strides
        try:
            m.c = np.ones((3, 4))[:, ::2]
        except TypeError as e:
            print(e)
        m.c = np.ones((2, 2))
        print(f(m), base.tolist())
    """))
    assert r.stdout == (
        "cannot store an array that is not C-contiguous in member 'c' of M "
        "(array(float64, 2d, C))\n"
        "(18.0, 4.0) [0.0, -1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]\n"), r.stdout


def test_array_member_never_set(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        import numpy as np
        from numba import njit, float64
        from numba.experimental import jitclass

        @jitclass([("a", float64[:])])
        class M:
            def __init__(self):
                pass

            def first(self):
                return self.a.size

        @njit
        def size(m):
            return m.a.size, m.a.shape, m.a[0]

        m = M()
        print(size(m))                  # an empty array where nothing was stored, read past
                                        # its end without boundscheck: zeros, not a crash
        try:
            m.first()
        except ValueError as e:
            print(e)
    """))
    assert r.stdout == "(0, (0,), 0.0)\nmember 'a' of M was never set\n", r.stdout


def test_subscript_without_getitem_is_located(run_program):
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        @njit
        def f(s):
            return s[0]

        @njit
        def g(s):
            s[0] = 1

        for h in (f, g):
            try:
                h(S(1))
            except Exception as e:
                print(str(e).splitlines()[0].split("prog_numjit.py:")[1])
    """))
    assert r.stdout == ("22:12: error: jitclass S has no __getitem__\n"
                        "26:5: error: jitclass S has no __setitem__\n"), r.stdout


def test_instances_made_in_compiled_code_are_released(run_program):
    # each instance is a counted block: made and dropped in a loop, returned and dropped from
    # Python, passed through compiled code and back; none may stay (a leak would keep about
    # 48 bytes per instance: 4e6 of them, 190 MB)
    r = run_program("numjit", PREFIX + textwrap.dedent("""\
        import resource

        @njit
        def churn(k):
            t = 0
            for i in range(k):
                s = S(i)
                u = s
                t += u.bump()
            return t

        @njit
        def make(n):
            return S(n)

        @njit
        def same(s):
            return s

        churn(10)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(churn(4_000_000))
        for i in range(100_000):
            a = same(make(i))
            b = same(S(i))
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(a.n, b.n, grown < 40_000)
    """))
    assert r.stdout == "8000002000000\n99999 99999 True\n", r.stdout


def test_returned_instance_is_pythons_own(run_program):
    # an instance Python made, returned from compiled code, is found again with its array
    # members (Python's object holds them), and outlives the object it was passed as
    r = run_program("numjit", textwrap.dedent("""\
        import gc
        import numpy as np
        from numba import njit, float64
        from numba.experimental import jitclass

        @jitclass([("v", float64), ("a", float64[:])])
        class H:
            def __init__(self, n):
                self.v = 1.0
                self.a = np.arange(float(n))

            def total(self):
                return self.a.sum() + self.v

        @njit
        def same(h):
            h.v += 1.0
            return h

        @jitclass([("x", float64)])
        class K:
            def __init__(self, x):
                self.x = x

        @njit
        def give(k):          # its parameter is not counted again: the result must be
            return k          # a new reference all the same

        h = H(4)
        g = same(h)
        del h
        gc.collect()
        junk = [np.ones(4) * 7 for _ in range(100)]
        print(type(g).__name__, g.v, g.a.tolist(), g.total())
        k = K(1.5)
        for _ in range(1000):
            give(k)
        junk = [K(9.0) for _ in range(100)]
        print(k.x, give(k).x)
    """))
    assert r.stdout == "H 2.0 [0.0, 1.0, 2.0, 3.0] 8.0\n1.5 1.5\n", r.stdout


def test_instance_members_are_refused_at_the_class(run_program):
    r = run_program("numjit", textwrap.dedent("""\
        from numba import float64, deferred_type, optional
        from numba.experimental import jitclass

        node_type = deferred_type()

        @jitclass([("value", float64), ("next", node_type)])
        class Node:
            def __init__(self, value):
                self.value = value
    """), ok=False)
    assert "jitclass member 'next' of Node has type DeferredType#" in r.stderr, r.stderr
    assert "a jitclass instance as a member of another is not supported by numjit yet" \
        in r.stderr, r.stderr
