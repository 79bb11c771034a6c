from numba import njit, guvectorize, vectorize, cuda, stencil

@guvectorize(['void(float64[:], float64[:])'], '(n)->(n')
def a(x, out):
    pass

@guvectorize(['void(float64[:], float64[:])'])
def b(x, out):
    pass

@njit(cahce=True, error_model='c')
def c(x):
    if (y := x) > 1:
        return f(*x, **y)
    x, *rest = x
    return 1 = x

@vectorize(target='gpu')
def d(x):
    return x
@stencil
def e(a):
    return a[0]
@(lambda f: f)
def g(): pass
@cuda.jit(device=True, foo=1)
def k(x):
    yield x
    await x
    return ...
def m(a, a, *args, b: int = 2) -> int:
    x: int = 3
    3 = x
    x + 1 += 2
    f(a=1, 2)
    print(1 2)
    for i in 1 2: pass
    s = 'abc
    t = b'x'
    z = 1j + 0777 + 99999999999999999999
