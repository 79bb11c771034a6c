# Lists inside compiled functions: literals, [] typed by a later append (and a literal's type
# refined by appending a float), len, indexing with negative indices and Numba's IndexError
# messages, item assignment, iteration (appending while iterating extends the loop), pop with
# and without an index, list comprehensions with conditions and nested clauses, lists of
# tuples and of arrays, lists passed between compiled functions (one list, seen through both
# names).  Results cross back as numbers, tuples and arrays.
from numba import njit
import numpy as np


@njit
def literal_sum():
    l = [1.5, 2.0, 3.25]
    s = 0.0
    for x in l:
        s += x
    return s, len(l)


@njit
def mixed_literal():
    l = [1, 2.5, True]
    return l[0], l[1], l[2]


@njit
def grow(n):
    l = []
    for i in range(n):
        l.append(i * i)
    return len(l), l[-1], l[0]


@njit
def refine():
    l = [1, 2]
    l.append(2.5)
    return l[0], l[2], len(l)


@njit
def index(i):
    l = [10, 20, 30]
    return l[i]


@njit
def setitem(i, v):
    l = [1.0, 2.0, 3.0]
    l[i] = v
    return l[0], l[1], l[2]


@njit
def iterate_and_grow():
    l = [1, 2, 3]
    n = 0
    for x in l:
        if x < 5:
            l.append(x + 3)
        n += 1
    return n, len(l)


@njit
def pops():
    l = [1, 2, 3, 4, 5]
    a = l.pop()
    b = l.pop(0)
    c = l.pop(-2)
    return a, b, c, len(l), l[0], l[1]


@njit
def pop_empty():
    l = [1]
    l.pop()
    return l.pop()


@njit
def pop_bad(i):
    l = [1, 2]
    return l.pop(i)


@njit
def comp(n):
    sq = [i * i for i in range(n) if i % 2 == 0]
    s = 0
    for x in sq:
        s += x
    return len(sq), s


@njit
def comp_nested(n):
    pairs = [i * 10 + j for i in range(n) for j in range(i)]
    return len(pairs), pairs[-1]


@njit
def comp_of_array(a):
    l = [x * 0.5 for x in a if x > 0]
    return len(l), l[0]


@njit
def tuples():
    l = [(1, 2.0), (3, 4.0)]
    l.append((5, 6.5))
    t = 0.0
    for p in l:
        t += p[0] * p[1]
    return t, l[-1][1]


@njit
def arrays(n):
    l = []
    for i in range(n):
        l.append(np.full(3, float(i)))
    s = 0.0
    for a in l:
        s += a.sum()
    last = l.pop()
    return s, last[0], len(l)


@njit
def array_items_replaced():
    l = [np.zeros(2), np.ones(2)]
    l[0] = np.arange(2.0)
    l[1] = l[0]
    return l[1][1] + l[0][1]


@njit
def list_in_loop(n):
    total = 0
    for k in range(n):
        l = [k, k + 1]
        l.append(k + 2)
        total += l[0] + l[-1]
    return total


@njit
def while_pop():
    l = [3, 1, 2]
    s = 0
    while len(l) > 0:
        s = s * 10 + l.pop()
    return s


@njit
def total(l):
    s = 0
    for x in l:
        s += x
    return s


@njit
def fill(l, n):
    for i in range(n):
        l.append(i)
    return l


@njit
def through_calls(n):
    l = [0]
    l.pop()
    m = fill(l, n)  # the same list: appends through m are seen through l
    m.append(100)
    return total(l), len(m), len(l)


@njit
def arrays_popped(n):
    out = []
    for i in range(n):
        out.append(np.arange(i + 1) * 1.0)
    t = 0.0
    while len(out) > 0:
        a = out.pop()
        t += a.sum()
    return t


def show(x):
    if isinstance(x, tuple):
        return "(" + ", ".join(show(v) for v in x) + ")"
    return type(x).__name__ + ":" + repr(x)


def message(e):
    name = type(e).__name__ + ": "
    return str(e).splitlines()[0].split(name)[-1] if str(e) else ""  # numjit adds the location


def attempt(f, *args):
    try:
        print(show(f(*args)))
    except Exception as e:
        print(type(e).__name__ + ": " + message(e))


if __name__ == "__main__":
    attempt(literal_sum)
    attempt(mixed_literal)
    attempt(grow, 5)
    attempt(grow, 1)
    attempt(refine)
    for i in (0, 2, -1, -3, 3, -4):
        attempt(index, i)
    attempt(setitem, 1, 9.5)
    attempt(setitem, -1, 7.0)
    attempt(setitem, 3, 7.0)
    attempt(setitem, -4, 7.0)
    attempt(iterate_and_grow)
    attempt(pops)
    attempt(pop_empty)
    attempt(pop_bad, 2)
    attempt(pop_bad, -3)
    attempt(pop_bad, -2)
    attempt(comp, 7)
    attempt(comp, 0)
    attempt(comp_nested, 4)
    attempt(comp_of_array, np.array([-1.0, 3.0, 5.0]))
    attempt(comp_of_array, np.array([-1, 4, 6], dtype=np.int32))
    attempt(tuples)
    attempt(arrays, 4)
    attempt(array_items_replaced)
    attempt(list_in_loop, 5)
    attempt(while_pop)
    attempt(through_calls, 4)
    attempt(arrays_popped, 5)
