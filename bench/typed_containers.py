#!/usr/bin/env python3
"""numba.typed.Dict and numba.typed.List crossing into compiled code: numjit against Numba 0.56,
side by side in one process.

Workloads: a container of n items (n = 10**6 by default), then passed to a compiled function
that sums it:
  dict   Dict[int64, float64] made by a compiled function and returned; sum of d.values()
  list   List[float64] made in Python (List.empty_list, append); sum of the items
Both cross as the compiled storage itself in numjit (no copy), as in Numba.
Times are medians of 7 interleaved rounds after a warm-up call (which compiles), in CPU time of
the process; the table gives milliseconds per call (the crossing and the sum) and Numba's time
over numjit's (above 1: numjit is faster).  Output: stdout and
bench/results/typed_containers.{txt,json}.
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/typed_containers.py [n]
"""
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import load_under  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = '''
from numba import njit, typed, types


@njit
def make_dict(n):
    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(n):
        d[i] = i * 0.5
    return d


@njit
def sum_dict(d):
    s = 0.0
    for v in d.values():
        s += v
    return s


def make_list(n):
    l = typed.List.empty_list(types.float64)
    for i in range(n):
        l.append(i * 0.5)
    return l


@njit
def sum_list(l):
    s = 0.0
    for x in l:
        s += x
    return s
'''


def timed(f, arg, rounds):
    out = []
    for _ in range(rounds):
        t = time.process_time()
        f(arg)
        out.append(time.process_time() - t)
    return out


def main(argv):
    n = int(float(argv[0])) if argv else 10**6
    with tempfile.TemporaryDirectory() as tmp:
        mods = {lib: load_under(tmp, lib, WORKLOADS, "typed_containers") for lib in ("numba", "numjit")}
        rows = []
        for name in ("dict", "list"):
            times = {lib: [] for lib in mods}
            values = {}
            for lib, m in mods.items():
                c = getattr(m, "make_" + name)(n)
                f = getattr(m, "sum_" + name)
                values[lib] = (f(c), type(c).__name__)
                times[lib] = (f, c)
            res = {lib: [] for lib in mods}
            for _ in range(7):  # interleaved rounds
                for lib, (f, c) in times.items():
                    res[lib] += timed(f, c, 1)
            med = {lib: statistics.median(v) * 1e3 for lib, v in res.items()}
            rows.append({"workload": name, "n": n, "numba_ms": med["numba"],
                         "numjit_ms": med["numjit"], "ratio": med["numba"] / med["numjit"],
                         "same_result": values["numba"][0] == values["numjit"][0],
                         "types": [values["numba"][1], values["numjit"][1]]})
    lines = [f"{'workload':8} {'n':>9} {'numba ms':>10} {'numjit ms':>10} {'numba/numjit':>13}"]
    for r in rows:
        lines.append(f"{r['workload']:8} {r['n']:>9} {r['numba_ms']:>10.2f} {r['numjit_ms']:>10.2f} "
                     f"{r['ratio']:>13.2f}  (results equal: {r['same_result']}; "
                     f"containers {r['types'][0]} / {r['types'][1]})")
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "typed_containers.txt"), "w") as fh:
        fh.write(text + "\n")
    with open(os.path.join(HERE, "results", "typed_containers.json"), "w") as fh:
        json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
