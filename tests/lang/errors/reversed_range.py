# expect error: 10:14: reversed() is not supported
# reversed() has no typing in Numba 0.56 ("Untyped global name 'reversed'"); numjit refuses it
# at the call and names a way that works in both.
from numba import njit


@njit
def countdown(n):
    s = 0
    for i in reversed(range(n)):
        s = s * 10 + i
    return s


if __name__ == "__main__":
    print(countdown(4))
