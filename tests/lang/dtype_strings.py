# dtype arguments written as strings, which Numba 0.56 reads as np.dtype(s) does: NumPy's names
# of Python's types ('int', 'float', 'bool', 'complex'), 'float_' (float64, where numba.float_
# is float32), character codes ('d', 'l', '?') and a byte-order mark ('<f4'), in np.zeros,
# np.empty, np.ones, np.full, the _like forms, np.dtype(s) and astype.
from numba import njit
import numpy as np


@njit
def zeros_by_name(n):
    a = np.zeros(n, dtype='int')
    b = np.zeros((2, n), dtype='float')
    c = np.zeros(n, dtype='bool')
    d = np.zeros(n, dtype='complex')
    return a, b, c, d


@njit
def empty_codes(n):
    a = np.ones(n, dtype='d')
    b = np.ones(n, dtype='l')
    c = np.ones(n, dtype='?')
    d = np.ones(n, dtype='f')
    e = np.ones(n, dtype='i')
    return a, b, c, d, e


@njit
def other_spellings(n):
    a = np.full(n, 3, dtype='float_')
    b = np.ones(n, dtype='<f4')
    c = np.zeros_like(a, dtype='int')
    d = np.ones(n, np.dtype('float'))
    e = np.empty(n, dtype='uint').size
    return a, b, c, d, e


@njit
def astype_name(x):
    return x.astype('int'), x.astype('float32'), x.astype('=f8')


@njit
def graph_init(nv):
    # the pattern of published graph codes: weights and predecessors by Python type names
    weight = np.zeros(nv, dtype='float')
    pred = np.zeros(nv, dtype='int')
    seen = np.zeros(nv, dtype='bool')
    for i in range(nv):
        weight[i] = 1.5 * i
        pred[i] = i - 1
        seen[i] = i % 2 == 0
    return weight.sum(), pred.sum(), seen.sum()


def show(a):
    return type(a).__name__ + ":" + str(a.dtype) + ":" + str(a.shape) + ":" + repr(a.tolist())


if __name__ == "__main__":
    for r in zeros_by_name(3):
        print(show(r))
    for r in empty_codes(2):
        print(show(r))
    out = other_spellings(4)
    for r in out[:4]:
        print(show(r))
    print(type(out[4]).__name__, out[4])
    for r in astype_name(np.array([1.5, -2.25, 3.0])):
        print(show(r))
    w, p, s = graph_init(6)
    print(type(w).__name__, w, type(p).__name__, p, type(s).__name__, s)
