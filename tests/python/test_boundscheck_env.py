"""NUMBA_BOUNDSCHECK (and numjit's own NUMJIT_BOUNDSCHECK) as Numba 0.56 reads it: set to an
integer it overrides every function's boundscheck= option, on or off.  The same program runs
under Numba and under numjit with the variable set, and the outputs are compared."""
import pytest

PROGRAM = """
import numpy as np
from numba import njit

@njit
def plain(a, i):
    return a[i]

@njit(boundscheck=False)
def off(a, i):
    return a[i]

@njit
def put(a, i):
    a[i] = 1.0

def attempt(f, *args):
    try:
        print(repr(f(*args)))
    except IndexError:
        print("IndexError")

a = np.arange(5.0)
attempt(plain, a, 5)
attempt(off, a, -6)
attempt(put, a, 9)
attempt(plain, a, -5)
attempt(off, a, 4)
"""


@pytest.mark.parametrize("var", ["NUMBA_BOUNDSCHECK", "NUMJIT_BOUNDSCHECK"])
def test_boundscheck_forced_on(run_program, monkeypatch, numba056, var):
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    want = run_program("numba", PROGRAM).stdout
    assert want.split() == ["IndexError", "IndexError", "IndexError", "0.0", "4.0"]
    if var == "NUMJIT_BOUNDSCHECK":
        monkeypatch.delenv("NUMBA_BOUNDSCHECK")
        monkeypatch.setenv(var, "1")
    assert run_program("numjit", PROGRAM).stdout == want


OFF = """
import numpy as np
from numba import njit

@njit(boundscheck=True)
def checked(a, i):
    return a[i]

big = np.arange(10.0)
try:
    print(repr(checked(big[:5], 7)))  # unchecked: reads big[7], inside the same buffer
except IndexError:
    print("IndexError")
"""


def test_boundscheck_forced_off(run_program, monkeypatch, numba056):
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "0")
    want = run_program("numba", OFF).stdout
    assert want == "7.0\n"
    assert run_program("numjit", OFF).stdout == want
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "not a number")  # ignored: the option decides
    assert run_program("numjit", OFF).stdout == "IndexError\n"
