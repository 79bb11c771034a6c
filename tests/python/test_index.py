"""Advanced indexing and joining arrays (typer/typer_index.c, typer/typer_join.c) against real
Numba 0.56: index_cases.py runs every case under numjit and under Numba in subprocesses and
the printed lines (values, dtype, shape, memory order, or the exception) must agree; the
message of a run-time error is compared without numjit's location prefix."""
import os
import re

import numpy as np
import pytest

import numjit

pytestmark = pytest.mark.usefixtures("numba056")  # Numba 0.56 is the oracle

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "index_cases.py")


def run_cases(run_program, which):
    """The cases' printed lines, numjit's run-time errors without their "file:line:col: error:
    KindError: " prefix (Numba prints the bare message)."""
    lines = run_program(which, path=CASES, timeout=600).stdout.splitlines()
    return [re.sub(r": \S+:\d+:\d+: error: [A-Za-z]+Error: ", ": ", l) for l in lines]


def test_same_as_numba(run_program):
    ours = run_cases(run_program, "numjit")
    theirs = run_cases(run_program, "numba")
    assert len(ours) == len(theirs)
    bad = [f"numjit: {a}\nnumba:  {b}" for a, b in zip(ours, theirs) if a != b]
    assert not bad, "\n".join(bad)


def test_out_of_bounds_raise(make_module):
    """Numba reads past the array there (with boundscheck=True it raises the same)."""
    m = make_module("idx_oob", """
        import numpy as np
        from numjit import njit

        @njit
        def get(a, i):
            return a[i]

        @njit
        def put(a, i, v):
            a[i] = v
        """)
    a = np.arange(6.0)
    for idx in (np.array([6]), np.array([-7]), np.array([False, True, False, False, False, False, True])):
        with pytest.raises(IndexError, match="index is out of bounds"):
            m.get(a, idx)
    with pytest.raises(IndexError, match="index is out of bounds"):
        m.put(a, np.array([0, 9]), 1.0)
    np.testing.assert_array_equal(m.get(np.arange(6.0), np.array([-1, -6])), [5.0, 0.0])


def test_filter_matches_numpy(make_module):
    m = make_module("idx_np", """
        import numpy as np
        from numjit import njit

        @njit
        def filt(a, t):
            return a[a > t]

        @njit
        def zero_big(a):
            a[a > 0.5] = 0.0

        @njit
        def parts(a):
            i, j = np.nonzero(a > 0.5)
            return i, j, np.flatnonzero(a > 0.5), np.argwhere(a > 0.5)
        """)
    rng = np.random.RandomState(3)
    for n in (0, 1, 7, 1000, 4097):
        a = rng.random_sample(n)
        for t in (-1.0, 0.5, 2.0):  # all, some, none
            np.testing.assert_array_equal(m.filt(a, t), a[a > t])
        a32 = a.astype(np.float32)
        r = m.filt(a32, 0.25)
        assert r.dtype == np.float32
        np.testing.assert_array_equal(r, a32[a32 > 0.25])
        b = a.copy()
        m.zero_big(b)
        c = a.copy()
        c[c > 0.5] = 0.0
        np.testing.assert_array_equal(b, c)
    s = rng.random_sample((40, 30))[::2, ::-3]
    np.testing.assert_array_equal(m.filt(s[:, 0], 0.3), s[:, 0][s[:, 0] > 0.3])
    i, j, f, w = m.parts(s)
    ei, ej = np.nonzero(s > 0.5)
    np.testing.assert_array_equal(i, ei)
    np.testing.assert_array_equal(j, ej)
    np.testing.assert_array_equal(f, np.flatnonzero(s > 0.5))
    np.testing.assert_array_equal(w, np.argwhere(s > 0.5))


ERRORS = [
    ("def f(a):\n    return a[a > 1]\n", (np.ones((2, 2)),),
     "an array index must be a 1-d array of integers or booleans"),
    ("def f(a, i):\n    return a[i, i]\n", (np.ones((2, 2)), np.array([0])),
     "only one advanced index is supported"),
    ("def f(a, i):\n    return a[1, i]\n", (np.ones((2, 2)), np.array([0])),
     "only one advanced index is supported"),
    ("def f(a, i):\n    return a[i]\n", (np.ones(4), np.zeros(1)),
     "an array index must be a 1-d array of integers or booleans"),
    ("def f(a, b):\n    return np.concatenate((a, b))\n", (np.ones(4), np.ones((2, 2))),
     "must have the same number of dimensions"),
    ("def f(a, k):\n    return np.stack((a, a), axis=k)\n", (np.ones(4), 0),
     "axis as a constant integer"),
    ("def f(a, v):\n    a[np.array([0])] = v\n", (np.ones(4), np.ones((1, 1))),
     "cannot assign"),
    ("def f(a):\n    return np.nonzero(3)\n", (np.ones(4),), "np.nonzero() of int64"),
]


@pytest.mark.parametrize("body,args,msg", ERRORS)
def test_errors_are_located(make_module, body, args, msg):
    m = make_module("idx_err", "import numpy as np\nfrom numjit import njit\n@njit\n" + body)
    with pytest.raises(numjit.errors.TypingError) as ei:
        m.f(*args)
    text = str(ei.value)
    assert msg in text
    assert re.search(r"idx_err\.py:5:\d+: error: ", text)
    assert "^" in text
