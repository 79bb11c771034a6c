# random.getrandbits(k) as Numba 0.56 has it: uint64 of k bits from the `random` generator
# (the high bits of its draws, two draws above 32 bits), OverflowError unless 1 <= k <= 64.
import random
from numba import njit


@njit
def draw(k, seed):
    random.seed(seed)
    return random.getrandbits(k)


@njit
def mixed(seed):
    random.seed(seed)
    s = 0
    for k in (1, 5, 31, 32, 33, 63, 64):
        s = s ^ random.getrandbits(k)
    return s, random.getrandbits(64) + 1, random.random()


def message(e):
    return str(e).splitlines()[0].split("OverflowError: ")[-1]  # numjit adds the location


if __name__ == "__main__":
    for k in (1, 7, 10, 32, 33, 50, 64):
        v = draw(k, 3)
        print(k, type(v).__name__, v)
    print(mixed(12))
    print(mixed(2**40 + 5))
    for k in (0, 65, -1):
        try:
            draw(k, 1)
        except OverflowError as e:
            print("OverflowError", message(e))
