# `x and a <= k < b` in a loop: the chained comparison as the right operand of and/or is
# typed ahead without emitting; the code after it must still land in the loop's block.
from numba import njit


@njit
def all_near(n, lo, hi):
    ok = True
    for i in range(n):
        k = i - 2
        ok = ok and lo <= k < hi
    return ok


@njit
def any_outside(n):
    bad = False
    for i in range(n):
        bad = bad or not (0 <= i * i < 50)
    return bad


print(all_near(3, -3, 3), all_near(10, -3, 3), all_near(0, 0, 0))
print(any_outside(5), any_outside(9))
