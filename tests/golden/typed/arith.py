# sig: mix(int32, float32, int64)
from numba import njit


@njit
def mix(a, b, c):
    x = a + a          # int32 + int32 -> int64
    y = a + b          # int32 + float32 -> float64
    z = b * b          # float32 stays float32
    w = c // 2 + c % 3 # Python floor division and modulo (checked for zero)
    return x + y + z + w
