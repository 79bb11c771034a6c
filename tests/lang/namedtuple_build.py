# collections.namedtuple classes defined at module level: instances built in compiled code
# (quantecon's root finders: `results(x, funcalls, iterations, flag == 0)`), fields read by
# name and by index, and returned to Python as instances of the class.
from collections import namedtuple

from numba import njit

results = namedtuple('results', 'root function_calls iterations converged')
Point = namedtuple('Point', ['x', 'y'])


@njit
def _results(r):
    x, funcalls, iterations, flag = r
    return results(x, funcalls, iterations, flag == 0)


@njit
def newton(x0, maxiter):
    p = x0
    itr = 0
    for itr in range(maxiter):
        p = p - (p * p - 2.0) / (2.0 * p)
    return _results((p, itr + 1, itr + 1, 0))


@njit
def fields(x):
    r = results(x, 3, 4, True)
    return r.root * 2.0, r.function_calls + r.iterations, r[0], r[3], len(r)


@njit
def point_sum(a, b):
    p = Point(a, y=b)
    q = Point(y=2 * b, x=a + 1)
    return p.x + q.x + p.y * q.y


@njit
def uni(a):
    return Point(a, a + 1.5)


r = newton(1.0, 6)
print(type(r).__name__, isinstance(r, results), r._fields)
print(r.root, r.function_calls, r.iterations, r.converged)
print(type(r.root).__name__, type(r.function_calls).__name__, type(r.converged).__name__)
print(fields(1.5))
print(point_sum(1, 5), type(point_sum(1, 5)).__name__)
p = uni(2.0)
print(type(p).__name__, p, p.x, p.y)
x, y = uni(1.0)
print(x, y)
