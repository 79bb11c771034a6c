# np.random in compiled code: after np.random.seed(n) inside compiled code, every function gives
# Numba's sequence (MT19937 seeded like NumPy's legacy RandomState); the state is shared by all
# compiled functions of the process; unseeded draws are only checked for their range.
import numpy as np
from numba import njit


@njit
def seed(n):
    np.random.seed(n)


@njit
def uniforms():
    return (np.random.random(), np.random.rand(), np.random.random_sample(),
            np.random.sample(), np.random.ranf(), np.random.uniform(1.5, 4.0),
            np.random.uniform(3, -2), np.random.uniform(a=0.0, b=10.0))


@njit
def normals():
    return (np.random.randn(), np.random.standard_normal(), np.random.normal(),
            np.random.normal(2.0), np.random.normal(1.0, 3.0), np.random.normal(-1, 0.5),
            np.random.normal(loc=5.0, scale=0.1), np.random.normal(np.float32(1.5), 2.0))


@njit
def integers():
    return (np.random.randint(10), np.random.randint(-5, 5), np.random.randint(3, 4),
            np.random.randint(0, 2**40), np.random.randint(-(2**61), 2**61),
            np.random.randint(low=7, high=1000), np.random.randint(np.int32(100)),
            np.random.randint(2.9, 7.5))


@njit
def exponentials():
    return (np.random.exponential(), np.random.exponential(2.0),
            np.random.exponential(scale=0.5), np.random.standard_exponential())


@njit
def interleaved(n):
    # gauss keeps the second value of each pair across other draws, as NumPy's legacy gauss
    s = 0.0
    for i in range(n):
        s += np.random.normal() * (i + 1)
        s += np.random.random()
        s += np.random.randint(0, 1000) * 0.001
    return s


@njit
def seeded_inside(n):
    np.random.seed(n)
    return np.random.random() + np.random.normal()


@njit
def empty_range(lo, hi):
    return np.random.randint(lo, hi)


@njit
def unseeded(n):
    ok = True
    for i in range(n):
        x = np.random.random()
        k = np.random.randint(-3, 3)
        u = np.random.uniform(2.0, 5.0)
        e = np.random.exponential()
        ok = ok and 0.0 <= x < 1.0 and -3 <= k < 3 and 2.0 <= u <= 5.0 and e >= 0.0
    return ok


for s in (0, 1, 42, 12345, 2**31 - 1, 2**32 - 1, 2**32 + 7, -1):
    seed(s)
    print("seed", s)
    print(uniforms())
    print(normals())
    print(integers())
    print(exponentials())
    print(interleaved(50))

# a seed set by one function drives the draws of another
print(seeded_inside(9), uniforms()[0])
seed(3)
print(normals()[0], seeded_inside(3) - np.float64(0.0))

for lo, hi in ((5, 5), (5, 1)):
    try:
        empty_range(lo, hi)
    except ValueError:
        print("ValueError")

print(unseeded(10000))
