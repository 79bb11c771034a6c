# expect error: 9:35: random.gammavariate() takes no keyword arguments in compiled code
# Numba types Python's random.* functions by position only.
import random
from numba import njit


@njit
def draws(x):
    return random.gammavariate(x, beta=2.0)


if __name__ == "__main__":
    print(draws(3.0))
