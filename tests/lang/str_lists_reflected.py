# Python lists of str passed to compiled code (Numba's reflected list(unicode_type)): items are
# read, compared, concatenated and counted; appends, pops, inserts, item assignments and
# reversals made by compiled code are written back to the caller's list (a list compiled code
# only reads stays the same object with the same items); such a list returned comes back as a
# list of str; and the errors of unboxing a list that mixes str with numbers.
from numba import njit


@njit
def total_len(l):
    n = 0
    for s in l:
        n += len(s)
    return n


@njit
def join_all(l, sep):
    out = ""
    for i in range(len(l)):
        if i:
            out += sep
        out += l[i]
    return out


@njit
def shout(l):
    for i in range(len(l)):
        l[i] = l[i] + "!"


@njit
def grow(l, n):
    for i in range(n):
        l.append(l[-1] + "x")
    return len(l)


@njit
def shrink(l):
    x = l.pop()
    l.pop(0)
    l.insert(1, x)
    return x


@njit
def flip(l):
    l.reverse()


@njit
def find(l, s):
    return s in l, l.count(s)


@njit
def first_last(l):
    return l[0], l[-1]


@njit
def same(l):
    return l


@njit
def longest(l):
    best = l[0]
    for s in l:
        if len(s) > len(best):
            best = s
    return best


if __name__ == "__main__":
    words = ["alpha", "beta", "gamma", "délta"]
    r = total_len(words)
    print(type(r).__name__, r)
    r = join_all(words, "-")
    print(type(r).__name__, r)
    print(words)
    shout(words)
    print(words)
    l = ["a", "b"]
    print(grow(l, 3), l)
    l = ["one", "two", "three", "four"]
    r = shrink(l)
    print(type(r).__name__, r, l)
    l = ["x", "y", "z"]
    flip(l)
    print(l)
    print(find(["a", "b", "a"], "a"), find(["a", "b"], "c"))
    print(first_last(["head", "mid", "tail"]))
    l = ["p", "q"]
    keep = l
    r = same(l)
    print(type(r).__name__, r, keep is l, l)
    print(longest(["ab", "abcd", "abc"]))
    try:
        total_len(["a", 1])
    except TypeError as e:
        print("TypeError", e)
    try:
        first_last([1, "a"])
    except TypeError as e:
        print("TypeError", e)
