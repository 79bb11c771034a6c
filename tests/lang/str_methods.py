# String methods as Numba 0.56 has them (numba/cpython/unicode.py): case mapping, the
# character-class tests (some give 0/1 integers, some booleans, as Numba's do), find/rfind/
# count/index/rindex with start and end, replace, strip with and without characters, padding,
# partition, split/rsplit/splitlines/join used inside compiled code, expandtabs, ord and chr,
# and the errors Numba raises at run time.
from numba import njit


@njit
def cases(s):
    return s.upper(), s.lower(), s.swapcase(), s.title(), s.capitalize(), s.casefold()


@njit
def classes(s):
    return (s.isdigit(), s.isalpha(), s.isspace(), s.isupper(), s.islower(), s.isalnum(),
            s.isdecimal(), s.isnumeric(), s.istitle(), s.isidentifier(), s.isprintable(),
            s.isascii())


@njit
def search(s, t):
    return (s.find(t), s.rfind(t), s.count(t), s.find(t, 2), s.find(t, 1, 4), s.rfind(t, 0, 3),
            s.count(t, -3), s.find(t, -2), s.rfind(t, 1, -1), s.startswith(t), s.endswith(t))


@njit
def index_of(s, t, start):
    return s.index(t, start), s.rindex(t, start)


@njit
def replaced(s, old, new):
    return s.replace(old, new), s.replace(old, new, 1), s.replace(old, new, 0)


@njit
def stripped(s):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip('x-'), s.lstrip(' x'), s.rstrip('-')


@njit
def padded(s, w):
    return s.center(w), s.center(w, '*'), s.ljust(w, '.'), s.rjust(w), s.zfill(w)


@njit
def parts(s, sep):
    return s.partition(sep), s.rpartition(sep)


@njit
def split_join(s):
    a = s.split(',')
    b = s.split()
    c = s.split(',', 1)
    d = s.rsplit(',', 1)
    e = s.split(None, 1)
    f = s.rsplit()
    return ('|'.join(a), len(a), '|'.join(b), len(b), '|'.join(c), '|'.join(d), '|'.join(e),
            '|'.join(f))


@njit
def lines(s):
    a = s.splitlines()
    b = s.splitlines(True)
    return len(a), '/'.join(a), len(b), '/'.join(b)


@njit
def words_upper(s):
    out = []
    for w in s.split(' '):
        out.append(w.capitalize())
    return ' '.join(out)


@njit
def codes(s):
    t = 0
    for c in s:
        t = t * 3 + ord(c)
    return t, chr(ord(s[0]) + 1), chr(955), ord('λ')


@njit
def tabs(s):
    return s.expandtabs(), s.expandtabs(4)


@njit
def checked(k, s):
    if k == 0:
        return s.index('zz')
    if k == 1:
        return s.rindex('zz', 1)
    if k == 2:
        return len(s.center(9, '**'))
    if k == 3:
        return ord(s)
    if k == 4:
        return len(chr(-1))
    if k == 5:
        return len(s.split(''))
    return len(s.partition(''))


def show(r):
    print(r, [type(x).__name__ for x in r] if isinstance(r, tuple) else type(r).__name__)


if __name__ == "__main__":
    for s in ["hello World", "ABC def", "  mixed Case 12 ", "", "x", "123", "Title Case Words",
              "snake_case9", "tab\tbed", "λx Σy"]:
        show(cases(s))
        show(classes(s))
    for s, t in [("abcabcab", "ab"), ("aaaa", "aa"), ("hello", ""), ("hello", "z"),
                 ("λaλbλ", "λ")]:
        show(search(s, t))
    show(index_of("abcabc", "bc", 2))
    show(index_of("abcabc", "a", -3))
    show(replaced("banana", "an", "AN"))
    show(replaced("aaa", "a", ""))
    show(replaced("abc", "", "-"))
    show(replaced("λλ", "λ", "ab"))
    for s in ["  x-hi-x  ", "xx--yy--xx", "", "\t\n spaced \r\n"]:
        show(stripped(s))
    for s, w in [("ab", 7), ("abc", 8), ("abcdef", 3), ("-42", 6), ("+7", 4), ("", 3)]:
        show(padded(s, w))
    show(parts("key=value=x", "="))
    show(parts("novalue", "="))
    show(split_join("a,b,,c"))
    show(split_join("  one two\tthree  "))
    show(split_join(""))
    show(split_join(",leading,trailing,"))
    show(lines("a\nb\r\nc\rd\n"))
    show(lines("no newline"))
    show(lines(""))
    print(words_upper("the quick brown fox"))
    show(codes("abc"))
    show(tabs("a\tbc\tdef\tg"))
    for k in range(7):
        try:
            print(checked(k, "abcab"))
        except Exception as e:
            print(type(e).__name__, e)
