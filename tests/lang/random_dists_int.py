# The np.random distributions of integers in @njit functions, seeded inside compiled code:
# geometric (its sum loop from p = 1/3 up, the log formula below), logseries, zipf, poisson
# (Knuth's product below lambda 10, the transformed rejection with log-gamma above),
# binomial (inversion, n split while q ** n underflows), negative_binomial (a gamma, then a
# poisson) and hypergeometric draw Numba's sequences, int64 scalars and `size=` arrays;
# Numba's ValueErrors for parameters out of range.
import numpy as np
from numba import njit


@njit
def scalars(seed):
    np.random.seed(seed)
    return (np.random.geometric(0.5), np.random.geometric(0.05), np.random.geometric(1.0),
            np.random.logseries(0.3), np.random.logseries(0.9), np.random.logseries(0.999),
            np.random.zipf(2.0), np.random.zipf(3.5), np.random.poisson(),
            np.random.poisson(3.5), np.random.poisson(0.0), np.random.poisson(12.0),
            np.random.poisson(lam=250.5), np.random.binomial(10, 0.3),
            np.random.binomial(100, 0.8), np.random.binomial(5000, 0.5),
            np.random.binomial(7, 0.0), np.random.binomial(7, 1.0), np.random.binomial(0, 0.5),
            np.random.negative_binomial(5, 0.4), np.random.negative_binomial(1, 0.9),
            np.random.hypergeometric(10, 5, 7), np.random.hypergeometric(3, 30, 10),
            np.random.hypergeometric(ngood=20, nbad=20, nsample=0))


@njit
def arrays(seed, n):
    np.random.seed(seed)
    return (np.random.geometric(0.2, n), np.random.logseries(0.6, (2, 2)),
            np.random.zipf(2.5, n), np.random.poisson(4.0, n), np.random.poisson(40.0, size=n),
            np.random.binomial(20, 0.25, n), np.random.negative_binomial(3, 0.5, n),
            np.random.hypergeometric(6, 4, 5, (n, 1)))


@njit
def geometric(p):
    return np.random.geometric(p)


@njit
def logseries(p):
    return np.random.logseries(p)


@njit
def zipf(a):
    return np.random.zipf(a)


@njit
def poisson(lam):
    return np.random.poisson(lam)


@njit
def binomial(n, p):
    return np.random.binomial(n, p)


@njit
def negative_binomial(n, p):
    return np.random.negative_binomial(n, p)


def show(t):
    for v in t:
        if isinstance(v, np.ndarray):
            print(type(v).__name__, v.dtype, v.shape, v.ravel().tolist())
        else:
            print(type(v).__name__, v)


if __name__ == "__main__":
    for seed in (0, 1, 17, 4242):
        show(scalars(seed))
    show(arrays(8, 5))
    cases = ((geometric, (0.0,)), (geometric, (1.5,)), (logseries, (0.0,)), (zipf, (1.0,)),
             (poisson, (-1.0,)), (binomial, (-1, 0.5)), (binomial, (3, 1.5)),
             (negative_binomial, (0, 0.5)), (negative_binomial, (2, -0.1)))
    for f, args in cases:
        try:
            print(f(*args))
        except ValueError as e:
            print("ValueError", e)
