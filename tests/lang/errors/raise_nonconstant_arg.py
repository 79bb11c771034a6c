# expect error: 10:38: the arguments of a raised exception must be constants
# Numba 0.56 freezes the arguments of a raised exception when it compiles; a value known only
# at run time is refused ("Constant inference not possible").
from numba import njit


@njit
def check(x):
    if x > 10:
        raise ValueError("too big:", x)
    return x


if __name__ == "__main__":
    print(check(3))
    print(check(11))
