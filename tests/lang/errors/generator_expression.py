# expect error: 11:20: generator expressions are not supported
# A generator expression fed to sum(): Numba 0.56 refuses it ("the use of yield in a closure
# is unsupported"); numjit refuses it at its 'for' and suggests a list comprehension.
from numba import njit
import numpy as np


@njit
def sum_squares(a):
    s = 0.0
    s += sum(x * x for x in a)
    return s


if __name__ == "__main__":
    print(sum_squares(np.arange(3.0)))
