# The methods and operators of lists in compiled code, as Numba 0.56 runs them: insert, extend
# (by a list, by itself, by an array), remove, index (with bounds), count, reverse, clear,
# copy (a new list: changing it leaves the original), sort (and reverse=True), `in` and
# `not in`, slicing with any bounds and steps, + and *, sum/min/max of lists, np.array of a
# list, `for i, x in enumerate(l)`, and the errors Numba raises (ValueError messages of index
# and remove; min of an empty list is StopIteration).
from numba import njit
import numpy as np


@njit
def inserts():
    l = [1, 2, 3]
    l.insert(0, 10)
    l.insert(2, 20)
    l.insert(100, 30)
    l.insert(-1, 40)
    l.insert(-100, 50)
    return l


@njit
def extends(a):
    l = [1.0, 2.0]
    l.extend([3.0, 4.5])
    l.extend(l)
    l.extend(a)
    return l


@njit
def removes(x):
    l = [5, 3, 5, 1]
    l.remove(x)
    return l


@njit
def index_of(x):
    l = [4, 8, 15, 16, 23, 42, 8]
    return l.index(x)


@njit
def index_between(x, lo, hi):
    l = [4, 8, 15, 16, 23, 42, 8]
    return l.index(x, lo, hi)


@njit
def counts():
    l = [1, 2, 1, 3, 1]
    return l.count(1), l.count(4), l.count(2.0)


@njit
def reverse_clear():
    l = [1, 2, 3, 4, 5]
    l.reverse()
    first = l[0]
    m = [7, 8]
    m.reverse()
    l.clear()
    return first, len(l), m[0]


@njit
def copies():
    l = [i for i in range(1, 4)]  # Numba 0.56 cannot copy a list of literal values
    m = l.copy()
    m.append(4)
    m[0] = 100
    return l, m


@njit
def sorts(a):
    l = [x for x in a]
    l.sort()
    m = [x for x in a]
    m.sort(reverse=True)
    return l, m


@njit
def contains(x):
    l = [1.5, 2.5, 3.5]
    return x in l, x not in l


@njit
def slices(n, lo, hi, step):
    l = [i for i in range(n)]
    return l[lo:hi:step]


@njit
def slices_fixed():
    l = [0, 1, 2, 3, 4, 5, 6, 7]
    return l[2:], l[:3], l[::2], l[::-1], l[-3:], l[5:1:-2], l[10:]


@njit
def plus_times():
    a = [1, 2]
    b = [3.5]
    c = a + b
    d = a * 3
    e = 2 * b
    f = a * -1
    return c, d, e, f


@njit
def reductions(n):
    l = [(i * 7) % 5 for i in range(n)]
    f = [x * 0.5 for x in l]
    return sum(l), min(l), max(l), sum(f), min(f), max(f), sum(l, 10)


@njit
def reductions_bool():
    l = [True, False, True]
    return sum(l)


@njit
def min_empty():
    l = [1]
    l.pop()
    return min(l)


@njit
def to_array(n):
    l = [i * 1.5 for i in range(n)]
    a = np.array(l)
    m = [1, 2, 3]
    b = np.array(m, dtype=np.float32)
    return a, b


@njit
def list_of_lists_len(n):
    rows = [1.0]
    rows.pop()
    for i in range(n):
        rows.append(float(i))
    return len(rows) + len([r for r in rows if r > 1])


@njit
def enumerated(start):
    l = [2.5, 3.5, 4.5]
    s = 0.0
    for i, x in enumerate(l):
        s += i * x
    t = 0
    for j, y in enumerate([7, 8], start):
        t += j * y
    return s, t


def show(x):
    if isinstance(x, tuple):
        return "(" + ", ".join(show(v) for v in x) + ")"
    if isinstance(x, list):
        return "list[" + ", ".join(show(v) for v in x) + "]"
    if isinstance(x, np.ndarray):
        return "ndarray(%s, %s):%r" % (x.dtype, x.shape, x.tolist())
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
    attempt(inserts)
    attempt(extends, np.array([9.0, 10.0]))
    attempt(removes, 5)
    attempt(removes, 1)
    attempt(removes, 2)
    for x in (4, 8, 42, 7):
        attempt(index_of, x)
    attempt(index_between, 8, 2, 7)
    attempt(index_between, 8, -3, 100)
    attempt(index_between, 8, 2, 5)
    attempt(counts)
    attempt(reverse_clear)
    attempt(copies)
    attempt(sorts, np.array([3.0, -1.0, 2.5, 0.0, 7.0]))
    attempt(sorts, np.array([5, 1, 4, 1, 3]))
    attempt(contains, 2.5)
    attempt(contains, 3.0)
    for args in ((10, 2, 8, 3), (10, -2, 100, 1), (10, 8, 2, -2), (5, 0, 5, -1), (6, -100, 100, 4)):
        attempt(slices, *args)
    attempt(slices, 5, 0, 5, 0)
    attempt(slices_fixed)
    attempt(plus_times)
    attempt(reductions, 9)
    attempt(reductions_bool)
    attempt(min_empty)
    attempt(to_array, 4)
    attempt(to_array, 0)
    attempt(list_of_lists_len, 4)
    attempt(enumerated, 10)
