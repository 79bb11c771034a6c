#!/usr/bin/env python3
"""Compiler-core benchmark: numjit against Numba, side by side in one run.

Measures (medians of repeated runs; ratios computed from numbers taken in the same run):
  * first-call latency of a small @njit function in a fresh Python process (import excluded:
    the clock starts after `import numjit` / `import numba`, as a user experiences the first
    call of a function), numjit vs Numba;
  * the same from C (bench_core_c): fresh context, warm context;
  * per-call overhead from Python of a two-array function, numjit vs Numba;
  * per-call overhead from C (nj_call, and the raw entry).
Usage: bench/run_core.py [--build build] [--reps 9]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SMALL_FUNC = """from numba import njit

@njit
def f(a, b):
    s = 0.0
    for i in range(10):
        s += a * i + b / (i + 1)
    return s
"""

FIRST_CALL = textwrap.dedent('''
    import sys, time, importlib.util
    which, path = sys.argv[1], sys.argv[2]
    if which == "numjit":
        import numjit as numba
        sys.modules["numba"] = numba
    else:
        import numba
    spec = importlib.util.spec_from_file_location("m", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t0 = time.perf_counter()
    mod.f(1.5, 2.5)
    t1 = time.perf_counter()
    print((t1 - t0) * 1e3)
''')

OVERHEAD = textwrap.dedent('''
    import sys, timeit, statistics
    import numpy as np
    which = sys.argv[1]
    if which == "numjit":
        import numjit as numba
    else:
        import numba
    @numba.njit
    def f(a, b):
        return a[0] + b[0]
    a = np.ones(4); b = np.ones(4)
    f(a, b)
    n = 200000
    ts = [timeit.timeit(lambda: f(a, b), number=n) / n for _ in range(7)]
    base = [timeit.timeit(lambda: None, number=n) / n for _ in range(7)]
    print((statistics.median(ts) - statistics.median(base)) * 1e9)
''')


def run_py(code, which, env, *extra):
    # numjit compiles from source files, so the child program is a file, not `-c`
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(code)
    try:
        out = subprocess.run([sys.executable, fh.name, which, *extra], env=env,
                             capture_output=True, text=True)
    finally:
        os.unlink(fh.name)
    if out.returncode:
        sys.exit(f"benchmark child ({which}) failed:\n{out.stderr}")
    return float(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--json", help="write results here")
    args = ap.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(args.build, "python") + os.pathsep + env.get("PYTHONPATH", "")
    res = {"nproc": os.cpu_count()}

    first = {w: [] for w in ("numjit", "numba")}
    with tempfile.TemporaryDirectory() as d:
        for k in range(args.reps):  # interleaved so both see the same machine
            for w in first:
                path = os.path.join(d, f"m_{w}_{k}.py")  # a new file: no cache can help
                with open(path, "w") as fh:
                    fh.write(SMALL_FUNC)
                first[w].append(run_py(FIRST_CALL, w, env, path))
    for w, v in first.items():
        res[f"first_call_ms_{w}"] = statistics.median(v)
    over = {w: statistics.median([run_py(OVERHEAD, w, env) for _ in range(3)])
            for w in ("numjit", "numba")}
    for w, v in over.items():
        res[f"call_overhead_ns_{w}"] = v

    exe = os.path.join(args.build, "bench", "bench_core_c")
    out = subprocess.run([exe, str(args.reps)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        if line.strip():
            name, val, unit = line.split()
            res[f"c_{name}_{unit}"] = float(val)

    print(f"machine: {os.cpu_count()} cores; medians of {args.reps} runs")
    print(f"first call, fresh process:   numjit {res['first_call_ms_numjit']:8.2f} ms   "
          f"numba {res['first_call_ms_numba']:8.2f} ms   ratio {res['first_call_ms_numba'] / res['first_call_ms_numjit']:6.1f}x")
    print(f"first call from C:           fresh context {res['c_compile_fresh_context_ms']:.2f} ms   "
          f"warm context {res['c_compile_warm_context_ms']:.2f} ms")
    print(f"per-call overhead, Python:   numjit {res['call_overhead_ns_numjit']:8.1f} ns   "
          f"numba {res['call_overhead_ns_numba']:8.1f} ns   ratio {res['call_overhead_ns_numba'] / res['call_overhead_ns_numjit']:6.2f}x")
    print(f"per-call overhead, C:        nj_call {res['c_call_overhead_nj_call_ns']:.1f} ns   "
          f"raw entry {res['c_call_overhead_entry_ns']:.1f} ns")
    res["rows"] = [
        {"group": "first call, ms", "impl": "numjit", "value": res["first_call_ms_numjit"]},
        {"group": "first call, ms", "impl": "numba", "value": res["first_call_ms_numba"]},
        {"group": "call overhead, ns", "impl": "numjit", "value": res["call_overhead_ns_numjit"]},
        {"group": "call overhead, ns", "impl": "numba", "value": res["call_overhead_ns_numba"]},
    ]
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=1)


if __name__ == "__main__":
    main()
