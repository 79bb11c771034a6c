# Generators called from Python run lazily, as Numba's generator objects do: nothing of the
# body runs at the call, each next() runs to the next yield (the generator's prints interleave
# with the caller's), an endless generator is consumed as far as the caller wants, a loop
# broken off resumes where it stopped, next(g, default) at the end, a raise ends the value
# with the exception (raised again by a later next(), as Numba does); yields in nested loops,
# if/else and while loops with break/continue, several yields of values unified to one type,
# arrays made and held across yields, other jitted functions and inlined generators called
# from the body, try/except around a yield, complex and bool values.
import numpy as np
from numba import njit


@njit
def naturals(start):
    i = start
    while True:
        yield i
        i += 1


@njit
def noisy(n):
    print("start", n)
    for i in range(n):
        print("before yield", i)
        yield i * 10
        print("after yield", i)
    print("end")


@njit
def grid(n, m):
    for i in range(n):
        if i % 2 == 1:
            continue
        for j in range(m):
            if j > i:
                break
            yield i * 100 + j


@njit
def collatz(n):
    while True:
        yield n
        if n == 1:
            break
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1


@njit
def mixed(n):
    yield 1
    for i in range(n):
        if i % 3 == 0:
            yield i * 0.5
        elif i % 3 == 1:
            yield -i
        else:
            yield 2.25
    yield 7


@njit
def scaled(x, k):
    return x * k + 1.0


@njit
def evens(n):
    for i in range(n):
        yield 2 * i


@njit
def made_here(n):
    a = np.arange(n) * 3.0
    b = np.ones(n)
    for i in range(n):
        yield scaled(a[i], b[i] * 2.0)
    for e in evens(n):
        yield a.sum() + e


@njit
def reads(a):
    total = 0.0
    for x in a:
        total += x
        yield total


@njit
def guarded(n):
    for i in range(n):
        try:
            yield 10 // (i - 2)
        except Exception:
            yield -1


@njit
def failing(n):
    for i in range(n):
        yield i
    raise ValueError("no more values")


@njit
def rotations(n):
    z = 1.0 + 0.0j
    for i in range(n):
        yield z
        z = z * 1j


@njit
def parity(n):
    for i in range(n):
        yield i % 2 == 0


@njit
def narrow(a):
    for x in a:
        yield x


@njit
def primes():
    n = 2
    while True:
        p = True
        d = 2
        while d * d <= n:
            if n % d == 0:
                p = False
                break
            d += 1
        if p:
            yield n
        n += 1


if __name__ == "__main__":
    g = naturals(5)
    print(type(g).__name__, iter(g) is g)
    print([next(g) for _ in range(4)])
    for x in g:
        if x > 12:
            break
    print("resumed at", next(g))

    g = noisy(3)
    print("called")
    print("got", next(g))
    print("got", next(g))
    for v in g:
        print("loop", v)
    print("again", next(g, "default"))

    print("grid", list(grid(5, 4)))
    print("collatz", list(collatz(6)))
    r = list(mixed(5))
    print("mixed", [type(v).__name__ for v in r], r)
    print("made_here", list(made_here(4)))
    a = np.array([1.5, 2.5, -1.0])
    g = reads(a)
    del a
    print("reads", list(g))
    print("guarded", list(guarded(5)))
    g = failing(2)
    print(next(g), next(g))
    for k in range(2):
        try:
            next(g)
        except ValueError as e:
            print(type(e).__name__, e)
    print("rotations", list(rotations(4)))
    print("parity", list(parity(5)))
    r = list(narrow(np.arange(3, dtype=np.float32)))
    print("float32", [type(v).__name__ for v in r], r)
    r = list(narrow(np.arange(3, dtype=np.uint8)))
    print("uint8", [type(v).__name__ for v in r], r)
    p = primes()
    print("primes", [next(p) for _ in range(10)])
    s = 0
    for q in primes():
        if q > 1000:
            break
        s += q
    print("sum of primes below 1000", s)
    abandoned = [naturals(i) for i in range(100)]
    print([next(x) for x in abandoned][-3:])
    del abandoned
