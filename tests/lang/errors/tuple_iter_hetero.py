# expect error: 9:14: heterogeneous tuple
# Iterating a tuple whose elements differ in type (Numba needs literal_unroll).
from numba import njit


@njit
def f(x):
    s = 0.0
    for v in (1, x):
        s += v
    return s


if __name__ == "__main__":
    print(f(2.5))
