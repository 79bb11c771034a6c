"""bench/dask_ufunc.py — examples/dask_numjit.py under numjit and under Numba, on the same
Dask cluster layout: a LocalCluster of worker processes (one thread each) started afresh for
every run, or a running cluster given with --address (both programs then share it).

    PYTHONPATH=build/python /usr/bin/python3 bench/dask_ufunc.py [--elements 2e7] [--rounds 2]

Each run is a new Python process (the example, --numba for Numba) with empty compile caches
(NUMJIT_CACHE_DIR and NUMBA_CACHE_DIR in a fresh temporary directory), so the figures include
every compile.  Reported per run: compile time summed over the workers (each worker's first
call of every function), run time of the Dask work, and the whole process's wall time
(imports, cluster start, compiles, work, shutdown).  Output: bench/results/dask_ufunc.txt.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(os.path.dirname(HERE), "examples", "dask_numjit.py")


def run(lib, args):
    with tempfile.TemporaryDirectory() as d:
        path = os.pathsep.join(os.path.abspath(p) for p in
                               os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
        env = dict(os.environ, NUMJIT_CACHE_DIR=os.path.join(d, "nj"),
                   NUMBA_CACHE_DIR=os.path.join(d, "nb"), PYTHONPATH=path)
        cmd = [sys.executable, EXAMPLE, "--elements", str(args.elements), "--chunk",
               str(args.chunk), "--workers", str(args.workers), "--memory-limit",
               args.memory_limit] + (["--address", args.address] if args.address else []) + (
               ["--numba"] if lib == "numba" else [])
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=d, timeout=1800)
        wall = time.perf_counter() - t
    if r.returncode != 0 or "results match NumPy" not in r.stdout:
        raise SystemExit(f"{lib} run failed:\n{r.stdout}\n{r.stderr[-3000:]}")
    m = re.search(r"compile \(first calls, summed over workers\): ([\d.]+) s; .* run ([\d.]+) s",
                  r.stdout)
    return float(m.group(1)), float(m.group(2)), wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=float, default=2e7)
    ap.add_argument("--chunk", type=float, default=1e6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="1GB")
    ap.add_argument("--address")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "dask_ufunc.txt"))
    args = ap.parse_args()
    res = {"numjit": [], "numba": []}
    for _ in range(args.rounds):       # interleaved, so load changes hit both alike
        for lib in ("numjit", "numba"):
            res[lib].append(run(lib, args))
    lines = [f"examples/dask_numjit.py, {args.elements:.0e} float64 in chunks of "
             f"{args.chunk:.0e}, {args.workers} workers x 1 thread, memory limit "
             f"{args.memory_limit}; {args.rounds} rounds, medians (seconds):",
             f"{'':8} {'compile (sum over workers)':>28} {'run':>8} {'process wall':>14}"]
    med = {}
    for lib, rows in res.items():
        med[lib] = [statistics.median(c) for c in zip(*rows)]
        lines.append(f"{lib:8} {med[lib][0]:28.3f} {med[lib][1]:8.3f} {med[lib][2]:14.3f}")
    lines.append("Numba / numjit: compile {:.1f}x, run {:.2f}x, end to end {:.2f}x".format(
        *(med["numba"][i] / med["numjit"][i] for i in range(3))))
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        fh.write(text + "\n")


if __name__ == "__main__":
    main()
