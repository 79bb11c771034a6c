# expect error: 10:9: operator + is not supported between list(int64) and float64
# A list comprehension kept as a list, then added to a float: Numba 0.56 has no '+' of a list
# and a number ("No implementation of function ... add(list(int64)<iv=None>, float64)").
from numba import njit


@njit
def f(n):
    l = [i * 2 for i in range(n)]
    l = l + 1.0
    return l


if __name__ == "__main__":
    print(f(3))
