# expect error: 6:24: unrecognized fastmath flag
# A fastmath flag set naming a flag LLVM does not have (Numba: "Unrecognized fastmath flags").
from numba import njit


@njit(fastmath={"nsz", "quick"})
def f(x):
    return x * 2.0


if __name__ == "__main__":
    print(f(3.0))
