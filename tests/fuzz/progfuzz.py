#!/usr/bin/python3
"""progfuzz.py — differential fuzzing of @njit: random programs under Numba 0.56 and numjit.

    /usr/bin/python3 tests/fuzz/progfuzz.py --count 2000 --seed 1 --jobs 2
    /usr/bin/python3 tests/fuzz/progfuzz.py --count 100000 --seed 7 --jobs 16 --out /tmp/found
    /usr/bin/python3 tests/fuzz/progfuzz.py --show 1:42        # print program 42 of seed 1
    /usr/bin/python3 tests/fuzz/progfuzz.py --record-types     # rewrite numba_types.json

How: proggen.py generates program k of seed S from the seed "S:k" (so any program can be
regenerated alone); programs go in batches (one module of many functions: Numba and numjit
start once per batch) to progrun.py, once under Numba and once under numjit (from
$NUMJIT_BUILD, default build), each batch in its own processes, --jobs batches at a time.
Each call's result is compared: the value (ints exactly, floats within a relative 1e-6, nan
equal to nan, the sign of zero and infinities exactly), the type (int, float, bool, complex,
an array's dtype and shape), the arguments after the call (writes into arrays), and the class
of a run-time exception.  A program Numba refuses to compile is not counted (the generator's
types are a guess; see proggen.py); one numjit refuses while Numba compiles it is a
disagreement, as is a crash or a hang (a batch that dies is rerun past the dead case; a
batch whose module fails at import runs again in halves, down to the function it refuses).

A disagreement is run again alone, then minimized: greedy delta debugging over the tree
(drop a statement, unwrap an if/for group, replace an expression by a same-typed part of it
or a constant, drop a returned value or a parameter), trying each round's candidates in one
batch, until no candidate still disagrees.  The minimized program is printed and written to
--out (default BUILD/fuzz/found) as a tests/lang-style program ready to keep as a regression
test.  Exit status: 0 when all agree, 1 on a disagreement, 77 when Numba or numjit is
missing (meson's skip code).
"""

import argparse
import copy
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import proggen  # noqa: E402

PY = "/usr/bin/python3"
HEADER = "import math\nimport numpy as np\nfrom numba import njit\n\n"


def batch_source(funcs):
    parts = [HEADER]
    for f in funcs:
        parts.append(f.source() + "\n")
    parts.append("CASES = [\n")
    for f in funcs:
        parts.append(f"    ({f.name!r}, lambda: {f.call()}),\n")
    parts.append("]\n")
    return "".join(parts)


def run_side(mode, funcs, tmp, timeout):
    """Records of funcs under mode ('numba' or 'numjit'); a case that crashed or hung gets
    ["crash", rc] / ["hang"], and the cases after it run again in a new process."""
    recs = []
    while len(recs) < len(funcs):
        rest = funcs[len(recs):]
        path = os.path.join(tmp, f"b_{mode}_{len(recs)}.py")
        out = path + ".jsonl"
        with open(path, "w") as fp:
            fp.write(batch_source(rest))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        rc = 0
        t0 = time.time()
        try:
            p = subprocess.run([PY, os.path.join(HERE, "progrun.py"), mode, path, out],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=timeout + (5 if mode == "numba" else 1) * len(rest))
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = None
        if os.environ.get("PROGFUZZ_DEBUG"):
            print(f"  {mode}: {len(rest)} cases, rc {rc}, {time.time() - t0:.1f} s",
                  file=sys.stderr)
        got = []
        if os.path.exists(out):
            with open(out) as fp:
                got = [json.loads(ln) for ln in fp if ln.strip()]
        if got and got[0][0] == "module":
            if len(rest) == 1:
                return recs + [got[0]]
            # one function the module refuses must not count against the others: each half
            # again, so a refused function costs about 2 log2(batch) processes, not one for
            # every function of its batch (an interpreter's start is most of a small batch)
            h = len(rest) // 2
            return recs + run_side(mode, rest[:h], tmp, timeout) + run_side(mode, rest[h:], tmp,
                                                                            timeout)
        recs += got[:len(rest)]
        if len(recs) < len(funcs):
            recs.append(["hang"] if rc is None else ["crash", rc])
    return recs


def close(a, b):
    fa, fb = float(a), float(b)
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    if math.isinf(fa) or math.isinf(fb) or fa == 0 or fb == 0:
        return fa == fb and math.copysign(1, fa) == math.copysign(1, fb)
    return abs(fa - fb) <= 1e-6 * max(abs(fa), abs(fb))


def same(x, y):
    """Tagged values (progrun.tag) equal: exact types and ints, floats within tolerance."""
    if isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            return False
        if x and x[0] == "float" and y[0] == "float" and len(x) == 2:
            return close(x[1], y[1])
        if x and x[0] == "complex" and y[0] == "complex" and len(x) == 3:
            return close(x[1], y[1]) and close(x[2], y[2])
        return all(same(a, b) for a, b in zip(x, y))
    return x == y


def agree(nb, nj):
    """None when the two records agree, else a short reason."""
    if nb[0] == "result" and nj[0] == "result":
        if not same(nb[1], nj[1]):
            return "values differ"
        return None if same(nb[2], nj[2]) else "arguments after the call differ"
    if nb[0] == "raise" and nj[0] == "raise":
        return None if nb[1] == nj[1] else "exceptions differ"
    return f"Numba: {nb[0]}, numjit: {nj[0]}"


def valid(nb):
    return nb[0] in ("result", "raise")


def compare(funcs, tmp, timeout):
    """[(func, numba record, numjit record, reason)] for each valid func that disagrees;
    also the number of valid funcs."""
    nb = run_side("numba", funcs, tmp, timeout)
    ok = [i for i, r in enumerate(nb) if valid(r)]
    nj = run_side("numjit", [funcs[i] for i in ok], tmp, timeout) if ok else []
    bad = []
    for i, r in zip(ok, nj):
        why = agree(nb[i], r)
        if why:
            bad.append((funcs[i], nb[i], r, why))
    return bad, len(ok)


# ---- minimization -----------------------------------------------------------------------
def stmt_lists(f):
    """Every statement list of f (the body and nested blocks)."""
    out = [f.body]
    i = 0
    while i < len(out):
        for s in out[i]:
            for blk in (s.body, s.orelse):
                if blk is not None:
                    out.append(blk)
        i += 1
    return out


def exprs_of(f):
    for lst in stmt_lists(f):
        for s in lst:
            for j in range(len(s.exprs)):
                yield s, j


def variants(f):
    """Functions one step smaller than f, most promising first."""
    n = 0
    for li in range(len(stmt_lists(f))):
        for si in range(len(stmt_lists(f)[li])):
            g = copy.deepcopy(f)
            lst = stmt_lists(g)[li]
            s = lst.pop(si)
            yield g
            if s.body is not None and (s.head == "if True:" or s.head.startswith("if ")):
                g = copy.deepcopy(f)
                lst = stmt_lists(g)[li]
                s = lst[si]
                lst[si:si + 1] = s.body + (s.orelse or [])
                yield g
    rets = [x for x in f.ret.strip("(),").split(", ") if x]
    if len(rets) > 1:
        for k in range(len(rets)):
            g = copy.deepcopy(f)
            g.ret = "(" + ", ".join(rets[:k] + rets[k + 1:]) + ",)"
            yield g
    for k in range(len(f.params)):
        g = copy.deepcopy(f)
        del g.params[k]
        del g.args[k]
        yield g
    # expressions: by a same-typed child, or by a constant
    for si, (s, j) in enumerate(list(exprs_of(f))):
        nodes = list(s.exprs[j].nodes())
        for ni, node in enumerate(nodes):
            reps = [k for k in node.kids if k.ty == node.ty]
            if node.kids and node.ty in proggen.SCALARS:
                reps.append(proggen.E(const_of(node.ty), [], node.ty))
            for rep in reps:
                g = copy.deepcopy(f)
                gs, gj = list(exprs_of(g))[si]
                if ni == 0:
                    gs.exprs[gj] = copy.deepcopy(rep)
                else:
                    target = list(gs.exprs[gj].nodes())[ni]
                    target.fmt, target.kids = rep.fmt, copy.deepcopy(rep.kids)
                yield g
                n += 1
                if n > 400:
                    return
    if f.deco != "@njit":
        g = copy.deepcopy(f)
        g.deco = "@njit"
        yield g


def const_of(t):
    if t == "bool":
        return "True"
    if t in proggen.BITS:
        return proggen.int_literal(t, 1)
    if t == "float64":
        return "1.0"
    if t == "float32":
        return "np.float32(1.0)"
    return "complex(1.0, 0.0)"


def size(f):
    return len(f.source()) + len(f.call())


def minimize(f, why_kind, tmp, timeout, log):
    """A smallest variant of f that still disagrees (the same kind of record on each side)."""
    cur = f
    for rnd in range(60):
        cands = sorted(variants(cur), key=size)[:120]
        for i, c in enumerate(cands):
            c.name = f"m{rnd}_{i}"
        if not cands:
            break
        bad, _ = compare(cands, tmp, timeout)
        bad = [b for b in bad if kind_of(b) == why_kind and size(b[0]) < size(cur)]
        if not bad:
            break
        cur = min(bad, key=lambda b: size(b[0]))[0]
        log(f"  minimizing: {size(cur)} characters")
    cur.name = "f"
    return cur


def kind_of(b):
    return (b[1][0], b[2][0], b[3])


# ---- reports ----------------------------------------------------------------------------
SHOW = '''
def show(v):
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ")"
    if isinstance(v, np.ndarray):
        return "array:" + str(v.dtype) + str(v.shape) + ":" + repr(v.tolist())
    return type(v).__name__ + ":" + repr(v)

'''


def lang_program(f, label, nb, nj):
    lines = [f"# Found by tests/fuzz/progfuzz.py ({label}), minimized.",
             f"# Numba 0.56: {json.dumps(nb)[:300]}", f"# numjit:     {json.dumps(nj)[:300]}",
             HEADER.rstrip("\n"), "", f.source(), SHOW.strip("\n"), "",
             'if __name__ == "__main__":', f"    args = {f.call()}", "    try:",
             f"        print(show({f.name}(*args)))", "        print(show(args))",
             "    except (ZeroDivisionError, IndexError, ValueError) as e:",
             "        print(type(e).__name__)", ""]
    return "\n".join(lines)


def numba_types():
    """Numba's result type for every pair of scalar types and operator family."""
    import itertools
    import numba
    from numba import njit
    fams = {"add": lambda a, b: a + b, "div": lambda a, b: a / b,
            "fdiv": lambda a, b: a // b, "and": lambda a, b: a & b,
            "pow": lambda a, b: a ** b}
    ty = lambda n: getattr(numba.types, "boolean" if n == "bool" else n)
    out = {}
    for fam, fn in fams.items():
        f = njit(fn)
        for a, b in itertools.product(proggen.SCALARS, proggen.SCALARS):
            try:
                f.compile((ty(a), ty(b)))
                out[f"{fam} {a} {b}"] = str(f.nopython_signatures[-1].return_type)
            except Exception:
                out[f"{fam} {a} {b}"] = "ERR"
    return out


def check_tools():
    try:
        subprocess.run([PY, "-c", "import numba"], check=True, capture_output=True)
        sys.path.insert(0, os.path.join(ROOT, "tests", "diff"))
        import run_with_numjit
        subprocess.run([PY, "-c", f"import sys; sys.path.insert(0, "
                        f"{run_with_numjit.build_python_dir()!r}); import numjit"],
                       check=True, capture_output=True)
    except (subprocess.CalledProcessError, OSError) as e:
        return str(e)
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first program number")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds per batch and side, plus 5 s a program for Numba")
    ap.add_argument("--out", default=os.path.join(
        ROOT, os.environ.get("NUMJIT_BUILD", "build"), "fuzz", "found"))
    ap.add_argument("--max-minimize", type=int, default=5)
    ap.add_argument("--show", metavar="SEED:K")
    ap.add_argument("--known", action="store_true",
                    help="also generate what numjit is known to get wrong (proggen.KNOWN)")
    ap.add_argument("--stmts", type=int, default=6, help="most statements of a function")
    ap.add_argument("--record-types", action="store_true")
    a = ap.parse_args(argv)
    if a.record_types:
        with open(os.path.join(HERE, "numba_types.json"), "w") as fp:
            json.dump(numba_types(), fp, indent=0, sort_keys=True)
        return 0
    if a.show:
        s, k = a.show.split(":")
        f = proggen.Gen(f"{s}:{k}", a.known, a.stmts).func(f"f{k}")
        print(HEADER + f.source() + f"\nprint({f.name}(*{f.call()}))")
        return 0
    why = check_tools()
    if why:
        print(f"progfuzz: skipped: {why}")
        return 77
    t0 = time.time()
    funcs = [proggen.Gen(f"{a.seed}:{k}", a.known, a.stmts).func(f"f{k}") for k in
             range(a.start, a.start + a.count)]
    batches = [funcs[i:i + a.batch] for i in range(0, len(funcs), a.batch)]
    bad, nvalid = [], 0
    with tempfile.TemporaryDirectory(prefix="progfuzz.") as tmp:
        def job(ib):
            d = os.path.join(tmp, f"batch{ib}")
            os.mkdir(d)
            return compare(batches[ib], d, a.timeout)
        with ThreadPoolExecutor(a.jobs) as ex:
            for b, nv in ex.map(job, range(len(batches))):
                bad += b
                nvalid += nv
        print(f"progfuzz: seed {a.seed}, programs {a.start}..{a.start + a.count - 1}: "
              f"{len(funcs)} generated, {nvalid} accepted by Numba, {len(bad)} disagree "
              f"({time.time() - t0:.0f} s)")
        for f, nb, nj, why in bad:
            print(f"  {f.name}: {why}; Numba {json.dumps(nb)[:120]}; numjit {json.dumps(nj)[:160]}")
        if bad:
            os.makedirs(a.out, exist_ok=True)
        for f, nb, nj, why in bad[:a.max_minimize]:
            num = f.name[1:]
            label = f"seed {a.seed}, program {num}"
            print(f"\n== {label}: {why}\n   Numba: {json.dumps(nb)[:200]}\n"
                  f"   numjit: {json.dumps(nj)[:200]}")
            d = os.path.join(tmp, "min_" + f.name)
            os.mkdir(d)
            m = minimize(f, kind_of((f, nb, nj, why)), d, a.timeout, print)
            again, _ = compare([m], d, a.timeout)
            rec = again[0] if again else (m, nb, nj, why)
            text = lang_program(m, label, rec[1], rec[2])
            path = os.path.join(a.out, f"fuzz_s{a.seed}_{num}.py")
            with open(path, "w") as fp:
                fp.write(text)
            print(text)
            print(f"(written to {path})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
