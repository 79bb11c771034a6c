import numba
from numba import njit, jit, vectorize, guvectorize, cuda

@njit(cahce=True)
def a(x): return x

@njit(error_model='c', fastmath=1.5)
def b(x): return x

@jit(nopython=False)
def c(x): return x

@vectorize(['f8(f8)'], target='gpu')
def d(x): return x

@guvectorize(['void(f8[:], f8[:])'], '(n)->(n')
def e(x, out): pass

@guvectorize(['void(f8[:], f8[:])'], '(n),->(n)')
def e2(x, out): pass

@guvectorize(['void(f8[:], f8[:])'])
def e3(x, out): pass

@numba.stencil
def s(a): return a[0]

@cuda.jit(device=True, inline=True, foo=1)
def k(x): return x

@njit
@cuda.jit
def twice(x): return x

@decorators[0]
def weird(x): return x
