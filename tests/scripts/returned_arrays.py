# Compiled functions that return arrays, called from the top level of a script: arrays they
# make (released when the session drops them) and views of the arrays passed in.
import numpy as np
from numba import njit

@njit
def mk(n):
    return np.ones(n)

@njit
def same(a):
    return a[1:3]

@njit
def fill(a, v):
    for i in range(a.shape[0]):
        a[i] = v

@njit
def total(a):
    return a.sum()

print(mk(3))
x = mk(4)
fill(x, 2.5)
print(x.sum(), total(x))
y = same(x)
print(y, y.shape)
z = np.arange(6.0)
w = same(z)
print(w)
for i in range(3):
    t = mk(1000)
print(total(t))
