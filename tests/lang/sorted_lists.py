# sorted() of a list, as Numba 0.56 runs it: a new sorted list (the argument is left as it
# was), reverse=True, integers, floats with ties and negative values, an empty list, and the
# sorted copy changed without touching the original.
from numba import njit


@njit
def both(n):
    l = [(i * 7) % 5 - 2 for i in range(n)]
    s = sorted(l)
    r = sorted(l, reverse=True)
    return l, s, r


@njit
def floats(x):
    l = [x, -x, 0.5, x * 2.0, 0.5]
    return sorted(l), sorted(l, reverse=False)


@njit
def kept(l):
    s = sorted(l)
    s.append(100)
    return s, len(l)


def show(r):
    print(r, [type(x).__name__ for x in r])


if __name__ == "__main__":
    show(both(7))
    show(both(1))
    show(floats(1.25))
    a = [3, 1, 2]
    show(kept(a))
    print(a)
