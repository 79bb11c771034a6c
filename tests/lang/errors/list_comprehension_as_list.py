# expect error: 9:9: a list comprehension is supported only as the argument of sum(), min() or max()
# A list comprehension kept as a list: Numba 0.56 builds a reflected list that it cannot
# return as an array's element type here ('+' of a list and a float); numjit has no lists.
from numba import njit


@njit
def f(n):
    l = [i * 2 for i in range(n)]
    l = l + 1.0
    return l


if __name__ == "__main__":
    print(f(3))
