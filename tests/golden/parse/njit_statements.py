from numba import njit, jit
import numba as nb

N = 0x10
MASK = ~0b1010 & 0o777
HALF = 1. / 2
BIG = 1_000_000
NEG = -2**2
OK = True and not False

@njit(cache=True, fastmath=True, error_model='numpy', boundscheck=False)
def everything(a, b, n=10):
    '''Every statement kind.'''
    x = y = 0
    i, j = 1, 2
    (p, q) = (i, j)
    x += 1; y -= 1
    x *= 2
    x /= 2
    x //= 2
    x %= 3
    x **= 2
    x <<= 1
    x >>= 1
    x &= 7
    x |= 8
    x ^= 1
    if a < b <= n and not (a == b) or a is None:
        pass
    elif a != b:
        x = a if a > b else b
    else:
        x = -a ** 2
    for k in range(0, n, 2):
        if k >= 4:
            break
        continue
    while x > 0:
        x -= 1
    s = a[i, j] + a[:, ::1].sum() + a[1:2, ::-1][0, 0] + a.shape[0] + len(a)
    t = [1, 2, 3]
    u = ()
    v = (1,)
    w = abs(-3.5e-2) + min(1, 2) + max(1.5, .5) + round(2.675, 2)
    print("value:", x, sep=" ", end="\n")
    return x, y

@jit(nopython=True)
def helper(x):
    return x

@nb.njit('float64(float64)')
def typed(x): return x * 2.

def plain(x):
    return helper(x) + typed(x)

@njit
def checked(x):
    assert x == x
    assert x >= 0, "negative"
    if x > 1e300:
        raise OverflowError
    if x == 7:
        raise ValueError("seven", 7, -1.5)
    return x
