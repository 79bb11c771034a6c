# expect error: 9:12: unicode_type has no attribute 'format'
# Numba 0.56 has no str.format ("Unknown attribute 'format' of type unicode_type"): numjit
# refuses it at the method.
from numba import njit


@njit
def f(x):
    return "{}".format(x)


if __name__ == "__main__":
    print(f(3))
