# expect error: 10:12: type() of float64[::1]
# type(x) in compiled code is the class of a number or a bool only: Numba 0.56 types no
# __class__ of an array (a TypingError), so type(a)(...) cannot make an array.
from numba import njit
import numpy as np


@njit
def like(a):
    return type(a)(a)


if __name__ == "__main__":
    print(like(np.zeros(3)))
