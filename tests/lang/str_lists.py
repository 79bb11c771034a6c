# Lists of strings made by compiled code and returned to Python (a list of str, as Numba's
# reflected list boxes it): split results, lists built by appending, in a tuple, empty ones,
# and lists of strings held and changed inside compiled code.
from numba import njit


@njit
def fields(s):
    return s.split(',')


@njit
def words(s):
    return s.split()


@njit
def lines_and_count(s):
    a = s.splitlines()
    return a, len(a)


@njit
def numbered(n):
    out = []
    for i in range(n):
        out.append('item' + str(i))
    return out


@njit
def edited(s):
    a = s.split(' ')
    a.append('end')
    a[0] = a[0].upper()
    a.insert(1, 'mid')
    b = a.pop()
    a.reverse()
    return a, b, len(a), 'mid' in a


@njit
def pairs(s):
    out = []
    for kv in s.split(';'):
        k, sep, v = kv.partition('=')
        out.append(k + ':' + v)
    return out


def show(r):
    print(r, type(r).__name__)


if __name__ == "__main__":
    show(fields("a,b,,c"))
    show(fields(""))
    show(words("  λx  y z "))
    show(words("   "))
    r = lines_and_count("one\ntwo\r\nthree")
    print(r, [type(x).__name__ for x in r])
    show(numbered(4))
    show(numbered(1))
    r = edited("the quick fox")
    print(r, [type(x).__name__ for x in r])
    show(pairs("a=1;b=2;c"))
