# random_dists.py — the distributions of np.random and of Python's random module that are
# formulas over the generators' uniform, normal and exponential draws, as Numba 0.56 computes
# them (numba/cpython/randomimpl.py): the same draws in the same order and the same arithmetic,
# so that a program that seeds the generator inside compiled code gets Numba's sequences.
#
# typer/typer_random.c types each call (Numba's parameters and defaults, every argument converted
# to float64), fills `size=` arrays by calling these functions once per element in C order, and
# calls _nj_np_random_<name> for np.random.<name>, _nj_random_<name> for random.<name>.  The
# np.random functions draw from NumPy's generator, the others from Python's.
import math as _nj_math
import random as _nj_pyrandom
import numpy as _nj_np


def _nj_np_random_laplace(loc, scale):
    u = _nj_np.random.random()
    if u < 0.5:
        return loc + scale * _nj_math.log(u + u)
    return loc - scale * _nj_math.log(2.0 - u - u)


def _nj_np_random_logistic(loc, scale):
    u = _nj_np.random.random()
    return loc + scale * _nj_math.log(u / (1.0 - u))


def _nj_np_random_lognormal(mean, sigma):
    return _nj_math.exp(_nj_np.random.normal(mean, sigma))


def _nj_np_random_gumbel(loc, scale):
    u = 1.0 - _nj_np.random.random()
    return loc - scale * _nj_math.log(-_nj_math.log(u))


def _nj_np_random_pareto(a):
    u = 1.0 - _nj_np.random.random()
    return 1.0 / u ** (1.0 / a) - 1


def _nj_np_random_power(a):
    if a <= 0.0:
        raise ValueError("power(): a <= 0")
    return _nj_math.pow(1 - _nj_math.exp(-_nj_np.random.standard_exponential()), 1.0 / a)


def _nj_np_random_weibull(a):
    u = 1.0 - _nj_np.random.random()
    return (-_nj_math.log(u)) ** (1.0 / a)


def _nj_np_random_rayleigh(scale):
    if scale <= 0.0:
        raise ValueError("rayleigh(): mode <= 0")
    return scale * _nj_math.sqrt(-2.0 * _nj_math.log(1.0 - _nj_np.random.random()))


def _nj_np_random_standard_cauchy():
    n = _nj_np.random.standard_normal()
    return n / _nj_np.random.standard_normal()


def _nj_np_random_wald(mean, scale):
    if mean <= 0.0:
        raise ValueError("wald(): mean <= 0")
    if scale <= 0.0:
        raise ValueError("wald(): scale <= 0")
    mu_2l = mean / (2.0 * scale)
    y = _nj_np.random.standard_normal()
    y = mean * y * y
    x = mean + mu_2l * (y - _nj_math.sqrt(4 * scale * y + y * y))
    u = _nj_np.random.random()
    if u <= mean / (mean + x):
        return x
    return mean * mean / x


# triangular(low, high, mode) of a uniform draw u, Numba's (and CPython's) inversion
def _nj_random_tri(u, low, high, mode):
    if high == low:
        return low
    c = (mode - low) / (high - low)
    if u > c:
        u = 1.0 - u
        c = 1.0 - c
        t = low
        low = high
        high = t
    return low + (high - low) * _nj_math.sqrt(u * c)


def _nj_np_random_triangular(left, mode, right):
    return _nj_random_tri(_nj_np.random.random(), left, right, mode)


def _nj_random_triangular(low, high, mode):
    return _nj_random_tri(_nj_pyrandom.random(), low, high, mode)


# random.triangular(low, high): the mode in the middle, without the high == low test
def _nj_random_triangular2(low, high):
    u = _nj_pyrandom.random()
    c = 0.5
    if u > c:
        u = 1.0 - u
        t = low
        low = high
        high = t
    return low + (high - low) * _nj_math.sqrt(u * c)


def _nj_random_lognormvariate(mu, sigma):
    return _nj_math.exp(_nj_pyrandom.gauss(mu, sigma))


def _nj_random_paretovariate(alpha):
    u = 1.0 - _nj_pyrandom.random()
    return 1.0 / u ** (1.0 / alpha)


def _nj_random_weibullvariate(alpha, beta):
    u = 1.0 - _nj_pyrandom.random()
    return alpha * (-_nj_math.log(u)) ** (1.0 / beta)


# ---- the gamma family: CPython's gammavariate as Numba has it (Cheng's algorithm above 1, an
# exponential at 1, algorithm GS below); `np` picks NumPy's generator, else Python's ---------
def _nj_random_unit(np):
    if np:
        return _nj_np.random.random()
    return _nj_pyrandom.random()


def _nj_random_gamma_of(alpha, beta, np):
    if alpha <= 0.0 or beta <= 0.0:
        raise ValueError("gammavariate: alpha and beta must be > 0.0")
    x = 0.0
    if alpha > 1.0:
        ainv = _nj_math.sqrt(2.0 * alpha - 1.0)
        bbb = alpha - _nj_math.log(4.0)
        ccc = alpha + ainv
        while True:
            u1 = _nj_random_unit(np)
            if not 1e-7 < u1 < 0.9999999:
                continue
            u2 = 1.0 - _nj_random_unit(np)
            v = _nj_math.log(u1 / (1.0 - u1)) / ainv
            x = alpha * _nj_math.exp(v)
            z = u1 * u1 * u2
            r = bbb + ccc * v - x
            if r + (1.0 + _nj_math.log(4.5)) - 4.5 * z >= 0.0 or r >= _nj_math.log(z):
                break
        return x * beta
    if alpha == 1.0:
        return -_nj_math.log(1.0 - _nj_random_unit(np)) * beta
    while True:
        u = _nj_random_unit(np)
        b = (_nj_math.e + alpha) / _nj_math.e
        p = b * u
        if p <= 1.0:
            x = p ** (1.0 / alpha)
        else:
            x = -_nj_math.log((b - p) / alpha)
        u1 = _nj_random_unit(np)
        if p > 1.0:
            if u1 <= x ** (alpha - 1.0):
                break
        elif u1 <= _nj_math.exp(-x):
            break
    return x * beta


def _nj_np_random_gamma(shape, scale):
    return _nj_random_gamma_of(shape, scale, True)


def _nj_random_gammavariate(alpha, beta):
    return _nj_random_gamma_of(alpha, beta, False)


def _nj_np_random_standard_gamma(a):
    return _nj_random_gamma_of(a, 1.0, True)


def _nj_np_random_chisquare(df):
    return 2.0 * _nj_random_gamma_of(df / 2.0, 1.0, True)


def _nj_np_random_f(num, denom):
    return (_nj_np_random_chisquare(num) * denom) / (_nj_np_random_chisquare(denom) * num)


def _nj_np_random_standard_t(df):
    n = _nj_np.random.standard_normal()
    g = _nj_random_gamma_of(df / 2.0, 1.0, True)
    return _nj_math.sqrt(df / 2.0) * n / _nj_math.sqrt(g)


def _nj_random_beta_of(alpha, beta, np):
    y = _nj_random_gamma_of(alpha, 1.0, np)
    if y == 0.0:
        return 0.0
    return y / (y + _nj_random_gamma_of(beta, 1.0, np))


def _nj_np_random_beta(a, b):
    return _nj_random_beta_of(a, b, True)


def _nj_random_betavariate(alpha, beta):
    return _nj_random_beta_of(alpha, beta, False)


# ---- von Mises: CPython's algorithm (Fisher), as Numba has it for both modules --------------
def _nj_random_vonmises_of(mu, kappa, np):
    if kappa <= 1e-6:
        return 2.0 * _nj_math.pi * _nj_random_unit(np)
    s = 0.5 / kappa
    r = s + _nj_math.sqrt(1.0 + s * s)
    while True:
        u1 = _nj_random_unit(np)
        z = _nj_math.cos(_nj_math.pi * u1)
        d = z / (r + z)
        u2 = _nj_random_unit(np)
        if u2 < 1.0 - d * d or u2 <= (1.0 - d) * _nj_math.exp(d):
            break
    q = 1.0 / r
    f = (q + z) / (1.0 + q * z)
    if _nj_random_unit(np) > 0.5:
        return (mu + _nj_math.acos(f)) % (2.0 * _nj_math.pi)
    return (mu - _nj_math.acos(f)) % (2.0 * _nj_math.pi)


def _nj_np_random_vonmises(mu, kappa):
    return _nj_random_vonmises_of(mu, kappa, True)


def _nj_random_vonmisesvariate(mu, kappa):
    return _nj_random_vonmises_of(mu, kappa, False)
