#!/usr/bin/env python3
"""Parallel loops: numjit's @njit(parallel=True) + prange against Numba's, and both serial.

Workloads (float64): P1 a reduction, s += sqrt(x*x + 1); P2 a min/max pair of reductions;
P3 row norms of an (n/100, 100) matrix written into out[i] (a serial inner loop per row).
For each n in 1e3, 1e5, 1e7 (--quick: 1e3, 1e5, 1e6): the best time per call (the cores here
are shared with other work) of Numba serial (@njit), Numba parallel=True, numjit serial and
numjit parallel=True, after a warm-up call that compiles.  Each implementation runs in a
process of its own: Numba's OpenMP threads spin on the cores for a while after each call and
would slow whatever runs next.  Output: a table on stdout and bench/results/prange.{txt,json}.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/prange.py [--quick]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = '''
import math
import numpy as np
from MODULE import njit, prange


@njit(parallel=PARALLEL)
def p1(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += math.sqrt(a[i] * a[i] + 1.0)
    return s


@njit(parallel=PARALLEL)
def p2(a):
    lo = np.inf
    hi = -np.inf
    for i in prange(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return hi - lo


@njit(parallel=PARALLEL)
def p3(m, out):
    for i in prange(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * m[i, j]
        out[i] = math.sqrt(acc)
'''


def load(tmp, name, module, parallel):
    path = os.path.join(tmp, name + ".py")
    with open(path, "w") as f:
        f.write(WORKLOADS.replace("MODULE", module).replace("PARALLEL", str(parallel)))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def timeit(fn, args, n):
    fn(*args)  # compile
    reps = 200 if n <= 1e3 else 30 if n <= 1e5 else 7
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return min(times) * 1e6  # best of: the 2 cores here are shared with other work


IMPLS = [("numba serial", "numba", False), ("numba parallel", "numba", True),
         ("numjit serial", "numjit", False), ("numjit parallel", "numjit", True)]


def child(label, sizes):
    """Times one implementation in this process: {workload + n: microseconds}."""
    _, module, parallel = next(i for i in IMPLS if i[0] == label)
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        mod = load(tmp, "bench_prange_" + module, module, parallel)
        rng = np.random.RandomState(0)
        out = {}
        for n in sizes:
            a = rng.rand(int(n))
            m = a.reshape(-1, 100) if n >= 100 else a.reshape(1, -1)
            res = np.empty(m.shape[0])
            for wl, args in (("P1 sum sqrt", (a,)), ("P2 min+max", (a,)),
                             ("P3 row norms", (m, res))):
                out[f"{wl}|{n}"] = timeit(getattr(mod, wl[:2].lower()), args, n)
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    sizes = [1e3, 1e5, 1e6] if opts.quick else [1e3, 1e5, 1e7]
    if opts.child:
        child(opts.child, sizes)
        return
    import numba
    import numjit
    times = {}
    for label, _, _ in IMPLS:  # each in a process of its own: the thread pools never meet
        p = subprocess.run([sys.executable, __file__, "--child", label] +
                           (["--quick"] if opts.quick else []),
                           capture_output=True, text=True, check=True)
        times[label] = json.loads(p.stdout.strip().splitlines()[-1])
    rows = []
    for key in times[IMPLS[0][0]]:
        wl, n = key.split("|")
        rows.append({"workload": wl, "n": float(n), **{l: times[l][key] for l, _, _ in IMPLS}})
    head = (f"machine: {os.cpu_count()} cores; Numba {numba.__version__} "
            f"({numba.config.NUMBA_NUM_THREADS} threads), numjit ({numjit.get_num_threads()} "
            "threads); each implementation in a process of its own")
    lines = [head, "time per call in microseconds (best of several calls); in brackets: "
             "numjit parallel's speed-up over Numba parallel", ""]
    cols = [label for label, _, _ in IMPLS]
    lines.append(f"{'workload':16}{'n':>10}" + "".join(f"{c:>17}" for c in cols))
    for r in rows:
        lines.append(f"{r['workload']:16}{r['n']:>10.0e}" +
                     "".join(f"{r[c]:>17.2f}" for c in cols) +
                     f"   [{r['numba parallel'] / r['numjit parallel']:.2f}x]")
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "prange.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(HERE, "results", "prange.json"), "w") as f:
        json.dump({"header": head, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
