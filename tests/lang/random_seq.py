# np.random.shuffle, random.shuffle, np.random.permutation and np.random.choice in @njit
# functions: seeded inside compiled code, they draw Numba's sequences (Fisher-Yates from the
# end with randint / randrange, choice without replacement through a permutation); 1-d and
# 2-d arrays (rows exchanged), integer populations, sizes as integers and tuples, and
# ValueError for a sample larger than the population without replacement.
import random

import numpy as np
from numba import njit


@njit
def shuffled(a, seed):
    np.random.seed(seed)
    np.random.shuffle(a)
    return a


@njit
def py_shuffled(a, seed):
    random.seed(seed)
    random.shuffle(a)
    return a


@njit
def perm_n(n, seed):
    np.random.seed(seed)
    return np.random.permutation(n)


@njit
def perm_a(a, seed):
    np.random.seed(seed)
    return np.random.permutation(a)


@njit
def choice1(a, seed):
    np.random.seed(seed)
    return np.random.choice(a)


@njit
def choice_n(n, k, seed):
    np.random.seed(seed)
    return np.random.choice(n, k)


@njit
def choice_a(a, k, replace, seed):
    np.random.seed(seed)
    return np.random.choice(a, k, replace)


@njit
def choice_shape(a, seed):
    np.random.seed(seed)
    return np.random.choice(a, (2, 3), replace=False)


def show(x):
    if isinstance(x, np.ndarray):
        print(type(x).__name__, x.dtype, x.shape, x.tolist())
    else:
        print(type(x).__name__, x)


if __name__ == "__main__":
    for seed in (0, 1, 42):
        show(shuffled(np.arange(10), seed))
        show(shuffled(np.arange(8.0) * 0.5, seed))
        show(shuffled(np.arange(12).reshape(4, 3), seed))
        show(py_shuffled(np.arange(10), seed))
        show(py_shuffled(np.arange(6).reshape(3, 2), seed))
        show(perm_n(7, seed))
        show(perm_a(np.array([1.5, 2.5, 3.5, 4.5]), seed))
        show(perm_a(np.arange(6).reshape(3, 2), seed))
        show(choice1(10, seed))
        show(choice1(np.array([0.25, 0.5, 0.75]), seed))
        show(choice_n(5, 8, seed))
        show(choice_a(np.arange(10, 20), 4, True, seed))
        show(choice_a(np.arange(10, 20), 4, False, seed))
        show(choice_a(np.array([1.0, 2.0, 3.0]), 3, False, seed))
        show(choice_shape(np.arange(100, 110), seed))
    show(shuffled(np.zeros(0), 3))
    show(shuffled(np.array([7]), 3))
    try:
        choice_a(np.arange(3), 4, False, 0)
    except ValueError as e:
        print("ValueError", str(e).splitlines()[0].split("ValueError: ")[-1])
