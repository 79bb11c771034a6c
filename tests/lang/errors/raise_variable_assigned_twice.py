# expect error: 12:28: the arguments of a raised exception must be constants
# A variable assigned twice has no one definition for Numba's constant inference to read.
from numba import njit


@njit
def f(x):
    msg = "small"
    if x > 5.0:
        msg = "large"
    if x > 1.0:
        raise RuntimeError(msg)
    return x


if __name__ == "__main__":
    print(f(2.0))
