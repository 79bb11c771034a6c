# Found by tests/fuzz/progfuzz.py (seed 7, program 195), minimized.
# Numba 0.56: ["raise", "ZeroDivisionError"]
# numjit:     ["result", ["tuple", [["complex", "3.0", "-1.5"]]], ["tuple", [["complex", "3.0", "-1.5"]]]]
import math
import numpy as np
from numba import njit

@njit(error_model='numpy')
def f(p0):
    v2, v3 = (p0, p0,)
    t8 = ((v3 / math.isinf(7.25)),)
    return (v2,)

def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ")"
    if isinstance(v, np.ndarray):
        return "array:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)

if __name__ == "__main__":
    args = (complex(3.0, -1.5), )
    try:
        print(show(f(*args)))
        print(show(args))
    except (ZeroDivisionError, IndexError, ValueError) as e:
        print(type(e).__name__)
