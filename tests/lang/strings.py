# Strings (Numba's unicode_type) in compiled functions: literals and str arguments, ==, !=, <,
# `in`, len, indexing and slicing (ASCII and other text), + concatenation, * repetition,
# iteration (for c in s, enumerate, zip), s.find/startswith/endswith, str() of ints and bools,
# f-strings of integers and strings, strings in print(), strings returned to Python, literal
# arguments that select behaviour, and the errors Numba raises (IndexError).
from numba import njit
import numpy as np


def show(v):
    print(type(v).__name__ + ":" + repr(v))


@njit
def literal():
    s = 'abc'
    return s


@njit
def concat(a, b):
    return a + b + '!'


@njit
def compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@njit
def contains(a, b):
    return b in a, b not in a


@njit
def length(s):
    return len(s)


@njit
def char_at(s, i):
    return s[i]


@njit
def slices(s):
    return s[1:], s[:-1], s[::2], s[::-1], s[1:4:2], s[10:20]


@njit
def str_of_int(n):
    return str(n) + '|' + str(-n) + '|' + str(n > 0)


@njit
def fstring(n, name):
    return f"{name} has {n} items ({n > 2}) {{braces}}" + f"" + f'{n * 2}{-n}'


@njit
def interpolate(method, x):
    if method == 'linear':
        return x * 2.0
    elif method == 'square':
        return x * x
    return -1.0


@njit
def count_char(s, c):
    k = 0
    for i in range(len(s)):
        if s[i] == c:
            k += 1
    return k


@njit
def build(n):
    s = ''
    for i in range(n):
        s = s + str(i)
    return s


@njit
def printer(s, n):
    print('value:', s, n)
    print(s + s)


@njit
def truth(s):
    if s:
        return 1
    return 0


@njit
def iterate(s):
    out = ''
    for c in s:
        out = c + out
    n = 0
    for i, c in enumerate(s):
        if c == s[i]:
            n += 1
    for c, k in zip(s, range(2)):
        out = out + c * k
    return out, n


@njit
def repeat(s, n):
    return s * n, n * s, s * 0, s * -3


@njit
def methods(s, t):
    return s.find(t), s.startswith(t), s.endswith(t)


@njit
def unicode_eq_other(s):
    return s == 1, s != 1.5


if __name__ == "__main__":
    show(literal())
    show(concat('ab', 'cd'))
    show(concat('', ''))
    for a, b in [('abc', 'abd'), ('abc', 'abc'), ('b', 'abc'), ('', 'a'), ('ab', 'abc'),
                 ('é', 'e'), ('zz', 'ÿ')]:
        print(compare(a, b))
    print(contains('hello world', 'o w'), contains('hello', 'z'), contains('abc', ''))
    print(contains('naïve café', 'é'))
    for s in ['', 'a', 'hello', 'naïve', '日本語テキスト']:
        show(length(s))
    for i in [0, 2, -1, -5]:
        show(char_at('hello', i))
    show(char_at('日本語', 1))
    show(char_at('naïve', 2))
    for i in [5, -6, 100]:
        try:
            char_at('hello', i)
        except IndexError as e:
            print('IndexError', e)
    print(slices('abcdefgh'))
    print(slices('日本語テキスト'))
    print(slices(''))
    show(str_of_int(0))
    show(str_of_int(12345))
    show(str_of_int(-9223372036854775807))
    show(fstring(3, 'box'))
    show(fstring(-12, '日本'))
    show(interpolate('linear', 3.0))
    show(interpolate('square', 3.0))
    show(interpolate('cubic', 3.0))
    show(count_char('mississippi', 's'))
    show(build(12))
    printer('hi', 3)
    printer('日本', -1)
    show(truth(''))
    show(truth('x'))
    print(iterate('abc'))
    print(iterate('日本語'))
    print(iterate(''))
    print(repeat('ab', 3))
    print(repeat('é', 2))
    for s, t in [('hello world', 'o'), ('hello', 'he'), ('hello', 'lo'), ('naïve café', 'é'),
                 ('abc', ''), ('', 'a'), ('ab', 'abc')]:
        print(methods(s, t))
    print(unicode_eq_other('a'))
