"""The machine code's branches (codegen/cpu.c's LLVM options).

A branch on two cheap comparisons, `if 0 <= b < n:`, stays two conditional jumps, as the LLVM
of Numba 0.56 emits it.  LLVM 19 by default merges them into setcc/and/test and one jump;
in a histogram's loop (bench/real_programs.py R7) that ran 1.4x slower than Numba on an AMD
machine, the 8-bit results of setcc merging into registers across iterations."""
import re

import numpy as np

import numjit


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
