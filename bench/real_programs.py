#!/usr/bin/env python3
"""Real workloads: twelve programs written the way published Numba code is written (finance,
physics, image, statistics kernels), timed under Numba 0.56 and numjit in one process.

Programs (all @njit, float64):
  R1  Black-Scholes, scalar loop with math.erf        R2  Black-Scholes, array expressions
  R3  Monte Carlo option price (np.random.normal)    R4  n-body step (pairwise forces)
  R5  2-d heat equation, Jacobi stencil sweeps       R6  2-d convolution (5x5 kernel)
  R7  histogram of values (integer bins)              R8  kernel density estimate
  R9  rolling mean (running sum)                      R10 pairwise distance matrix
  R11 softmax of each row (temperature)               R12 standardizing each row (z-scores)

Method.  The same source text is loaded twice, once under real Numba and once with numjit as
the `numba` module (benchlib.load_under).  The answers are compared first.  Compile time is
the first call minus a steady call, in CPU seconds of the process (time.process_time: on a
shared machine wall time mostly measures the wait for a core).  Run time is the median over
--rounds interleaved rounds (each round times Numba's and numjit's call one after the other),
also in CPU time.  Ratios are Numba's time over numjit's (above 1: numjit faster).
Output: a table and a text chart on stdout, bench/results/real_programs.{txt,json}, and
with --plot docs/real_programs.svg (bench/plot.py's bars).
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/real_programs.py [--rounds 7] [--plot]
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

PROGRAMS = '''
import math
import numpy as np
from numba import njit


@njit
def cnd(d):
    return 0.5 * (1.0 + math.erf(d / math.sqrt(2.0)))


@njit
def black_scholes_loop(s, k, t, r, v, call, put):
    for i in range(s.shape[0]):
        sqt = math.sqrt(t[i])
        d1 = (math.log(s[i] / k[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqt)
        d2 = d1 - v * sqt
        e = math.exp(-r * t[i])
        call[i] = s[i] * cnd(d1) - k[i] * e * cnd(d2)
        put[i] = k[i] * e * cnd(-d2) - s[i] * cnd(-d1)


@njit
def black_scholes_arrays(s, k, t, r, v):
    sqt = np.sqrt(t)
    d1 = (np.log(s / k) + (r + 0.5 * v * v) * t) / (v * sqt)
    d2 = d1 - v * sqt
    e = np.exp(-r * t)
    return np.sum(s * d1 - k * e * d2)


@njit
def monte_carlo_call(s0, k, r, v, t, n):
    np.random.seed(42)
    drift = (r - 0.5 * v * v) * t
    vol = v * math.sqrt(t)
    acc = 0.0
    for i in range(n):
        st = s0 * math.exp(drift + vol * np.random.normal(0.0, 1.0))
        if st > k:
            acc += st - k
    return math.exp(-r * t) * acc / n


@njit
def nbody_step(pos, vel, mass, dt, steps):
    n = pos.shape[0]
    for _ in range(steps):
        acc = np.zeros((n, 3))
        for i in range(n):
            for j in range(n):
                if i != j:
                    dx = pos[j, 0] - pos[i, 0]
                    dy = pos[j, 1] - pos[i, 1]
                    dz = pos[j, 2] - pos[i, 2]
                    d2 = dx * dx + dy * dy + dz * dz + 0.01
                    inv = mass[j] / (d2 * math.sqrt(d2))
                    acc[i, 0] += dx * inv
                    acc[i, 1] += dy * inv
                    acc[i, 2] += dz * inv
        for i in range(n):
            for c in range(3):
                vel[i, c] += dt * acc[i, c]
                pos[i, c] += dt * vel[i, c]
    return pos[0, 0]


@njit
def heat(u, steps, alpha):
    n, m = u.shape
    v = u.copy()
    for _ in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1]
                                             + u[i, j + 1] - 4.0 * u[i, j])
        u, v = v, u
    return u


@njit
def conv2d(img, ker):
    h, w = img.shape
    kh, kw = ker.shape
    out = np.zeros((h - kh + 1, w - kw + 1))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            acc = 0.0
            for a in range(kh):
                for b in range(kw):
                    acc += img[i + a, j + b] * ker[a, b]
            out[i, j] = acc
    return out


@njit
def histogram(x, lo, hi, nbins):
    counts = np.zeros(nbins, np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


@njit
def kde(x, points, bw):
    out = np.empty(x.shape[0])
    norm = 1.0 / (math.sqrt(2.0 * math.pi) * bw * points.shape[0])
    for i in range(x.shape[0]):
        d = -(x[i] - points) ** 2 / (2.0 * bw ** 2)
        m = np.max(d)
        out[i] = norm * math.exp(m) * np.sum(np.exp(d - m))
    return out


@njit
def rolling_mean(x, w):
    out = np.empty(x.shape[0] - w + 1)
    s = 0.0
    for i in range(w):
        s += x[i]
    out[0] = s / w
    for i in range(w, x.shape[0]):
        s += x[i] - x[i - w]
        out[i - w + 1] = s / w
    return out


@njit
def softmax_rows(x, temp):
    out = np.empty_like(x)
    for r in range(x.shape[0]):
        m = np.max(x[r] / temp)
        e = np.exp(x[r] / temp - m)
        out[r] = e / np.sum(e)
    return out


@njit
def standardize_rows(x):
    out = np.empty_like(x)
    for r in range(x.shape[0]):
        row = x[r]
        mu = np.mean(row)
        sd = np.sqrt(np.mean((row - mu) ** 2))
        lo = np.min((row - mu) / sd)
        out[r] = (row - mu) / sd - lo
    return out


@njit
def pairwise(x):
    n, d = x.shape
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            acc = 0.0
            for k in range(d):
                t = x[i, k] - x[j, k]
                acc += t * t
            out[i, j] = math.sqrt(acc)
    return out
'''


def inputs():
    rng = np.random.default_rng(7)
    n = 200_000
    s = rng.uniform(10.0, 50.0, n)
    k = rng.uniform(10.0, 50.0, n)
    t = rng.uniform(0.2, 2.0, n)
    call, put = np.empty(n), np.empty(n)
    pos = rng.standard_normal((200, 3))
    vel = np.zeros((200, 3))
    mass = rng.uniform(0.5, 1.5, 200)
    u = np.zeros((300, 300))
    u[140:160, 140:160] = 100.0
    img = rng.standard_normal((400, 400))
    ker = rng.standard_normal((5, 5))
    x = rng.standard_normal(1_000_000)
    pts = rng.standard_normal(3)
    xs = rng.standard_normal(100_000)
    feat = rng.standard_normal((400, 8))
    rows = rng.standard_normal((20_000, 32))
    return {
        "R1 Black-Scholes loop": ("black_scholes_loop", (s, k, t, 0.02, 0.3, call, put), 5),
        "R2 Black-Scholes arrays": ("black_scholes_arrays", (s, k, t, 0.02, 0.3), None),
        "R3 Monte Carlo option": ("monte_carlo_call", (30.0, 32.0, 0.02, 0.3, 1.0, 300_000),
                                  None),
        "R4 n-body": ("nbody_step", (pos, vel, mass, 0.001, 2), None),
        "R5 heat stencil": ("heat", (u, 20, 0.1), None),
        "R6 convolution 2-d": ("conv2d", (img, ker), None),
        "R7 histogram": ("histogram", (x, -4.0, 4.0, 64), None),
        "R8 KDE": ("kde", (xs, pts, 0.5), None),
        "R9 rolling mean": ("rolling_mean", (x, 50), None),
        "R10 pairwise distances": ("pairwise", (feat,), None),
        "R11 softmax of rows": ("softmax_rows", (rows, 0.7), None),
        "R12 standardized rows": ("standardize_rows", (rows,), None),
    }


def fresh(args):
    """Copies of the array arguments (programs like n-body change theirs in place)."""
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def cpu_call(fn, args):
    t0 = time.process_time()
    r = fn(*args)
    return time.process_time() - t0, r


def close(a, b):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-9, atol=1e-12)


def chart(rows, key, width=40):
    """A text bar chart of numjit's speed-up (log scale around 1x)."""
    out = []
    for row in rows:
        r = row[key]
        n = int(round(min(width, max(0.0, (math.log2(r) + 2.0) / 6.0 * width))))
        mark = int(round(2.0 / 6.0 * width))
        bar = "".join("|" if i == mark else ("#" if i < n else " ") for i in range(width))
        out.append(f"  {row['program']:<26} {bar} {r:6.2f}x")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--plot", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    import numba
    import numjit
    tmp = tempfile.mkdtemp(prefix="nj_real_")
    mods = {"numba": load_under(tmp, "numba", PROGRAMS, "real"),
            "numjit": load_under(tmp, "numjit", PROGRAMS, "real")}
    rows = []
    for name, (fname, fargs, result_of) in inputs().items():
        if args.only and args.only not in name:
            continue
        row = {"program": name}
        res = {}
        for lib in ("numba", "numjit"):
            fn = getattr(mods[lib], fname)
            first, r = cpu_call(fn, fresh(fargs))
            steady, _ = cpu_call(fn, fresh(fargs))
            row[f"{lib}_compile"] = max(first - steady, 0.0)
            a = fresh(fargs)
            r = fn(*a)
            # a program that writes into an argument: that argument is its answer
            res[lib] = r if result_of is None else a[result_of]
        ok = close(res["numba"], res["numjit"])
        assert ok or "Monte Carlo" in name, name
        if not ok:  # draws differ only if the generators do: say so rather than time it
            print(f"note: {name}: results differ: {res['numba']} vs {res['numjit']}",
                  file=sys.stderr)
        ts = {"numba": [], "numjit": []}
        for _ in range(args.rounds):
            for lib in ("numba", "numjit"):
                a = fresh(fargs)
                t, _ = cpu_call(getattr(mods[lib], fname), a)
                ts[lib].append(t)
        for lib in ts:
            row[f"{lib}_run"] = statistics.median(ts[lib])
        row["run_speedup"] = row["numba_run"] / row["numjit_run"]
        row["compile_ratio"] = row["numjit_compile"] / max(row["numba_compile"], 1e-9)
        rows.append(row)
        print(f"  {name}: run {row['run_speedup']:.2f}x, compile "
              f"{row['numjit_compile'] * 1e3:.0f} vs {row['numba_compile'] * 1e3:.0f} ms",
              file=sys.stderr, flush=True)
    geo = math.exp(statistics.mean(math.log(r["run_speedup"]) for r in rows))
    lines = [f"Numba {numba.__version__}, numjit {numjit.library_version()}, NumPy "
             f"{np.__version__}; CPU milliseconds (run: median of {args.rounds} interleaved "
             "rounds; compile: first call minus a steady call)",
             f"{'program':<26}{'numba run':>11}{'numjit run':>12}{'speed-up':>10}"
             f"{'numba comp':>12}{'numjit comp':>13}{'comp ratio':>12}"]
    for r in rows:
        lines.append(f"{r['program']:<26}{r['numba_run'] * 1e3:>11.2f}"
                     f"{r['numjit_run'] * 1e3:>12.2f}{r['run_speedup']:>9.2f}x"
                     f"{r['numba_compile'] * 1e3:>12.1f}{r['numjit_compile'] * 1e3:>13.1f}"
                     f"{r['compile_ratio']:>12.3f}")
    lines.append(f"geometric mean of the run-time speed-ups: {geo:.2f}x")
    lines.append("")
    lines.append("numjit's run-time speed-up over Numba (log scale; | marks 1.0x):")
    lines += chart(rows, "run_speedup")
    text = "\n".join(lines)
    print(text)
    if not args.only:
        os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
        with open(os.path.join(HERE, "results", "real_programs.txt"), "w") as fh:
            fh.write(text + "\n")
        with open(os.path.join(HERE, "results", "real_programs.json"), "w") as fh:
            json.dump({"rows": rows, "geomean": geo}, fh, indent=1)
    if args.plot:  # bench/plot.py's SVG bars: run time of each program, Numba and numjit
        from plot import render
        bars = [{"group": r["program"], "impl": lib, "value": r[f"{lib}_run"] * 1e3}
                for r in rows for lib in ("numba", "numjit")]
        with open(os.path.join(HERE, "..", "docs", "real_programs.svg"), "w") as fh:
            fh.write(render(bars, "Real programs: run time (CPU ms, median; shorter is faster)",
                            "ms", log=True))

if __name__ == "__main__":
    main()
