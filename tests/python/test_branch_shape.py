"""The shape of the machine code where LLVM's defaults cost speed (codegen/cpu.c's options).

A branch on two cheap comparisons, `if 0 <= b < n:`, stays two conditional jumps, as the LLVM
of Numba 0.56 emits it.  LLVM 19 by default merges them into setcc/and/test and one jump;
in a histogram's loop (bench/real_programs.py R7) that ran 1.4x slower than Numba on an AMD
machine, the 8-bit results of setcc merging into registers across iterations.

The SLP vectorizer does not pack a complex number's {re, im} pair in a loop around a libm call
(a gain of 1 or 2 by its cost model): packed, the pair went through the stack around each hypot
call and through shuffles, and the Mandelbrot @vectorize of bench/complex.py ran 0.95x Numba."""
import re

import numpy as np

import numjit


@numjit.njit
def escape_time(c, maxit):
    z = 0j
    n = 0
    while n < maxit and abs(z) <= 2.0:
        z = z * z + c
        n += 1
    return n


@numjit.njit
def julia_time(z, c, maxit):
    n = 0
    while n < maxit and abs(z) <= 2.0:
        z = z * z + c
        n += 1
    return n


@numjit.njit
def count_in_range(x, lo, scale, counts):
    n = counts.shape[0]
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < n:
            counts[b] += 1


def test_chained_comparison_branches_twice():
    x = np.linspace(-5.0, 5.0, 101)
    counts = np.zeros(8, np.int64)
    count_in_range(x, -4.0, 1.0, counts)
    want = np.zeros(8, np.int64)
    for v in x:
        b = int((v + 4.0) * 1.0)
        if 0 <= b < 8:
            want[b] += 1
    assert counts.tolist() == want.tolist()
    asm = next(iter(count_in_range.inspect_asm().values()))
    # the loop's test of b: no flag materialized into a byte register and tested again
    assert not re.search(r"\bset(ns|s|g|ge|l|le)\s", asm), asm


def test_complex_pair_around_a_libm_call_stays_scalar():
    assert [escape_time(c, 50) for c in (0j, 1 + 1j, -0.75 + 0.1j, 0.3 - 0.5j)] == [50, 2, 33, 50]
    asm = next(iter(escape_time.inspect_asm().values()))
    assert "hypot" in asm
    assert not re.search(r"\bv(mulpd|addpd|subpd|shufpd|blendpd|movddup)\b", asm), asm
    # the same loop with z an argument (the Julia set): a gain of 2 by the cost model
    assert julia_time(0.1 + 0.1j, -0.8 + 0.156j, 50) == 50
    assert julia_time(1.5 + 1.5j, -0.8 + 0.156j, 50) == 0
    asm = next(iter(julia_time.inspect_asm().values()))
    assert not re.search(r"\bv(mulpd|addpd|subpd|shufpd|blendpd|movddup|unpcklpd)\b", asm), asm
