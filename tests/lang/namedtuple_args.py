# collections.namedtuple instances passed to compiled code (quantecon's ddp passes its
# SimplexOptions: fields read by name), read by name and index, unpacked, passed on to
# another compiled function and returned as they came.
from collections import namedtuple

import numpy as np
from numba import njit

SimplexOptions = namedtuple('SimplexOptions', ['fea_tol', 'tol_piv', 'tol_ratio_diff',
                                               'max_iter'])
Pair = namedtuple('Pair', 'lo hi')


@njit
def feasible(x, options):
    return x > options.fea_tol and options.max_iter > 10


@njit
def width(p):
    return p.hi - p.lo


@njit
def use(options, p):
    lo, hi = p
    return options[0] + options.tol_piv, width(p), lo * hi, options.max_iter


@njit
def echo(p):
    return p


@njit
def scale(a, p):
    return a * p.hi + p.lo


opts = SimplexOptions(1e-6, 1e-7, 1e-9, 100)
print(feasible(1.0, opts), feasible(1e-9, opts))
print(use(opts, Pair(2.0, 5.0)))
q = echo(Pair(1, 2))
print(type(q).__name__, q, q.lo, type(q.hi).__name__)
print(scale(np.arange(3.0), Pair(0.5, 2.0)))
