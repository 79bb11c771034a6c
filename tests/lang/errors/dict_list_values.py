# expect error: 8:9: list(int64) as value is forbidden
# Numba 0.56 refuses its (reflected) lists as the values of a typed dict.
from numba import njit


@njit
def f():
    d = {1: [1, 2], 2: [3]}
    return len(d)


print(f())
