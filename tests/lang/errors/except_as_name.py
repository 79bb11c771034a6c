# expect error: 10:5: Exception object cannot be stored into variable (e)
# Numba 0.56 cannot bind the exception caught to a name.
from numba import njit


@njit
def f(a, b):
    try:
        r = a // b
    except Exception as e:
        r = -1
    return r


if __name__ == "__main__":
    print(f(1, 0))
