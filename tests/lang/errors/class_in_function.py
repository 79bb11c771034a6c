# expect error: 8:5: 'class' is not supported
# A class statement inside a compiled function (Numba: unsupported opcode LOAD_BUILD_CLASS).
from numba import njit


@njit
def f(x):
    class Point:
        pass
    return x + 1


if __name__ == "__main__":
    print(f(1))
