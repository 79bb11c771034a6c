"""Compile time that grows linearly with the size of a function (bench/compile_scaling.py has
the full measurement).  Two checks on functions generated with n pieces:

- the LLVM IR handed on stays linear in n: the phi entries of a function of n array
  expressions (each with raise sites and a counted result variable) grow by about 2x per
  doubling; one exit block shared by every raise made each counted variable a phi with an
  entry per raise site, O(n^2), and the register coalescer then took seconds;
- compile time itself, measured as CPU time of the process (the machines are shared: wall
  time moves with other work), grows by far less than 4x per doubling at small n.  The bound is
  generous: it catches a quadratic blow-up, not a slowdown.
"""
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))

import compile_scaling  # noqa: E402
from benchlib import load_under  # noqa: E402

SIG = "(float64[::1], float64[::1], float64[::1])"


def _load(tmp_path, shape, n, tag=""):
    gen = compile_scaling.GENERATORS[shape]
    return load_under(str(tmp_path), "numjit", gen(n), f"tcs_{shape}_{n}{tag}")


def _phi_entries(ir):
    return sum(line.count("[") for line in ir.splitlines() if re.search(r"= phi ", line))


def _args(n):
    return np.linspace(0.0, 1.0, 16), np.linspace(1.0, 2.0, 16), np.zeros(n)


def test_array_expressions_phi_entries_linear(tmp_path):
    counts = {}
    for n in (16, 32, 64):
        mod = _load(tmp_path, "arrays", n)
        a, b, out = _args(n)
        mod.f(a, b, out)
        # the answers stay right: out[k] = (a*K + b*K2 - a)[k % 16]
        k = n - 1
        want = (a * (k + 1.5) + b * (k % 7 + 2.0) - a)[k % a.shape[0]]
        assert out[k] == pytest.approx(want, rel=1e-15)
        ir = next(iter(mod.f.inspect_llvm().values()))
        counts[n] = _phi_entries(ir)
    assert counts[32] <= 2.3 * counts[16], counts
    assert counts[64] <= 2.3 * counts[32], counts


@pytest.mark.skipif(os.environ.get("NUMJIT_SKIP_SPEED") == "1", reason="NUMJIT_SKIP_SPEED")
@pytest.mark.parametrize("shape", ["loops", "arrays"])
def test_compile_time_growth(tmp_path, shape):
    def cpu_seconds(n, tag):
        mod = _load(tmp_path, shape, n, tag)
        args = _args(n)
        t0 = time.process_time()
        mod.f(*args)
        return time.process_time() - t0

    cpu_seconds(4, "warm")  # the process's one-time setup (LLVM, the JIT) is not counted
    small = min(cpu_seconds(12, f"s{r}") for r in range(2))
    large = min(cpu_seconds(48, f"l{r}") for r in range(2))
    # linear growth reads 4x for 4x the size; quadratic 16x
    assert large <= 8.0 * small, (small, large)


def _mixed(n):
    """A long function of n pieces of several kinds of loop: the top-level loops of a function
    this long move into functions of their own (codegen/outline.c), alone or in runs."""
    out = ["import numpy as np", "from numba import njit", "", "", "@njit",
           "def f(a, b, out):", "    acc = 0.0", "    last = 0"]
    for k in range(n):
        kind = k % 7
        if kind == 0:  # a reduction
            out += ["    s = 0.0", "    for i in range(a.shape[0]):",
                    f"        s += a[i] * {k}.5 + b[i]", f"    out[{k}] = s"]
        elif kind == 1:  # nested loops
            out += ["    t = 0.0", f"    for i in range({k % 3 + 2}):",
                    "        for j in range(a.shape[0]):", "            t += a[j] * i - b[j]",
                    f"    out[{k}] = t"]
        elif kind == 2:  # while with break
            out += ["    w = 0", "    while True:", "        w += 1",
                    f"        if w > {k % 5 + 3}:", "            break", f"    out[{k}] = w"]
        elif kind == 3:  # an early return that does not happen
            out += ["    for i in range(a.shape[0]):", "        if a[i] > 1e9:",
                    "            return -1.0", f"    out[{k}] = {k}"]
        elif kind == 4:  # the loop variable read after the loop
            out += [f"    for last in range({k % 4 + 1}):", "        acc += last",
                    f"    out[{k}] = last"]
        elif kind == 5:  # an array made in the loop
            out += ["    u = 0.0", "    for i in range(2):", f"        tmp = a * {k} + i",
                    "        u += tmp.sum()", f"    out[{k}] = u"]
        else:  # a variable carried over from the first loop to the end
            out += ["    for i in range(b.shape[0]):", "        acc += b[i] * 0.5",
                    f"    out[{k}] = acc"]
    out.append("    return acc + last")
    return "\n".join(out) + "\n"


def test_long_function_loops_outlined(tmp_path):
    n = 140
    mod = load_under(str(tmp_path), "numjit", _mixed(n), "tcs_mixed")
    a, b = np.linspace(0.0, 1.0, 16), np.linspace(1.0, 2.0, 16)
    out, want = np.zeros(n), np.zeros(n)
    r = mod.f(a, b, out)
    r_want = mod.f.py_func(a, b, want)
    assert r == pytest.approx(r_want, rel=1e-12)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    ir = next(iter(mod.f.inspect_llvm().values()))
    loops = re.findall(r"^define internal .*\.loop\d+\(", ir, re.M)
    # runs of loops move together: several functions, fewer than the n top-level loops (the
    # loops that can raise or return stay, and end a run)
    assert 2 <= len(loops) < n * 3 // 4, len(loops)


def test_outlined_loops_not_runtime_unrolled(tmp_path):
    """The loops of a long function (moved into functions of their own) carry loop metadata
    that turns off runtime unrolling: four copies of each loop and a remainder loop were 40%
    of the compile time at 400 loops.  A short function keeps LLVM's runtime unrolling."""
    mod = _load(tmp_path, "loops", 100)
    a, b, out = _args(100)
    mod.f(a, b, out)
    k = 99
    assert out[k] == pytest.approx(np.sum(a * (k + 1.5) + b * (k % 7 + 2.0)), rel=1e-12)
    ir = next(iter(mod.f.inspect_llvm().values()))
    assert re.search(r"^define internal .*\.loop\d+\(", ir, re.M)
    assert "llvm.loop.unroll.runtime.disable" in ir
    assert "xtraiter" not in ir  # LLVM's name for the remainder of a runtime-unrolled loop
    short = _load(tmp_path, "loops", 3)
    a, b, out = _args(3)
    short.f(a, b, out)
    ir = next(iter(short.f.inspect_llvm().values()))
    assert "xtraiter" in ir and "llvm.loop.unroll.runtime.disable" not in ir


def test_outlined_runs_return_only_what_is_read_after(tmp_path):
    """A run of loops moved out returns only the variables that the rest of the function may
    read (here the shared counter `i` and the last loop's sum, written out after the run); it
    returned every variable it stored, and IPSCCP took time quadratic in those fields (a
    fifth of the optimizer's time at 400 loops).  Read before IPSCCP with LLVM's printer."""
    exe = os.path.join(HERE, "..", "..", os.environ.get("NUMJIT_BUILD", "build"), "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command built here")
    path = tmp_path / "loops100.py"
    path.write_text(compile_scaling.gen_loops(100))
    env = dict(os.environ, NUMJIT_LLVM_ARGS="-print-before=ipsccp")
    p = subprocess.run([exe, "llvm", str(path), "--sig", "f" + SIG], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 0, p.stderr
    rets = re.findall(r"^define internal (.*) @\S+\.loop\d+\(", p.stderr, re.M)
    assert len(rets) >= 2, p.stderr[:2000]
    for r in rets:
        assert r == "void" or r.count(",") <= 2, r


@pytest.mark.skipif(os.environ.get("NUMJIT_SKIP_SPEED") == "1", reason="NUMJIT_SKIP_SPEED")
def test_front_end_linear(tmp_path):
    """Parsing, typing, the IR verifier and the IR printer of `numjit check` (no LLVM) take
    time linear in the length of a function: 4x the loops read 4x the CPU time.  The typer's
    variable lookup by a search per name, the verifier's predecessors found by scanning every
    block per block and the printer's search for a variable's namesakes were each quadratic:
    1,600 loops took 21x the time of 400 (3.4 s)."""
    exe = os.path.join(HERE, "..", "..", os.environ.get("NUMJIT_BUILD", "build"), "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command built here")

    def cpu_seconds(n):
        path = tmp_path / f"loops{n}.py"
        path.write_text(compile_scaling.gen_loops(n))
        best = None
        for _ in range(2):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run([exe, "check", str(path), "--sig", "f" + SIG],
                               capture_output=True, text=True)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            assert p.returncode == 0, p.stderr
            t = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
            best = t if best is None else min(best, t)
        return best

    small, large = cpu_seconds(400), cpu_seconds(1600)
    assert large <= 8.0 * max(small, 0.01), (small, large)


@pytest.mark.skipif(os.environ.get("NUMJIT_SKIP_SPEED") == "1", reason="NUMJIT_SKIP_SPEED")
def test_compile_time_linear_long_functions(tmp_path):
    """n = 100 → 400 loops: one function of 400 loops took 8x the time of 100 (LLVM's passes
    are superlinear in one function's size); each run of loops in a function of its own keeps
    it near 4x."""
    def cpu_seconds(n, tag):
        mod = _load(tmp_path, "loops", n, tag)
        args = _args(n)
        t0 = time.process_time()
        mod.f(*args)
        return time.process_time() - t0

    cpu_seconds(4, "warm")
    small = min(cpu_seconds(100, f"s{r}") for r in range(2))
    large = min(cpu_seconds(400, f"l{r}") for r in range(2))
    assert large <= 6.0 * small, (small, large)
