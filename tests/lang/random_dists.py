# The distributions of np.random and random that are formulas over the uniform, normal and
# exponential draws (laplace, logistic, lognormal, gumbel, wald, pareto, power, weibull,
# rayleigh, standard_cauchy, triangular; random.lognormvariate, paretovariate, weibullvariate,
# triangular with and without its mode): seeded inside compiled code they draw Numba's
# sequences, as scalars and as `size=` arrays (an integer and a tuple), defaults left out,
# integer arguments converted to float, and Numba's ValueErrors for power, rayleigh and wald.
import random

import numpy as np
from numba import njit


@njit
def np_scalars(seed):
    np.random.seed(seed)
    return (np.random.laplace(), np.random.laplace(1.5), np.random.laplace(1.5, 2.0),
            np.random.logistic(), np.random.logistic(-1.0, 0.5),
            np.random.lognormal(), np.random.lognormal(0.5, 0.25),
            np.random.gumbel(0.5, 2.0), np.random.wald(1.0, 3.0), np.random.pareto(3.0),
            np.random.power(2.5), np.random.weibull(1.5), np.random.rayleigh(),
            np.random.rayleigh(2.0), np.random.standard_cauchy(),
            np.random.triangular(-1.0, 0.25, 2.0), np.random.triangular(0, 1, 3))


@njit
def np_keywords(seed):
    np.random.seed(seed)
    return (np.random.laplace(scale=3.0, loc=1.0), np.random.logistic(loc=2.0),
            np.random.lognormal(scale=0.5, loc=0.0), np.random.rayleigh(scale=0.5),
            np.random.gumbel(a=1.0, b=2.0), np.random.pareto(a=2.0))


@njit
def np_arrays(seed, n):
    np.random.seed(seed)
    return (np.random.laplace(0.0, 1.0, n), np.random.logistic(1.0, 2.0, (2, 3)),
            np.random.lognormal(0.0, 0.5, n), np.random.gumbel(0.0, 1.0, size=n),
            np.random.wald(2.0, 1.0, n), np.random.pareto(1.5, (n,)), np.random.power(0.5, n),
            np.random.weibull(2.0, n), np.random.rayleigh(1.0, size=(2, 2)),
            np.random.standard_cauchy(n), np.random.standard_cauchy(size=(1, 2)),
            np.random.triangular(0.0, 0.5, 1.0, n))


@njit
def py_draws(seed):
    random.seed(seed)
    return (random.lognormvariate(0.0, 1.0), random.lognormvariate(1, 2),
            random.paretovariate(2.5), random.weibullvariate(1.0, 1.5),
            random.triangular(0.0, 1.0), random.triangular(3.0, -1.0),
            random.triangular(0.0, 2.0, 0.5), random.triangular(2.0, 2.0, 2.0))


@njit
def mixed(seed):
    np.random.seed(seed)
    random.seed(seed)
    a = np.random.laplace()
    b = random.paretovariate(1.0)
    c = np.random.laplace()
    return a, b, c


@njit
def power(a):
    return np.random.power(a)


@njit
def rayleigh(s):
    return np.random.rayleigh(s)


@njit
def wald(m, s):
    return np.random.wald(m, s)


def show(t):
    for v in t:
        if isinstance(v, np.ndarray):
            print(type(v).__name__, v.dtype, v.shape, [round(x, 12) for x in v.ravel().tolist()])
        else:
            print(type(v).__name__, round(v, 12))


if __name__ == "__main__":
    for seed in (0, 1, 42, 12345):
        show(np_scalars(seed))
        show(np_keywords(seed))
        show(py_draws(seed))
        show(mixed(seed))
    show(np_arrays(7, 4))
    show(np_arrays(2024, 0))
    for f, args in ((power, (0.0,)), (power, (-1.0,)), (rayleigh, (0.0,)), (wald, (0.0, 1.0)),
                    (wald, (1.0, -2.0))):
        try:
            print(f(*args))
        except ValueError as e:
            print("ValueError", e)
