import numpy as np
from numba import njit, types
from numba.typed import Dict


@njit
def basics():
    d = {1: 2.0, 3: 4.5}
    d[7] = 1.25
    d[1] = 3.0
    s = 0.0
    for k in d:
        s += k * d[k]
    return len(d), s, 3 in d, 9 in d, 9 not in d


@njit
def empty_then_set(n):
    d = {}
    for i in range(n):
        d[i % 5] = i * 0.5
    tot = 0.0
    for k, v in d.items():
        tot += k + v
    return len(d), tot


@njit
def strings():
    d = dict()
    d['a'] = 1
    d['bb'] = 2
    d['ccc'] = 3
    del d['bb']
    n = 0
    for k in d.keys():
        n += len(k)
    m = 0
    for v in d.values():
        m += v
    return len(d), n, m, d.get('zz', -1), d.get('a', -1), d.pop('a'), len(d)


@njit
def methods():
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(10):
        d[i] = i * 1.5
    a = d.setdefault(3, 100.0)
    b = d.setdefault(30, 100.0)
    k, v = d.popitem()
    c = d.pop(99, -2.0)
    e = d.copy()
    e[1000] = 1.0
    d.clear()
    f = {5: 0.5}
    f.update(e)
    g = d.get(1)
    h = e.get(1)
    return a, b, k, v, c, len(d), len(e), len(f), g is None, h


@njit
def missing(k):
    d = {1: 2.0}
    return d[k]


@njit
def tuple_keys():
    d = {(1, 2): 'x', (3, 4): 'y'}
    d[(5, 6)] = 'z'
    out = 0
    for k in d:
        out += k[0] * k[1]
    return out, d[(3, 4)], (1, 2) in d, (2, 1) in d


@njit
def array_values(n):
    d = {'ones': np.ones(n)}
    d['range'] = np.arange(n) * 1.0
    d['ones'] = d['ones'] * 2
    return d['ones'].sum() + d['range'].sum(), len(d)


@njit
def float_keys():
    d = {0.5: 1, 1.0: 2, -2.25: 3}
    return d[1.0], d[-2.25], 0.25 in d


print(basics())
print(empty_then_set(12))
print(strings())
print(methods())
print(tuple_keys())
print(array_values(4))
print(float_keys())
for k in (1, 5):
    try:
        print(missing(k))
    except KeyError as e:
        print(type(e).__name__, repr(str(e)), e.args)


@njit
def popitem_empty():
    d = {1: 2}
    d.popitem()
    return d.popitem()


@njit
def counting(x):
    d = {}
    for v in x:
        if v in d:
            d[v] += 1
        else:
            d[v] = 1
    out = 0
    for k, c in d.items():
        out += k * 100 + c
    return out, len(d)


@njit
def nested():
    inner = {1: 1.5}
    outer = {'a': inner}
    outer['a'][2] = 2.5
    tups = {1: (1, 2.5), 2: (3, 4.5)}
    tups[3] = (5, 6.5)
    return len(outer['a']), inner[2], tups[3][1], tups[1][0]


try:
    print(popitem_empty())
except KeyError as e:
    print(type(e).__name__, str(e))
print(counting(np.array([3, 1, 3, 3, 7, 1])))
print(nested())
