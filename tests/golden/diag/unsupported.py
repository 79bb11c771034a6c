import numpy as np
from numba import njit

class Point:
    x = 0

@njit
def f(a):
    g = lambda t: t + 1
    squares = list(i * i for i in range(10))
    d = {k: 1 for k in a}
    with open('x') as fh:
        pass
    try:
        a[0] = 1
    except IndexError:
        pass
    finally:
        pass
    raise ValueError("bad") from a
    global counter
    del a
    nonlocal a
    return f"{a:3}"

def gen():
    x = yield 1

async def co():
    await gen()
