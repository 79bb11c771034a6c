# numba.typed.Dict crossing between Python and compiled code without copies: a dict made in a
# compiled function (Dict.empty or a {} literal) comes back as a numba.typed.Dict; one made in
# Python (Dict.empty, or Dict() typed by its first item) goes into compiled functions, whose
# changes Python sees, and Python's changes are seen by the next compiled call (one storage);
# keys and values of numbers and strings; the Python-side mapping methods, repr and str, ==,
# KeyError as Numba raises it (no arguments) and the TypingError of an unsafe cast.
from numba import njit, types
from numba.typed import Dict


@njit
def make(n):
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(n):
        d[i] = i * 0.5
    return d


@njit
def literal(n):
    d = {}
    for i in range(n):
        d["k" + str(i)] = i
    return d


@njit
def total(d):
    s = 0.0
    for k, v in d.items():
        s += k * v
    return s


@njit
def grow(d, k, v):
    d[k] = v
    return len(d)


@njit
def count_words(d, words):
    for w in words:
        if w in d:
            d[w] += 1
        else:
            d[w] = 1
    return len(d)


@njit
def drop_odd(d):
    ks = [k for k in d.keys()]
    for k in ks:
        if k % 2 == 1:
            del d[k]


@njit
def same(d):
    return d


@njit
def small(d):
    s = 0.0
    for v in d.values():
        s += v
    return s


def show(d):
    print(type(d).__name__, repr(d), str(d), len(d))


def attempt(f):
    try:
        print("ok", f())
    except Exception as e:
        msg = str(e)
        i = msg.find("cannot safely cast")
        print(type(e).__name__, repr(msg[i:i + 48] if i >= 0 else msg))


if __name__ == "__main__":
    d = make(4)
    show(d)
    print(d[3], type(d[3]).__name__, 2 in d, 7 in d, list(d), list(d.values()), list(d.items()))
    d[10] = 2
    d[1] = 7.5
    print(total(d), grow(d, 20, 1.25), d)
    e = literal(3)
    show(e)
    print(e["k2"], type(e["k2"]).__name__)
    e["zz"] = 9
    print(count_words(e, ["zz", "a", "k0", "a"]), e)

    p = Dict.empty(key_type=types.int64, value_type=types.float64)
    show(p)
    for i in range(6):
        p[i] = i + 0.25
    drop_odd(p)
    show(p)
    print(grow(p, 100, 3.0), p[100], total(p))
    q = same(p)
    q[7] = 1.0
    print(type(q).__name__, 7 in p, p == q, p is q, len(p))

    w = Dict()
    show(w)
    w["a"] = 1
    show(w)
    print(count_words(w, ["a", "b", "b"]), w, w["b"])

    f = Dict.empty(types.int32, types.float32)
    f[3] = 1.5
    f[True] = 2
    print(f, small(f), type(list(f.keys())[0]).__name__, type(f[3]).__name__)

    g = make(5)
    print(g.get(1), g.get(99), g.get(99, -1.0), g.pop(1), g.pop(99, 0.5), g)
    print(g.setdefault(2, 9.0), g.setdefault(50, 9.0), g.popitem(), g)
    h = g.copy()
    h[0] = 100.0
    print(h, g, h == g, g == g.copy(), g == {0: 0.0, 2: 1.0, 3: 1.5, 4: 2.0}, g == 1)
    g.update({8: 8.0, 0: -1.0})
    print(g, total(g))
    del g[8]
    print(g, sorted(g.keys()), isinstance(g, dict))
    g.clear()
    print(g, len(g), total(g), grow(g, 1, 1.0), g)

    attempt(lambda: make(2)[5])
    attempt(lambda: make(2).pop(5))
    attempt(lambda: Dict()[1])
    attempt(lambda: make(0).popitem())
    attempt(lambda: make(2).__delitem__(9))
    attempt(lambda: make(2).__setitem__(1.5, 1.0))
    attempt(lambda: make(2).__setitem__("a", 1.0))
    attempt(lambda: Dict.empty(types.int64, types.int64).__setitem__(1, 2.5))
    attempt(lambda: total(Dict()))
    attempt(lambda: hash(make(1)))
