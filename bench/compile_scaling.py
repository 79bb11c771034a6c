#!/usr/bin/env python3
"""Compile time as functions grow: one @njit function of n independent pieces, compiled by
numjit (and by Numba up to --numba-max) at n = 25, 50, ..., 1600.

Shapes of the generated function (both take a float64 array `a` and write into `out`):
  loops  n independent loops   for i in range(a.shape[0]): s += a[i] * K + K2;  out[k] = s
  arrays n array expressions   t = a * K + b * K2 - a;  out[k] = t[k % len]
The compile time of one function is its first call minus a steady call (which runs the code
only), taken in the same process as CPU time of the process (time.process_time: on a shared,
loaded machine wall time mostly measures the wait for a core); numjit's figure is the median of --reps fresh functions
(a new source file each time, so no cache helps), Numba's of one (it takes seconds).
The ratio columns give the time at n over the time at n/2: linear growth reads 2.0.
Output: a table on stdout and bench/results/compile_scaling.{txt,json}.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/compile_scaling.py [--reps 3]
       [--numba-max 400] [--sizes 25,50,...] [--shapes loops,arrays]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = (25, 50, 100, 200, 400, 800, 1600)


def gen_loops(n):
    """A function of n independent reduction loops, each with its own constants."""
    out = ["import numpy as np", "from numba import njit", "", "", "@njit",
           "def f(a, b, out):"]
    for k in range(n):
        out += [f"    s{k} = 0.0",
                "    for i in range(a.shape[0]):",
                f"        s{k} += a[i] * {k + 1}.5 + b[i] * {k % 7 + 2}.0",
                f"    out[{k}] = s{k}"]
    out.append("    return out[0]")
    return "\n".join(out) + "\n"


def gen_arrays(n):
    """A function of n array expressions, each one's result read back into out."""
    out = ["import numpy as np", "from numba import njit", "", "", "@njit",
           "def f(a, b, out):"]
    for k in range(n):
        out += [f"    t{k} = a * {k + 1}.5 + b * {k % 7 + 2}.0 - a",
                f"    out[{k}] = t{k}[{k} % a.shape[0]]"]
    out.append("    return out[0]")
    return "\n".join(out) + "\n"


GENERATORS = {"loops": gen_loops, "arrays": gen_arrays}


def compile_time(tmp, lib, shape, n, tag):
    """Seconds numjit or Numba takes to compile the n-piece function of `shape`."""
    mod = load_under(tmp, lib, GENERATORS[shape](n), f"cs_{shape}_{n}_{tag}")
    a = np.linspace(0.0, 1.0, 64)
    b = np.linspace(1.0, 2.0, 64)
    out = np.zeros(n)
    t0 = time.process_time()
    mod.f(a, b, out)
    first = time.process_time() - t0
    t0 = time.process_time()
    mod.f(a, b, out)
    steady = time.process_time() - t0
    return first - steady, out.copy()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--numba-max", type=int, default=400)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--shapes", default="loops,arrays")
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    import numjit
    tmp = tempfile.mkdtemp(prefix="nj_cs_")
    compile_time(tmp, "numjit", "loops", 2, "warm")  # LLVM's and the JIT's one-time setup
    rows = []
    for shape in shapes:
        for n in sizes:
            ts = []
            for r in range(args.reps):
                t, res_nj = compile_time(tmp, "numjit", shape, n, f"r{r}")
                ts.append(t)
            row = {"shape": shape, "n": n, "numjit": statistics.median(ts)}
            if n <= args.numba_max:
                row["numba"], res_nb = compile_time(tmp, "numba", shape, n, "nb")
                assert np.allclose(res_nb, res_nj, rtol=1e-12), (shape, n)
            rows.append(row)
            print(f"  {shape} n={n}: numjit {row['numjit'] * 1e3:.1f} ms"
                  + (f", numba {row['numba'] * 1e3:.1f} ms" if "numba" in row else ""),
                  file=sys.stderr, flush=True)
    lines = [f"numjit {numjit.library_version()}; compile CPU seconds (first call minus a "
             f"steady call); numjit median of {args.reps}, Numba one run",
             f"{'shape':<8}{'n':>6}{'numjit s':>11}{'x/doubling':>12}{'numba s':>11}"
             f"{'x/doubling':>12}{'numjit/numba':>14}"]
    prev = {}
    for row in rows:
        p = prev.get(row["shape"])
        g_nj = row["numjit"] / p["numjit"] if p and p["n"] * 2 == row["n"] else None
        g_nb = (row["numba"] / p["numba"]
                if p and p["n"] * 2 == row["n"] and "numba" in row and "numba" in p else None)
        nb = row.get("numba")
        lines.append(f"{row['shape']:<8}{row['n']:>6}{row['numjit']:>11.3f}"
                     + (f"{g_nj:>12.2f}" if g_nj else f"{'-':>12}")
                     + (f"{nb:>11.3f}" if nb else f"{'-':>11}")
                     + (f"{g_nb:>12.2f}" if g_nb else f"{'-':>12}")
                     + (f"{row['numjit'] / nb:>14.3f}" if nb else f"{'-':>14}"))
        prev[row["shape"]] = row
    text = "\n".join(lines)
    print(text)
    if not args.no_save:
        os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
        with open(os.path.join(HERE, "results", "compile_scaling.txt"), "w") as fh:
            fh.write(text + "\n")
        with open(os.path.join(HERE, "results", "compile_scaling.json"), "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
