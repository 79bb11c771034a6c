# numba.typed.List as one storage with compiled code: a typed list made in Python (List(),
# List(iterable), List.empty_list) is passed to compiled functions as the list itself, whose
# appends, pops and item changes Python sees, and Python's changes are seen by the next call;
# the Python-side sequence methods (negative indices, slices, insert, pop, remove, index,
# count, sort, reverse, copy, clear, in, ==) and their errors as Numba raises them.
from numba import njit, types
from numba.typed import List


@njit
def total(l):
    s = 0.0
    for x in l:
        s += x
    return s


@njit
def grow(l, x, n):
    for i in range(n):
        l.append(x + i)
    return len(l)


@njit
def double_first(l):
    l[0] = l[0] * 2
    return l.pop()


@njit
def shout(l):
    for i in range(len(l)):
        l[i] = l[i] + "!"
    l.append("end")


def show(l):
    print(type(l).__name__, repr(l), str(l), len(l), isinstance(l, list))


def attempt(f):
    try:
        print("ok", f())
    except Exception as e:
        msg = str(e)
        i = msg.find("cannot safely cast")
        print(type(e).__name__, repr(msg[i:i + 40] if i >= 0 else msg))


if __name__ == "__main__":
    a = List([1.5, 2.5, 3.5])
    show(a)
    print(total(a), grow(a, 10.0, 3), a, a[-1], type(a[-1]).__name__)
    a.append(4)
    a[0] = 0.25
    print(total(a), double_first(a), a)
    e = List.empty_list(types.int64)
    print(grow(e, 7, 4), e, total(e))
    e.insert(0, 100)
    e.insert(-1, 5)
    print(e, e[1:3], e[::-1], e[-2], 8 in e, 99 in e, e.index(8), e.count(7))
    print(e.pop(), e.pop(0), e)
    e.remove(5)
    e.sort()
    print(e, grow(e, 1, 1), e)
    e.reverse()
    c = e.copy()
    c[0] = -1
    print(e, c, e == c, e == e.copy(), e == list(e), type(c).__name__)
    del e[0]
    del e[1:]
    print(e, len(e))
    e.extend(List([3, 4]))
    e[1:2] = List([9, 9])
    print(e, total(e))
    e.clear()
    print(e, len(e), grow(e, 2, 2), e)
    s = List(["x", "y"])
    shout(s)
    show(s)
    s.append("z")
    shout(s)
    print(s, s[0], type(s[0]).__name__)
    w = List()
    show(w)
    w.append(True)
    w.append(2)
    show(w)

    attempt(lambda: List([1])[5])
    attempt(lambda: List([1]).pop(3))
    attempt(lambda: List.empty_list(types.float64).pop())
    attempt(lambda: List([1]).remove(7))
    attempt(lambda: List([1]).index(7))
    attempt(lambda: List([1]).append(2.5))
    attempt(lambda: total(List()))
