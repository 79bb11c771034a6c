"""More of NumPy's functions (typer/typer_npfunc.c, stdlib/npfunc.py) against real Numba 0.56:
npfunc_cases.py runs every case under numjit and under Numba in subprocesses and the printed
lines (values, dtype, shape, memory order, or the exception's first line) must agree; the
message of a run-time error is compared without numjit's location prefix.  What Numba refuses
at compile time is a located error here."""
import os
import re

import numpy as np
import pytest

import numjit

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "npfunc_cases.py")


def run_cases(run_program, which):
    """The cases' printed lines, numjit's run-time errors without their "file:line:col: error:
    KindError: " prefix (Numba prints the bare message)."""
    lines = run_program(which, path=CASES, timeout=600).stdout.splitlines()
    return [re.sub(r" \S+:\d+:\d+: error: [A-Za-z]+Error: ", " ", l) for l in lines]


@pytest.mark.usefixtures("numba056")  # Numba 0.56 is the oracle
def test_same_as_numba(run_program):
    ours = run_cases(run_program, "numjit")
    theirs = run_cases(run_program, "numba")
    assert len(ours) == len(theirs)
    bad = [f"numjit: {a}\nnumba:  {b}" for a, b in zip(ours, theirs) if a != b]
    assert not bad, "\n".join(bad)


def test_runtime_error_is_located(make_module):
    m = make_module("npf_rt", """
        import numpy as np
        from numjit import njit

        @njit
        def f(a):
            return np.diff(a, -1)
        """)
    with pytest.raises(ValueError, match=r"npf_rt\.py:7:\d+: .*order must be non-negative"):
        m.f(np.ones(3))


ERRORS = [
    ("def f(a):\n    return np.diff(a)\n", (np.ones(6)[::2],), "non-contiguous array"),
    ("def f(a):\n    return np.bincount(a)\n", (np.ones(3),), "1-d array of integers"),
    ("def f(a):\n    return np.roll(a, 1.5)\n", (np.ones(3),), "shift must be an integer"),
    ("def f(a):\n    return np.fliplr(a)\n", (np.ones(3),), "at least 2 dimensions"),
    ("def f(a):\n    return np.triu(a, 1.0)\n", (np.ones((2, 2)),), "k must be an integer"),
    ("def f(a):\n    return np.interp(a, a, a)\n", (np.ones((2, 2)),), "xp must be 1D"),
    ("def f(a):\n    return np.interp(1.0, a, a)\n", (np.ones(2) * 1j,),
     "Cannot cast array data from complex dtype to float64 dtype"),
    ("def f(a):\n    return np.repeat(a, np.ones(2))\n", (np.ones(2),),
     "The repeats argument must be an integer"),
    ("def f(a):\n    return np.around(a, 1)\n", (np.ones(2),), "needs decimals and out"),
    ("def f(a):\n    return np.count_nonzero(a, axis=0)\n", (np.ones((2, 2)),), "along an axis"),
    ("def f(a):\n    r = (0.0, 1.0)\n    return np.histogram(a, 3, r)\n", (np.ones(2),),
     "tuple (lo, hi)"),
    ("def f(a):\n    return np.digitize(a, a)\n", (np.ones((2, 2)),), "1-d bins"),
    ("def f(a):\n    return np.trapz(a)\n", (np.ones((2, 2)),), "(a 1-d y)"),
    ("def f(a):\n    return np.trapz(a, dx=a)\n", (np.ones(2),), "dx must be a number"),
]


@pytest.mark.parametrize("body,args,msg", ERRORS)
def test_errors_are_located(make_module, body, args, msg):
    m = make_module("npf_err", "import numpy as np\nfrom numjit import njit\n@njit\n" + body)
    with pytest.raises(numjit.errors.TypingError) as ei:
        m.f(*args)
    text = str(ei.value)
    assert msg in text
    assert re.search(r"npf_err\.py:\d+:\d+: error: ", text)
    assert "^" in text


def test_stdlib_names_are_unique():
    """The functions of numjit's Python-source library (stdlib/*.py) share one namespace in
    compiled code: a second def of a name silently replaces the first (np.tri's helper once
    took np.triu's name and broke triu and tril)."""
    import ast
    import collections
    import glob
    root = os.path.join(os.path.dirname(__file__), "..", "..", "stdlib")
    names = collections.Counter()
    for path in glob.glob(os.path.join(root, "*.py")):
        tree = ast.parse(open(path, encoding="utf-8").read())
        names.update(n.name for n in tree.body if isinstance(n, ast.FunctionDef))
    assert not [n for n, c in names.items() if c > 1]
