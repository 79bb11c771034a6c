# expect error: 9:12: random.random() takes at most 0 arguments (1 given)
# Python's random.random has no size: Numba rejects it ("unexpected size parameter").
import random
from numba import njit


@njit
def draws(n):
    return random.random(n)


if __name__ == "__main__":
    print(draws(3))
