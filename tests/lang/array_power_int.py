# The operator ** of a float64 array expression with an integer exponent (a literal, an int
# variable, an int array) is Numba's scalar float ** int: repeated multiplication, the same
# bits as Numba's (not NumPy's pow loop, which np.power keeps), and 0.0 ** -k raising
# ZeroDivisionError under either error model.
import numpy as np
from numba import njit


@njit
def cube(a):
    return a ** 3


@njit
def power_n(a, n):
    return a ** n


@njit
def power_arr(a, b):
    return a ** b


@njit
def mixed(a, k):
    return (a + 1.0) ** 2 - a ** -2 + k ** 2


@njit(error_model="numpy")
def power_numpy_model(a, n):
    return a ** n


def bits(r):
    fin = r[np.isfinite(r)]
    return r.dtype, r.shape, float(np.sum(fin)).hex(), [float(x).hex() for x in r[:3]], \
        int(np.isnan(r).sum()), int(np.isinf(r).sum())


rng = np.random.default_rng(0)
a = rng.standard_normal(1000) * 10
b = rng.integers(-4, 5, 1000)
print(*bits(cube(a)))
print(*bits(power_n(a, 7)))
print(*bits(power_n(a, -3)))
print(*bits(power_n(a, 0)))
print(*bits(power_arr(a, b)))
print(*bits(power_arr(a, b.astype(np.int32))))
print(*bits(mixed(a, np.full(1000, 3))))
print(*bits(cube(np.array([0.0, -0.0, np.inf, -np.inf, np.nan]))))
print(power_arr(np.arange(5.0), np.arange(5)).tolist(), power_arr(np.arange(3.0), np.int32(2)).tolist())
print(power_numpy_model(np.array([1.0, -2.0, 2.0]), -1).tolist())
for f in (power_n, power_numpy_model):
    try:
        f(np.array([1.0, 0.0, 2.0]), -1)
    except ZeroDivisionError as e:  # numjit's message also holds the location and a caret
        print("ZeroDivisionError:", str(e).splitlines()[0].split("ZeroDivisionError: ")[-1])
