# random_dists.py — the distributions of np.random and of Python's random module built on the
# generators' uniform, normal and exponential draws, as Numba 0.56 computes them
# (numba/cpython/randomimpl.py, and _random.c for poisson above lambda 10): the same draws in
# the same order and the same arithmetic, so that a program that seeds the generator inside
# compiled code gets Numba's sequences.  Closed formulas first, then the gamma family and von
# Mises (CPython's algorithms, on either generator), then the distributions of integers
# (NumPy's legacy algorithms).
#
# typer/typer_random.c types each call (Numba's parameters and defaults, arguments converted
# to float64, or int64 for counts), fills `size=` arrays by calling these functions once per
# element in C order, and calls _nj_np_random_<name> for np.random.<name>, _nj_random_<name>
# for random.<name>.  The np.random functions draw from NumPy's generator, the others from
# Python's.
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


# ---- integer results: NumPy's legacy algorithms as Numba has them ---------------------------
def _nj_np_random_geometric(p):
    if p <= 0.0 or p > 1.0:
        raise ValueError("geometric(): p outside of (0, 1]")
    q = 1.0 - p
    if p >= 0.333333333333333333333333:
        x = 1
        total = p
        prod = p
        u = _nj_np.random.random()
        while u > total:
            prod *= q
            total += prod
            x += 1
        return x
    return int(_nj_math.ceil(_nj_math.log(1.0 - _nj_np.random.random()) / _nj_math.log(q)))


def _nj_np_random_logseries(p):
    if p <= 0.0 or p > 1.0:
        raise ValueError("logseries(): p outside of (0, 1]")
    r = _nj_math.log(1.0 - p)
    v = _nj_np.random.random()
    if v >= p:
        return 1
    u = _nj_np.random.random()
    q = 1.0 - _nj_math.exp(r * u)
    if v <= q * q:
        return int(1.0 + _nj_math.log(v) / _nj_math.log(q))
    if v >= q:
        return 1
    return 2


def _nj_np_random_zipf(a):
    if a <= 1.0:
        raise ValueError("zipf(): a <= 1")
    am1 = a - 1.0
    b = 2.0 ** am1
    x = 0
    while True:
        u = 1.0 - _nj_np.random.random()
        v = _nj_np.random.random()
        x = int(_nj_math.floor(u ** (-1.0 / am1)))
        t = (1.0 + 1.0 / x) ** am1
        if x >= 1 and v * x * (t - 1.0) / (b - 1.0) <= t / b:
            break
    return x


# Knuth's product of uniforms below lambda 10, Hormann's transformed rejection (PTRS) above
def _nj_np_random_poisson(lam):
    if lam >= 10.0:
        return _nj_np_random_poisson_ptrs(lam)
    if lam < 0.0:
        raise ValueError("poisson(): lambda < 0")
    if lam == 0.0:
        return 0
    enlam = _nj_math.exp(-lam)
    x = 0
    prod = 1.0
    while True:
        prod *= _nj_np.random.random()
        if prod <= enlam:
            break
        x += 1
    return x


def _nj_np_random_loggam(x):
    if x == 1.0 or x == 2.0:
        return 0.0
    n = 0
    x0 = x
    if x <= 7.0:
        n = int(7 - x)
        x0 = x + n
    x2 = 1.0 / (x0 * x0)
    gl0 = -1.39243221690590e+00
    gl0 = gl0 * x2 + 1.796443723688307e-01
    gl0 = gl0 * x2 - 2.955065359477124e-02
    gl0 = gl0 * x2 + 6.410256410256410e-03
    gl0 = gl0 * x2 - 1.917526917526918e-03
    gl0 = gl0 * x2 + 8.417508417508418e-04
    gl0 = gl0 * x2 - 5.952380952380952e-04
    gl0 = gl0 * x2 + 7.936507936507937e-04
    gl0 = gl0 * x2 - 2.777777777777778e-03
    gl0 = gl0 * x2 + 8.333333333333333e-02
    gl = gl0 / x0 + 0.5 * _nj_math.log(2 * _nj_math.pi) + (x0 - 0.5) * _nj_math.log(x0) - x0
    if x <= 7.0:
        for k in range(n):
            gl -= _nj_math.log(x0 - 1.0)
            x0 -= 1.0
    return gl


def _nj_np_random_poisson_ptrs(lam):
    slam = _nj_math.sqrt(lam)
    loglam = _nj_math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    k = 0
    while True:
        u = _nj_np.random.random() - 0.5
        v = _nj_np.random.random()
        us = 0.5 - abs(u)
        k = int(_nj_math.floor((2 * a / us + b) * u + lam + 0.43))
        if us >= 0.07 and v <= vr:
            break
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (_nj_math.log(v) + _nj_math.log(invalpha) - _nj_math.log(a / (us * us) + b)
                <= -lam + k * loglam - _nj_np_random_loggam(k + 1.0)):
            break
    return k


# NumPy's BINV inversion (Numba uses it for every n * p), n split while q ** n underflows
def _nj_np_random_binomial(n, p):
    if n < 0:
        raise ValueError("binomial(): n <= 0")
    if not (0.0 <= p <= 1.0):
        raise ValueError("binomial(): p outside of [0, 1]")
    if p == 0.0:
        return 0
    if p == 1.0:
        return n
    flipped = p > 0.5
    if flipped:
        p = 1.0 - p
    q = 1.0 - p
    niters = 1
    qn = q ** n
    while qn <= 1e-308:
        niters <<= 2
        n >>= 2
        qn = q ** n
    mean = n * p
    bound = min(n, mean + 10.0 * _nj_math.sqrt(mean * q + 1))
    total = 0
    while niters > 0:
        x = 0
        u = _nj_np.random.random()
        px = qn
        while x <= bound:
            if u <= px:
                if flipped:
                    total += n - x
                else:
                    total += x
                niters -= 1
                break
            u -= px
            x += 1
            px = ((n - x + 1) * p * px) / (x * q)
    return total


def _nj_np_random_negative_binomial(n, p):
    if n <= 0:
        raise ValueError("negative_binomial(): n <= 0")
    if p < 0.0 or p > 1.0:
        raise ValueError("negative_binomial(): p outside of [0, 1]")
    return _nj_np_random_poisson(_nj_random_gamma_of(float(n), (1.0 - p) / p, True))


def _nj_np_random_hypergeometric(ngood, nbad, nsample):
    d1 = nbad + ngood - nsample
    d2 = float(min(nbad, ngood))
    y = d2
    k = nsample
    while y > 0.0 and k > 0:
        y -= _nj_math.floor(_nj_np.random.random() + y / (d1 + k))
        k -= 1
    z = int(d2 - y)
    if ngood > nbad:
        return nsample - z
    return z


# ---- noncentral chi-square (NumPy's distributions.c, as Numba has it) ------------------------
def _nj_np_random_noncentral_chisquare(df, nonc):
    if df <= 0:
        raise ValueError("df <= 0")
    if nonc < 0:
        raise ValueError("nonc < 0")
    if nonc != nonc:
        return nonc
    if 1 < df:
        chi2 = _nj_np_random_chisquare(df - 1)
        n = _nj_np.random.standard_normal() + _nj_math.sqrt(nonc)
        return chi2 + n * n
    i = _nj_np_random_poisson(nonc / 2.0)
    return _nj_np_random_chisquare(df + 2 * i)


# ---- multinomial and dirichlet: rows of len(pvals) (len(alpha)) values in a new array whose
# shape is size + (len,), filled by Numba's loops; typer_random_seq.c allocates nothing ------
def _nj_np_random_multinomial_fill(n, pvals, out):
    fl = out.reshape(out.size)
    plen = len(pvals)
    for i in range(0, out.size, plen):
        p_sum = 1.0
        n_experiments = n
        for j in range(0, plen - 1):
            p_j = pvals[j]
            n_j = _nj_np_random_binomial(n_experiments, p_j / p_sum)
            fl[i + j] = n_j
            n_experiments -= n_j
            if n_experiments <= 0:
                break
            p_sum -= p_j
        if n_experiments > 0:
            fl[i + plen - 1] = n_experiments
    return out


def _nj_np_random_multinomial(n, pvals):
    return _nj_np_random_multinomial_fill(n, pvals, _nj_np.zeros(len(pvals), _nj_np.int64))


def _nj_np_random_multinomial_n(n, pvals, size):
    out = _nj_np.zeros((size, len(pvals)), _nj_np.int64)
    return _nj_np_random_multinomial_fill(n, pvals, out)


def _nj_np_random_multinomial_t(n, pvals, size):
    out = _nj_np.zeros(size + (len(pvals),), _nj_np.int64)
    return _nj_np_random_multinomial_fill(n, pvals, out)


def _nj_np_random_dirichlet_fill(alpha, out):
    for a_val in alpha:
        if a_val <= 0:
            raise ValueError("dirichlet: alpha must be > 0.0")
    a_len = len(alpha)
    flat = out.reshape(out.size)
    for i in range(0, out.size, a_len):
        norm = 0.0
        for k in range(a_len):
            flat[i + k] = _nj_random_gamma_of(float(alpha[k]), 1.0, True)
            norm += flat[i + k]
        for k in range(a_len):
            flat[i + k] /= norm
    return out


def _nj_np_random_dirichlet(alpha):
    return _nj_np_random_dirichlet_fill(alpha, _nj_np.empty(len(alpha)))


def _nj_np_random_dirichlet_n(alpha, size):
    return _nj_np_random_dirichlet_fill(alpha, _nj_np.empty((size, len(alpha))))


def _nj_np_random_dirichlet_t(alpha, size):
    return _nj_np_random_dirichlet_fill(alpha, _nj_np.empty(size + (len(alpha),)))
