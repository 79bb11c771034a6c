# Numba's 5-minute guide example: a Monte Carlo estimate of pi with Python's random module,
# seeded in compiled code so that the estimate is Numba's to the last digit.
import random
from numba import njit


@njit
def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x ** 2 + y ** 2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


@njit
def seeded_pi(seed, nsamples):
    random.seed(seed)
    return monte_carlo_pi(nsamples)


print(seeded_pi(0, 10000))
print(seeded_pi(42, 1000000))
print(seeded_pi(42, 1000000) == seeded_pi(42, 1000000))
print(abs(monte_carlo_pi(100000) - 3.14159) < 0.05)
