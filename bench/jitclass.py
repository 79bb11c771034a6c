#!/usr/bin/env python3
"""jitclass instances in compiled code: numjit against Numba 0.56, side by side in one process.

Workloads (in the style of numba-benchmark's jitclass benchmark):
  make      make 1e5 instances in compiled code (the compiled __init__ runs for each), call
            two methods on each and drop it: one allocation and one release per instance
  methods   one instance made in Python, 1e5 method calls on it in compiled code
  box       make an instance in compiled code and return it to Python, 1e4 calls from
            Python (the cost of a call that boxes an instance), ms per 1e4 calls
Each figure is the median of 9 interleaved rounds (after a warm-up call that compiles), in
milliseconds; the last column is Numba / numjit.  Results are compared with Numba's first.
Output: stdout and bench/results/jitclass.txt.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/jitclass.py
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = '''
from numba import njit, float64, int64
from numba import experimental   # the `numba` this text is loaded under (benchlib)
jitclass = experimental.jitclass


@jitclass([("x", float64), ("v", float64), ("steps", int64)])
class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.steps = 0

    def step(self, dt):
        self.x += self.v * dt
        self.v -= 0.5 * self.x * dt
        self.steps += 1

    def energy(self):
        return 0.5 * (self.v * self.v + self.x * self.x)


@njit
def make(n):
    s = 0.0
    for i in range(n):
        p = Particle(i * 1e-5, 1.0)
        p.step(0.01)
        s += p.energy()
    return s


@njit
def methods(p, n):
    s = 0.0
    for i in range(n):
        p.step(1e-3)
        s += p.energy()
    return s


@njit
def one(x):
    return Particle(x, 0.0)


def box(k):
    s = 0.0
    for i in range(k):
        s += one(1.0).x
    return s
'''


def main():
    import numba
    tmp = tempfile.mkdtemp(prefix="nj_jc_")
    nb = load_under(tmp, "numba", WORKLOADS, "jc")   # before numjit names numba's submodules
    import numjit
    nj = load_under(tmp, "numjit", WORKLOADS, "jc")
    n = 100_000
    cases = {
        "make": lambda m: m.make(n),
        "methods": lambda m: m.methods(m.Particle(0.1, 1.0), n),
        "box": lambda m: m.box(10_000),
    }
    lines = [f"Numba {numba.__version__}, numjit {numjit.library_version()}; milliseconds "
             f"per call (median of 9 interleaved rounds)",
             f"{'workload':<10}{'numba':>10}{'numjit':>10}   numba/numjit"]
    for name, fn in cases.items():
        r_nb, r_nj = fn(nb), fn(nj)
        assert abs(r_nb - r_nj) <= 1e-9 * max(1.0, abs(r_nb)), (name, r_nb, r_nj)
        ts = {"numba": [], "numjit": []}
        for _ in range(9):
            for k, m in (("numba", nb), ("numjit", nj)):
                t0 = time.perf_counter()
                fn(m)
                ts[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) * 1e3 for k, v in ts.items()}
        lines.append(f"{name:<10}{med['numba']:>10.3f}{med['numjit']:>10.3f}"
                     f"   {med['numba'] / med['numjit']:.2f}x")
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "jitclass.txt"), "w") as fh:
        fh.write(text + "\n")


if __name__ == "__main__":
    main()
