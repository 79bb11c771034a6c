#!/usr/bin/env python3
"""CPU ufunc benchmark (issue 3): numjit's @vectorize/@guvectorize/@njit against NumPy,
numexpr, Numba and a plain C loop, side by side in one run.

Workloads (all float64 unless named; elementwise ones write into preallocated out= arrays
wherever the implementation can, so every column measures the same work):
  W1 2*(x-y)/(x+y) f32 and f64 · W2 sin(x)**2 + cos(x)**2 · W3 a*x + y f32 ·
  W4 a degree-4 polynomial · W5 row-wise dot gufunc "(k),(k)->()", k = 64 ·
  W6 a 2-D 4-point stencil as an @njit loop;  n = 1e3, 1e5, 1e7 elements.
Implementations: numpy; numexpr on 1 thread and on all; Numba @vectorize cpu / parallel
(@guvectorize for W5, @njit for W6); numjit the same; the C loop (bench/c_loops.c, built here
with cc -O3 -march=native) on 1 thread and on all, the bandwidth limit.
Also: the machine's cores and whether 2 threads really run on 2 cores (a CPU-bound C loop
timed on 1 and on 2 threads), first-call compile time of a two-signature @vectorize in a fresh
process (numjit vs Numba), and per-call overhead on 1-element arrays.

Times are medians of repeated runs (more repetitions for small n).  Output: a table on
stdout, bench/results/cpu_ufunc.json (all rows), and with --plot docs/cpu_ufunc.svg.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/cpu_ufunc.py [--quick] [--plot]
"""
import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NCORES = os.cpu_count() or 1
# Each timed batch is a pause and then calls back to back: the median per-call time of
# batches long enough that a pool's first call after the pause (its threads asleep) weighs
# little.  The pause lets the previous implementation's threads stop polling; the threads'
# CPU time after one call (/proc/self/task/*/schedstat) shows Numba's OpenMP workers polling
# about 8 ms and numjit's 5 ms, so a pause this short does not always free the second core:
# a longer one (10 ms, tried) leaves every pool asleep at every batch and Numba's first call
# then takes milliseconds, which no steady program sees.
PAUSE = 0.003

WORKLOADS = '''
import math
import numpy as np
import numba
from numba import vectorize, guvectorize, njit


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target=TARGET)
def w1(x, y):
    return 2 * (x - y) / (x + y)


@vectorize(["float64(float64)"], target=TARGET)
def w2(x):
    return math.sin(x) ** 2 + math.cos(x) ** 2


@vectorize(["float32(float32, float32, float32)"], target=TARGET)
def w3(a, x, y):
    return a * x + y


@vectorize(["float64(float64)"], target=TARGET)
def w4(x):
    return (((0.5 * x - 1.25) * x + 2.0) * x - 3.5) * x + 1.0


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(k),(k)->()", target=TARGET)
def w5(x, y, out):
    s = 0.0
    for j in range(x.shape[0]):
        s += x[j] * y[j]
    out[0] = s


@njit
def w6(a, out):
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
'''


def load_workloads(tmpdir, lib, target):
    """The workload module compiled by `lib` ('numba' or 'numjit') for target."""
    return load_under(tmpdir, lib, WORKLOADS.replace("TARGET", repr(target)), f"wl_{target}")


def build_c(tmpdir):
    so = os.path.join(tmpdir, "c_loops.so")
    subprocess.run(["cc", "-O3", "-march=native", "-shared", "-fPIC", "-o", so,
                    os.path.join(HERE, "c_loops.c"), "-lm", "-pthread"], check=True)
    lib = ctypes.CDLL(so)
    P, L, I, F = ctypes.c_void_p, ctypes.c_long, ctypes.c_int, ctypes.c_float
    sigs = {"c_w1_f64": [P, P, P, L, I], "c_w1_f32": [P, P, P, L, I], "c_w2_f64": [P, P, L, I],
            "c_w3_f32": [F, P, P, P, L, I], "c_w4_f64": [P, P, L, I],
            "c_w5_f64": [P, P, P, L, L, I], "c_w6_f64": [P, P, L, L, I], "c_spin": [L, I]}
    for name, args in sigs.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = None
    return lib


def timeit(fn, n):
    """Median seconds of one call: repetitions scaled to the problem size."""
    return timeit_all({"f": (None, fn)}, n)["f"]


def timeit_all(thunks, n):
    """{name: median seconds of one call} for {name: (setup or None, fn)}, interleaved: each
    round times every implementation once (setup, e.g. a thread count, runs untimed before
    its batch), so that a machine slowing down or speeding up mid-run moves every column
    alike instead of favouring whichever ran in the quiet moment."""
    inner = 200 if n <= 1e3 else 100 if n <= 1e5 else 1
    reps = 9 if n <= 1e5 else 5
    for setup, fn in thunks.values():
        if setup:
            setup()
        fn()
    ts = {name: [] for name in thunks}
    for _ in range(reps):
        for name, (setup, fn) in thunks.items():
            if setup:
                setup()
            # a pause first: the worker threads of the previous implementation's pool
            # (numexpr, Numba's, numjit's) stop spinning and free the second core (PAUSE)
            time.sleep(PAUSE)
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            ts[name].append((time.perf_counter() - t0) / inner)
    return {name: statistics.median(v) for name, v in ts.items()}


def concurrency(c):
    iters = 60_000_000
    t1 = timeit(lambda: c.c_spin(iters, 1), 1e7)
    t2 = timeit(lambda: c.c_spin(iters, 2), 1e7)
    return t1, t2


def cases(n, m, c, ne):
    """{workload: {impl: thunk}} for problem size n (m: dict of workload modules)."""
    rng = np.random.default_rng(1)
    x = rng.random(n) + 1.0
    y = rng.random(n) + 2.0
    o = np.empty(n)
    x32, y32, o32 = x.astype(np.float32), y.astype(np.float32), np.empty(n, np.float32)
    a32 = np.float32(2.5)
    k = 64
    rows = max(n // k, 1)
    X, Y, R = x[:rows * k].reshape(rows, k), y[:rows * k].reshape(rows, k), np.empty(rows)
    side = max(int(round(n ** 0.5)), 3)
    G = rng.random((side, side))
    GO = np.zeros_like(G)
    ptr = lambda arr: arr.ctypes.data
    T = {}

    def ne_run(expr, out, local):
        return lambda: ne.evaluate(expr, local_dict=local, out=out)

    T["W1 f64"] = {
        "out": o,
        "numpy": lambda: np.divide(2 * (x - y), x + y, out=o),
        "numexpr": ne_run("2*(x-y)/(x+y)", o, {"x": x, "y": y}),
        "C": lambda t: c.c_w1_f64(ptr(x), ptr(y), ptr(o), n, t),
        "vec": lambda f: (lambda: f.w1(x, y, o)),
    }
    T["W1 f32"] = {
        "out": o32,
        "numpy": lambda: np.divide(np.float32(2) * (x32 - y32), x32 + y32, out=o32),
        "numexpr": ne_run("2*(x-y)/(x+y)", o32, {"x": x32, "y": y32}),
        "C": lambda t: c.c_w1_f32(ptr(x32), ptr(y32), ptr(o32), n, t),
        "vec": lambda f: (lambda: f.w1(x32, y32, o32)),
    }
    T["W2 f64"] = {
        "out": o,
        "numpy": lambda: np.add(np.sin(x) ** 2, np.cos(x) ** 2, out=o),
        "numexpr": ne_run("sin(x)**2 + cos(x)**2", o, {"x": x}),
        "C": lambda t: c.c_w2_f64(ptr(x), ptr(o), n, t),
        "vec": lambda f: (lambda: f.w2(x, o)),
    }
    T["W3 f32"] = {
        "out": o32,
        "numpy": lambda: np.add(a32 * x32, y32, out=o32),
        "numexpr": ne_run("a*x + y", o32, {"a": a32, "x": x32, "y": y32}),
        "C": lambda t: c.c_w3_f32(float(a32), ptr(x32), ptr(y32), ptr(o32), n, t),
        "vec": lambda f: (lambda: f.w3(a32, x32, y32, o32)),
    }
    T["W4 f64"] = {
        "out": o,
        "numpy": lambda: np.add((((0.5 * x - 1.25) * x + 2.0) * x - 3.5) * x, 1.0, out=o),
        "numexpr": ne_run("(((0.5*x - 1.25)*x + 2.0)*x - 3.5)*x + 1.0", o, {"x": x}),
        "C": lambda t: c.c_w4_f64(ptr(x), ptr(o), n, t),
        "vec": lambda f: (lambda: f.w4(x, o)),
    }
    T["W5 dot k=64"] = {
        "out": R,
        "numpy": lambda: np.einsum("ij,ij->i", X, Y, out=R),
        "numexpr": ne_run("sum(x*y, axis=1)", None, {"x": X, "y": Y}),
        "C": lambda t: c.c_w5_f64(ptr(X), ptr(Y), ptr(R), rows, k, t),
        "vec": lambda f: (lambda: f.w5(X, Y, R)),
    }
    T["W6 stencil"] = {
        "out": GO,
        "numpy": lambda: np.multiply(0.25, G[:-2, 1:-1] + G[2:, 1:-1] + G[1:-1, :-2] +
                                     G[1:-1, 2:], out=GO[1:-1, 1:-1]),
        "numexpr": ne_run("0.25*(a+b+c+d)", GO[1:-1, 1:-1],
                          {"a": G[:-2, 1:-1], "b": G[2:, 1:-1], "c": G[1:-1, :-2],
                           "d": G[1:-1, 2:]}),
        "C": lambda t: c.c_w6_f64(ptr(G), ptr(GO), side, side, t),
        "njit": lambda f: (lambda: f.w6(G, GO)),
    }
    return T


def first_call(lib, reps):
    """Seconds from decoration to the end of the first calls of both signatures, in a fresh
    process (import not counted), median of reps; a new file each time (no cache)."""
    prog = textwrap.dedent('''
        import sys, time, importlib.util
        import numpy as np
        if sys.argv[1] == "numjit":
            import numjit
            numjit.install_as_numba()
        import numba
        x = np.ones(4); x32 = np.ones(4, np.float32)
        t0 = time.perf_counter()
        spec = importlib.util.spec_from_file_location("m", sys.argv[2])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.f(x, x); mod.f(x32, x32)
        print(time.perf_counter() - t0)
    ''')
    src = ('from numba import vectorize\n\n'
           '@vectorize(["float64(float64, float64)", "float32(float32, float32)"])\n'
           'def f(x, y):\n    return 2 * (x - y) / (x + y) + {salt}\n')
    out = []
    with tempfile.TemporaryDirectory() as d:
        runner = os.path.join(d, "runner.py")
        with open(runner, "w") as fh:
            fh.write(prog)
        env = dict(os.environ, NUMJIT_CACHE_DIR=os.path.join(d, "cache"),
                   NUMBA_CACHE_DIR=os.path.join(d, "nbcache"))
        for r in range(reps):
            path = os.path.join(d, f"f{r}.py")
            with open(path, "w") as fh:
                fh.write(src.format(salt=r))
            res = subprocess.run([sys.executable, runner, lib, path], capture_output=True,
                                 text=True, env=env)
            if res.returncode != 0:
                raise RuntimeError(res.stderr)
            out.append(float(res.stdout.strip().splitlines()[-1]))
    return statistics.median(out)


def per_call(m_nj, m_nb):
    a = np.ones(1)
    b = np.ones(1)
    o = np.empty(1)
    n = 100_000

    fns = {"base": lambda: None,
           "numjit": lambda: m_nj.w1(a, b), "numba": lambda: m_nb.w1(a, b),
           "np.add": lambda: np.add(a, b), "np.empty": lambda: np.empty(1),
           "numjit out=": lambda: m_nj.w1(a, b, o), "numba out=": lambda: m_nb.w1(a, b, o),
           "np.add out=": lambda: np.add(a, b, o)}
    ts = {k: [] for k in fns}
    for f in fns.values():
        f()
    for _ in range(9):  # interleaved rounds, as timeit_all
        for k, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            ts[k].append((time.perf_counter() - t0) / n)
    med = {k: statistics.median(v) for k, v in ts.items()}
    return {k: (v - med["base"]) * 1e9 for k, v in med.items() if k != "base"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="n = 1e3, 1e5 only")
    ap.add_argument("--plot", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "cpu_ufunc.json"))
    args = ap.parse_args()

    import numba
    import numexpr as ne
    import numjit

    tmp = tempfile.mkdtemp(prefix="nj_bench_")
    c = build_c(tmp)
    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    t1, t2 = concurrency(c)
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(l.split(":", 1)[1].strip() for l in fh if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    conc = t1 / t2 * 2
    say(f"machine: {cpu}, {NCORES} cores; NumPy {np.__version__}, numexpr {ne.__version__}, "
        f"Numba {numba.__version__}, numjit {numjit.library_version()}")
    say(f"2-thread check: a CPU-bound C loop takes {t1 * 1e3:.1f} ms on 1 thread and "
        f"{t2 * 1e3:.1f} ms per thread-load on 2 threads: 2 threads give {conc:.2f}x "
        f"({'two real cores' if conc > 1.7 else 'NOT two full cores'})")
    nthreads = NCORES
    say(f"threads for 'all': {nthreads} (numjit.get_num_threads() = "
        f"{numjit.get_num_threads()}, Numba {numba.config.NUMBA_NUM_THREADS})")

    m = {("numba", "cpu"): load_workloads(tmp, "numba", "cpu"),
         ("numba", "parallel"): load_workloads(tmp, "numba", "parallel"),
         ("numjit", "cpu"): load_workloads(tmp, "numjit", "cpu"),
         ("numjit", "parallel"): load_workloads(tmp, "numjit", "parallel")}

    rows = []
    sizes = [1000, 100_000] if args.quick else [1000, 100_000, 10_000_000]
    impls = ["numpy", "numexpr 1t", f"numexpr {nthreads}t", "numba cpu", "numba parallel",
             "numjit cpu", "numjit parallel", "C 1t", f"C {nthreads}t"]
    say()
    say("time per call in microseconds (median); in brackets: numjit's speed-up over the "
        "best peer (NumPy, numexpr, Numba)")
    hdr = f"{'workload':<14}{'n':>9} " + "".join(f"{i:>16}" for i in impls)
    say(hdr)
    for n in sizes:
        T = cases(n, m, c, ne)
        for wl, d in T.items():
            th = {"numpy": (None, d["numpy"])}
            for t in (1, nthreads):
                th[f"numexpr {t}t"] = (lambda t=t: ne.set_num_threads(t), d["numexpr"])
                th[f"C {t}t"] = (None, lambda t=t: d["C"](t))
            key = "vec" if "vec" in d else "njit"
            for lib in ("numba", "numjit"):
                for tgt in ("cpu", "parallel"):
                    if key == "njit" and tgt == "parallel":
                        continue
                    th[f"{lib} {tgt}"] = (None, d[key](m[(lib, tgt)]))
            res = timeit_all(th, n)
            ne.set_num_threads(nthreads)
            if n == sizes[0]:   # numjit's results must be Numba's (and the C loop's)
                outs = []
                for run in (d[key](m[("numba", "cpu")]), d[key](m[("numjit", "cpu")]),
                            lambda: d["C"](1)):
                    d["out"][...] = 0
                    run()
                    outs.append(d["out"].copy())
                tol = 1e-5 if d["out"].dtype == np.float32 else 1e-12
                for got in outs[1:]:
                    if not np.allclose(got, outs[0], rtol=tol, atol=0):
                        say(f"MISMATCH in {wl}: max diff {np.max(np.abs(got - outs[0]))}")
            row = f"{wl:<14}{n:>9.0e} " + "".join(
                f"{res[i] * 1e6:>16.2f}" if i in res else f"{'-':>16}" for i in impls)
            peers = [res[i] for i in res if not i.startswith(("numjit", "C "))]
            best_nj = min(res[i] for i in res if i.startswith("numjit"))
            say(row + f"   [{min(peers) / best_nj:.2f}x]")
            for i, v in res.items():
                rows.append({"workload": wl, "n": n, "impl": i, "seconds": v})

    say()
    fc_nj = first_call("numjit", 5)
    fc_nb = first_call("numba", 3)
    say(f"first call of a two-signature @vectorize (decorate + call both signatures, fresh "
        f"process, no cache): numjit {fc_nj * 1e3:.1f} ms, Numba {fc_nb * 1e3:.1f} ms "
        f"({fc_nb / fc_nj:.1f}x)")
    pc = per_call(m[("numjit", "cpu")], m[("numba", "cpu")])
    say("per-call overhead, 1-element float64 arrays, W1 (ns): " +
        ", ".join(f"{k} {v:.0f}" for k, v in pc.items()))

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    meta = {"cpu": cpu, "cores": NCORES, "two_thread_speedup": conc,
            "first_call_ms": {"numjit": fc_nj * 1e3, "numba": fc_nb * 1e3},
            "per_call_ns": pc}
    with open(args.out, "w") as fh:
        json.dump({"meta": meta, "results": rows,
                   "rows": [{"group": f"{r['workload']} n={r['n']:.0e}", "impl": r["impl"],
                             "value": r["n"] / r["seconds"] / 1e6}
                            for r in rows if r["n"] == max(sizes)]}, fh, indent=1)
    with open(os.path.splitext(args.out)[0] + ".txt", "w") as fh:
        fh.write("\n".join(lines) + "\n")
    if args.plot:
        sys.path.insert(0, HERE)
        import plot
        with open(args.out) as fh:
            prow = json.load(fh)["rows"]
        svg = plot.render(prow, f"CPU ufuncs, n = {max(sizes):.0e}: million elements per "
                          "second (higher is better)", "M/s", log=True)
        with open(os.path.join(ROOT, "docs", "cpu_ufunc.svg"), "w") as fh:
            fh.write(svg)


if __name__ == "__main__":
    main()
