# Module-level names seen from compiled code.  Numba freezes the value of a global when it
# compiles a function: ints, floats, bools and NumPy scalars (np.float32, np.int8) keep their
# type.  Module variables whose names are also parameters or locals of the compiled functions
# (the loop variables of the main block below: x, n, a, v) must not change what those
# functions compute.  (module_globals_u64.py does the same with uint64 values beyond 2**63.)
from numba import njit
import numpy as np

LIMIT = 10
RATE = 0.25
ENABLED = True
NEG = -7
HALF32 = np.float32(0.1)
SMALL = np.int8(-100)


@njit
def uses_constants(x):
    if ENABLED and x < LIMIT:
        return x * RATE + NEG
    return -1.0


@njit
def f32_const(x):
    # HALF32 is float32: float32 * float32 stays float32.
    return HALF32 * np.float32(x)


@njit
def small_signed(n):
    return SMALL * n


@njit
def shadowed(x, n):
    # Parameters named like module-level variables of the main block.
    s = 0
    for v in range(n):
        s += x * v
    return s


@njit
def fill_a(a, v):
    for i in range(a.shape[0]):
        a[i] = v + i


def r(v):
    return type(v).__name__ + ":" + repr(v)


if __name__ == "__main__":
    for x in [0, 3, 9, 10, 2.5]:
        print("uses_constants", repr(x), r(uses_constants(x)))
    for x in [1, 3]:
        print("f32_const", x, r(f32_const(x)))
    for n in [0, 1, -11, 2**62]:
        print("small_signed", n, r(small_signed(n)))
    # Main-block variables named like the parameters, holding values of other types.
    for x, n in [(np.int8(5), 3), (2.5, 4), (7, np.uint32(9))]:
        print("loop value", type(x).__name__, type(n).__name__)
    v = np.float32(1.5)
    a = np.zeros(3)
    for x in [1, 2]:
        for n in [0, 5]:
            print("shadowed", x, n, r(shadowed(x, n)))
    fill_a(a, 0.5)
    print("fill_a", a.tolist())
