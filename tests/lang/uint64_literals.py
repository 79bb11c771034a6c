# Integer literals above 2**63-1 are uint64 (Numba types such an int as uint64): hashing and
# bit-mixing code (SplitMix64, xorshift) writes its constants this way, wrapped in uint64()
# or bare.
from numba import njit, uint64, uint32
import numpy as np

GOLDEN = 0x9E3779B97F4A7C15


@njit
def splitmix64(seed):
    z = uint64(seed) + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint32(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint32(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint32(31))


@njit
def bare(x):
    return x ^ 0xFFFFFFFFFFFFFFFF


@njit
def mixed(n):
    return 0xFFFFFFFFFFFFFFFF + n


@njit
def module_const(x):
    return x * GOLDEN


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for s in [0, 1, 42, 2**40 + 7]:
        print("splitmix64", s, r(splitmix64(s)))
    for x in [np.uint64(0), np.uint64(12345), np.uint64(2**64 - 1)]:
        print("bare", x, r(bare(x)))
    for n in [0, 1, -1]:
        print("mixed", n, r(mixed(n)))
    print("module_const", r(module_const(np.uint64(3))))
