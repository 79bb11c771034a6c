#!/usr/bin/env python3
"""Generators: a prime generator summed by compiled code (inlined into the loop under numjit,
a state machine under Numba) and consumed from Python (a lazy generator object under both:
numjit's is an LLVM coroutine, codegen/genobj.c), timed under Numba 0.56 and numjit in one
process.

  G1  sum of the primes below 200,000, compiled code iterating primes_upto(n)
  G2  the first 5,000 primes taken from Python with next() on an endless generator
  G3  sum() in Python of 1,000,000 values of a counting generator (the cost of one next())

Method as bench/real_programs.py: the same source loaded under real Numba and with numjit as
the `numba` module (benchlib.load_under); answers compared first; the median CPU time
(time.process_time) over --rounds interleaved rounds after a warm-up call; ratios are Numba's
time over numjit's (above 1: numjit faster).
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/generators.py [--rounds 5]
"""
import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

PROGRAM = '''
from numba import njit


@njit
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


@njit
def primes_upto(n):
    for k in range(2, n):
        if is_prime(k):
            yield k


@njit
def primes():
    k = 2
    while True:
        if is_prime(k):
            yield k
        k += 1


@njit
def sum_primes(n):
    s = 0
    for p in primes_upto(n):
        s += p
    return s


@njit
def counter(n):
    for i in range(n):
        yield i
'''


def g1(m):
    return m.sum_primes(200_000)


def g2(m):
    return sum(itertools.islice(m.primes(), 5_000))


def g3(m):
    return sum(m.counter(1_000_000))


CASES = [("G1 compiled loop over a generator", g1), ("G2 next() from Python, endless", g2),
         ("G3 sum() from Python of 1e6 values", g3)]


def cpu(f, m):
    t = time.process_time()
    f(m)
    return time.process_time() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        nb = load_under(tmp, "numba", PROGRAM, "gens")
        nj = load_under(tmp, "numjit", PROGRAM, "gens")
        print(f"{'case':40s} {'numba s':>10s} {'numjit s':>10s} {'ratio':>7s}")
        for name, f in CASES:
            a, b = f(nb), f(nj)  # warm-up, and the answers agree
            assert a == b, (name, a, b)
            tn, tj = [], []
            for _ in range(args.rounds):
                tn.append(cpu(f, nb))
                tj.append(cpu(f, nj))
            mn, mj = statistics.median(tn), statistics.median(tj)
            print(f"{name:40s} {mn:10.4f} {mj:10.4f} {mn / mj:7.2f}")


if __name__ == "__main__":
    main()
