# Python's random module in compiled code, as Numba gives it: random.seed(n) seeds a
# Mersenne Twister like np.random.seed does (not like CPython's random.seed), random.gauss
# keeps its own second value of each pair, and the state is separate from np.random's.
import random
import numpy as np
from numba import njit


@njit
def seed(n):
    random.seed(n)


@njit
def floats():
    return (random.random(), random.uniform(1.0, 2.0), random.uniform(5, -5),
            random.gauss(0.0, 1.0), random.gauss(1.0, 2.0), random.gauss(3, 4),
            random.normalvariate(0.0, 1.0), random.expovariate(2.0), random.expovariate(1))


@njit
def integers():
    return (random.randint(1, 6), random.randint(-10, 10**12), random.randint(7, 7),
            random.randrange(10), random.randrange(5, 100), random.randrange(5, 100, 7),
            random.randrange(100, 5, -3), random.randrange(-(2**61), 2**61),
            random.randrange(np.int16(9), 3000, 1))


@njit
def both(n):
    # the two modules draw from two states
    np.random.seed(n)
    random.seed(n)
    a = np.random.random()
    b = random.random()
    c = np.random.normal()
    d = random.gauss(0.0, 1.0)
    return a == b, c == d, a, c, d


@njit
def empty(a, b, step):
    return random.randrange(a, b, step)


@njit
def dice(n):
    counts = np.zeros(6, np.int64)
    for i in range(n):
        counts[random.randint(1, 6) - 1] += 1
    return counts


for s in (0, 1, 42, 2**32 - 1, 2**33 + 1, -5):
    seed(s)
    print("seed", s)
    print(floats())
    print(integers())

print(both(11))
seed(2024)
print(dice(6000))

for a, b, step in ((0, 0, 1), (5, 1, 1), (1, 5, -1)):
    try:
        empty(a, b, step)
    except ValueError:
        print("ValueError")
try:
    seed(1)

    @njit
    def bad_randint():
        return random.randint(3, 2)

    bad_randint()
except ValueError:
    print("ValueError")
