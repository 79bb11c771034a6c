# expect error: 9:20: the arguments of a raised exception must be constants
# `assert c, msg` raises AssertionError(msg); Numba 0.56 freezes msg when it compiles, so a
# message computed at run time is refused as the arguments of any raise are.
from numba import njit


@njit
def check(x):
    assert x < 10, x * 2
    return x


if __name__ == "__main__":
    print(check(3))
    print(check(11))
