"""bench/pypi_examples.py — first-call and steady-call time of one documented example per
published library of tests/pypi, under Numba 0.56 and under numjit answering ``import numba``.

    /usr/bin/python3 bench/pypi_examples.py [--work DIR] [--build DIR] [--rounds N]

How: tests/pypi/suites.py leaves a virtual environment in WORK/venv with the libraries
installed (run tests/pypi/run.sh first).  Each example is a few lines of the library's own
documented use; it runs in a fresh child process per mode (``venv/bin/python CHILD`` for
Numba, ``venv/bin/python -m numjit CHILD`` for numjit, BUILD/python first on PYTHONPATH), which
times the library's import (some compile eagerly there), the first call (compilation
included) and the median of ROUNDS later calls with time.process_time (CPU time: the development machine is shared, so
wall time mostly measures the wait for a core), checks that the result equals the one computed
in the other mode, and prints one JSON line.  Compile time is import plus first call minus
steady call (the import of NumPy and the library's Python is in both modes alike).
An example numjit cannot run yet prints its error instead of times.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name -> (setup, call): setup imports the library and makes the data; call is timed
EXAMPLES = {
    "numba-stats": (
        "import numpy as np\nfrom numba_stats import norm\n"
        "x = np.linspace(-3, 3, 1_000_000)\n",
        "norm.pdf(x, 0.5, 1.2)"),
    "numbagg": (
        "import numpy as np\nimport numbagg\n"
        "x = np.random.default_rng(1).standard_normal(1_000_000)\n",
        "numbagg.move_mean(x, window=20)"),
    "quantecon": (
        "import numpy as np\nimport quantecon as qe\n"
        "P = np.random.default_rng(2).random((300, 300)); P /= P.sum(axis=1)[:, None]\n",
        "qe.markov.gth_solve(P)"),
    "quantecon-tauchen": (
        "import numpy as np\nimport quantecon as qe\n",
        "qe.markov.tauchen(301, 0.9, 0.1).P"),
}

CHILD = """
import json, sys, time
import numpy as np
t_import = time.process_time()
{setup}
t_import = time.process_time() - t_import
def run():
    return {call}
t0 = time.process_time()
first = run()
t1 = time.process_time()
times = []
for _ in range({rounds}):
    s = time.process_time()
    run()
    times.append(time.process_time() - s)
times.sort()
r = np.asarray(first, dtype=float)
print(json.dumps({{"import": t_import, "first": t1 - t0, "steady": times[len(times) // 2],
                  "sum": float(np.nansum(r)), "shape": list(r.shape)}}))
"""


def run_child(venv_py, mode, name, rounds, build):
    setup, call = EXAMPLES[name]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(CHILD.format(setup=setup, call=call, rounds=rounds))
        path = f.name
    env = dict(os.environ)
    env.pop("NUMJIT_AS_NUMBA", None)
    cmd = [venv_py, path]
    if mode == "numjit":
        cmd = [venv_py, "-m", "numjit", path]
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(os.path.abspath(build), "python")] +
            [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    finally:
        os.unlink(path)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode or not lines:
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": err[:200]}
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                   "numjit-pypi"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    venv_py = os.path.join(a.work, "venv", "bin", "python")
    if not os.path.exists(venv_py):
        print(f"pypi_examples: no {venv_py}: run tests/pypi/run.sh first", file=sys.stderr)
        return 77
    only = set(filter(None, a.only.split(",")))
    print(f"{'example':18} {'Numba import':>12} {'first':>8} {'steady':>8} {'numjit import':>13} "
          f"{'first':>8} {'steady':>8} {'compile ratio':>13} {'run ratio':>9}  (CPU ms)")
    for name in EXAMPLES:
        if only and name not in only:
            continue
        nb = run_child(venv_py, "numba", name, a.rounds, a.build)
        nj = run_child(venv_py, "numjit", name, a.rounds, a.build)
        if "error" in nb or "error" in nj:
            print(f"{name:18} numba: {nb.get('error', 'ok')}  numjit: {nj.get('error', 'ok')}")
            continue
        same = nb["shape"] == nj["shape"] and \
            abs(nb["sum"] - nj["sum"]) <= 1e-9 * max(1.0, abs(nb["sum"]))
        # compilation: what the import and the first call cost beyond a steady call (some
        # libraries compile eagerly at import: numba-stats)
        cb = nb["import"] + nb["first"] - nb["steady"]
        cj = nj["import"] + nj["first"] - nj["steady"]
        print(f"{name:18} {nb['import'] * 1e3:12.1f} {nb['first'] * 1e3:8.1f} "
              f"{nb['steady'] * 1e3:8.2f} {nj['import'] * 1e3:13.1f} {nj['first'] * 1e3:8.1f} "
              f"{nj['steady'] * 1e3:8.2f} "
              f"{cj / cb if cb > 0 else float('nan'):13.3f} "
              f"{nj['steady'] / nb['steady'] if nb['steady'] > 0 else float('nan'):9.2f}"
              + ("" if same else "  RESULTS DIFFER"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
