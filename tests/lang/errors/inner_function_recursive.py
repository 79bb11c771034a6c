# expect error: 12:20: a recursive inner function is not supported
# An inner function that calls itself: Numba refuses it (op_LOAD_CLOSURE), and so does numjit,
# at the recursive call.
from numba import njit


@njit
def fact(n):
    def f(k):
        if k <= 1:
            return 1
        return k * f(k - 1)

    return f(n)


if __name__ == "__main__":
    print(fact(5))
