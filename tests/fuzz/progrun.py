"""progrun.py — runs a batch of generated programs under Numba or numjit (progfuzz.py's worker).

Usage:  /usr/bin/python3 tests/fuzz/progrun.py numba|numjit BATCH.py OUT.jsonl

BATCH.py is a module of @njit functions and a list CASES of (function name, a function that
builds the call's arguments).  With `numjit`, numjit from $NUMJIT_BUILD/python stands in for
Numba (tests/diff/run_with_numjit.py's install_numjit_as_numba).  Each case is called once and
one JSON line is written per case, flushed at once (a crash loses only the case that crashed):
["result", value, arguments after the call], or ["raise", exception class], or ["compile",
class, message] for an error that is not a run-time exception (typing, unsupported construct).
Values are written as tagged trees: ints as text, floats by repr, arrays with dtype and shape.
"""

import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = {"ZeroDivisionError", "IndexError", "ValueError", "OverflowError",
           "FloatingPointError", "AssertionError", "KeyError", "MemoryError"}


def tag(v):
    import numpy as np
    if isinstance(v, tuple):
        return ["tuple", [tag(x) for x in v]]
    if isinstance(v, np.ndarray):
        return ["array", str(v.dtype), list(v.shape), tag_list(v.tolist())]
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        return ["float", repr(v)]
    if isinstance(v, complex):
        return ["complex", repr(v.real), repr(v.imag)]
    return ["other", type(v).__name__, repr(v)]


def tag_list(x):
    if isinstance(x, list):
        return [tag_list(y) for y in x]
    return tag(x)


def main(argv):
    mode, batch, out = argv
    if mode == "numjit":
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "diff"))
        import run_with_numjit
        run_with_numjit.install_numjit_as_numba()
    sys.path.insert(0, os.path.dirname(os.path.abspath(batch)))
    spec = importlib.util.spec_from_file_location("fuzzbatch", batch)
    mod = importlib.util.module_from_spec(spec)
    with open(out, "w") as f:
        try:
            spec.loader.exec_module(mod)
        except Exception as e:  # the whole module refused (numjit compiles it at decoration?)
            f.write(json.dumps(["module", type(e).__name__, str(e)[:400]]) + "\n")
            return 0
        for name, make in mod.CASES:
            args = make()
            try:
                v = getattr(mod, name)(*args)
                rec = ["result", tag(v), tag(tuple(args))]
            except Exception as e:
                n = type(e).__name__
                rec = ["raise", n] if n in RUNTIME else ["compile", n, str(e)[:400]]
            f.write(json.dumps(rec) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
