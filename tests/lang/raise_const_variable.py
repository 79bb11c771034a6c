# A raised exception's argument may be a variable assigned once, to a constant string or
# number (quantecon's root finders: `msg = "Failed to converge"; raise RuntimeError(msg)`):
# Numba 0.56's constant inference reads through it.
from numba import njit


@njit
def converge(x, disp):
    if x > 10.0 and disp:
        msg = "Failed to converge"
        raise RuntimeError(msg)
    return x * 2.0


@njit
def coded(n):
    code = 7
    if n < 0:
        raise ValueError("negative", code)
    return n + code


@njit
def asserted(n):
    why = "n must be small"
    assert n < 5, why
    return n


print(converge(3.0, True), type(converge(3.0, True)).__name__)
print(converge(30.0, False))
try:
    converge(30.0, True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(coded(2))
try:
    coded(-1)
except ValueError as e:
    print(type(e).__name__, e)
print(asserted(1))
try:
    asserted(9)
except AssertionError as e:
    print(type(e).__name__, e)
