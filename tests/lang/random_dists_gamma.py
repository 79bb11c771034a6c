# The gamma family of np.random and random in @njit functions, seeded inside compiled code:
# gamma (shape above 1: Cheng's rejection loop; at 1: an exponential; below 1: algorithm GS),
# standard_gamma, chisquare, f, standard_t, beta, vonmises (kappa tiny: a uniform angle) and
# random.gammavariate, betavariate, vonmisesvariate draw Numba's sequences, as scalars and
# `size=` arrays; ValueError for a shape or scale <= 0.
import random

import numpy as np
from numba import njit


@njit
def np_scalars(seed):
    np.random.seed(seed)
    return (np.random.gamma(2.5), np.random.gamma(1.0), np.random.gamma(0.3),
            np.random.gamma(4.0, 0.5), np.random.gamma(shape=0.7, scale=2.0),
            np.random.standard_gamma(3.0), np.random.standard_gamma(0.5),
            np.random.chisquare(3.0), np.random.chisquare(1), np.random.f(2.0, 5.0),
            np.random.standard_t(4.0), np.random.standard_t(1.5), np.random.beta(0.5, 0.5),
            np.random.beta(2.0, 3.0), np.random.vonmises(0.5, 2.0), np.random.vonmises(1.0, 0.0),
            np.random.vonmises(-2.0, 50.0))


@njit
def np_arrays(seed, n):
    np.random.seed(seed)
    return (np.random.gamma(2.0, 1.5, n), np.random.gamma(0.5, 1.0, (2, 2)),
            np.random.standard_gamma(1.5, n), np.random.chisquare(2.0, size=n),
            np.random.f(3.0, 4.0, n), np.random.standard_t(3.0, n), np.random.beta(1.5, 0.5, n),
            np.random.vonmises(0.0, 1.0, (1, n)))


@njit
def py_draws(seed):
    random.seed(seed)
    return (random.gammavariate(2.5, 1.0), random.gammavariate(1.0, 2.0),
            random.gammavariate(0.4, 3.0), random.betavariate(2.0, 5.0),
            random.betavariate(0.5, 0.5), random.vonmisesvariate(0.0, 4.0),
            random.vonmisesvariate(3.0, 1e-9), random.vonmisesvariate(1.0, 0.5))


@njit
def gamma(a, b):
    return np.random.gamma(a, b)


@njit
def gammavariate(a, b):
    return random.gammavariate(a, b)


def show(t):
    for v in t:
        if isinstance(v, np.ndarray):
            print(type(v).__name__, v.dtype, v.shape, [round(x, 12) for x in v.ravel().tolist()])
        else:
            print(type(v).__name__, round(v, 12))


if __name__ == "__main__":
    for seed in (0, 3, 99, 2**31):
        show(np_scalars(seed))
        show(py_draws(seed))
    show(np_arrays(5, 3))
    for f, args in ((gamma, (0.0, 1.0)), (gamma, (1.0, -1.0)), (gammavariate, (-1.0, 1.0))):
        try:
            print(f(*args))
        except ValueError as e:
            print("ValueError", e)
