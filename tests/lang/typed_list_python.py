# numba.typed.List made in Python: List(iterable), List(), List.empty_list(item_type); items
# converted to the item type as Numba converts them (an int into a list of float64 is a float;
# a float into a list of int64 is a TypingError), repr and str as Numba prints them, equality
# (a typed list never equals a plain list), slicing and copies that stay typed lists, the list
# methods from Python; passed to compiled functions (lists of int, float and str, and empty
# typed lists that know their item type), whose changes the caller's typed list shows.
from numba import njit, types
from numba.typed import List


@njit
def grow(l, x):
    l.append(x)
    l.append(x)
    return len(l)


@njit
def total(l):
    s = 0.0
    for x in l:
        s += x
    return s


@njit
def shout(l):
    for i in range(len(l)):
        l[i] = l[i] + "!"
    l.append("end")


@njit
def fill(l, n):
    for i in range(n):
        l.append(i * 1.5)
    return len(l)


def attempt(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)


if __name__ == "__main__":
    l = List([3, 1, 2])
    print(repr(l), str(l), type(l).__name__, len(l), type(l[0]).__name__)
    attempt(lambda: l.append(2.5))
    l.append(True)
    print(repr(l), type(l[-1]).__name__)
    e = List.empty_list(types.float64)
    e.append(3)
    e.extend([4, 5])
    e.extend((5.5,))
    print(repr(e), [type(x).__name__ for x in e])
    u = List()
    print(repr(u))
    u.append(1.5)
    print(repr(u))
    attempt(lambda: u.append("x"))
    print(l == [3, 1, 2, 1], l == List([3, 1, 2, 1]), repr(l[1:3]), type(l.copy()).__name__)
    l.sort()
    l.reverse()
    l.insert(0, 9)
    print(repr(l), l.pop(), l.index(2), 2 in l, l.count(1))
    print(repr(List(range(4))), repr(List(["a", "b"])))
    print(grow(l, 7), repr(l))
    print(total(e), grow(e, 2.25), repr(e))
    s = List(["x", "yz"])
    shout(s)
    print(repr(s), type(s).__name__)
    f = List.empty_list(types.float64)
    print(fill(f, 3), repr(f))
    i = List.empty_list(types.int64)
    print(grow(i, 4), repr(i), type(i[0]).__name__)
