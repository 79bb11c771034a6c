"""The drop-in promise: a program written against Numba (`from numba import njit`) runs
unchanged when sys.modules['numba'] is numjit, and prints what it prints under real Numba."""
import os
import subprocess
import sys
import textwrap

import pytest

import numjit

PROGRAM = textwrap.dedent("""
    import math
    import numpy as np
    import numba
    from numba import njit, jit

    EPS = 1e-12

    @njit
    def rel_diff(x, y):
        return 2.0 * (x - y) / (x + y + EPS)

    @jit(nopython=True, fastmath=False)
    def norm(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i]
        return math.sqrt(s)

    @numba.njit(cache=False)
    def apply(x, y, out):
        for i in range(x.shape[0]):
            out[i] = rel_diff(x[i], y[i])

    def main():
        x = np.linspace(1.0, 2.0, 7)
        y = np.linspace(3.0, 4.0, 7)
        out = np.empty_like(x)
        apply(x, y, out)
        print(repr(rel_diff(1.0, 3.0)))
        print(repr(norm(x)))
        print(" ".join(repr(float(v)) for v in out))

    if __name__ == "__main__":
        main()
    """)

RUNNER = textwrap.dedent("""
    import runpy, sys
    if sys.argv[1] == "numjit":
        import numjit
        sys.modules["numba"] = numjit
    runpy.run_path(sys.argv[2], run_name="__main__")
    """)


def run(tmp_path, which):
    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    r = subprocess.run([sys.executable, str(runner), which, str(prog)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dropin_matches_numba(tmp_path):
    got = run(tmp_path, "numjit")
    want = run(tmp_path, "numba")
    got_vals = [float(v) for v in got.split()]
    want_vals = [float(v) for v in want.split()]
    assert len(got_vals) == len(want_vals) == 9
    for g, w in zip(got_vals, want_vals):
        assert abs(g - w) <= 1e-14 * max(1.0, abs(w))


def test_sys_modules_trick_in_process(make_module):
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda", "numba.types",
                                             "numba.core", "numba.core.errors",
                                             "numba.core.types")}
    try:
        numjit.install_as_numba()
        import numba
        assert numba is numjit
        from numba.core.errors import TypingError
        assert TypingError is numjit.errors.TypingError
        mod = make_module("nj_dropin_inproc", """
            from numba import njit
            import numba

            @njit
            def f(x):
                return x + 1

            @numba.jit(nopython=True)
            def g(x):
                return f(x) * 2
            """)
        assert isinstance(mod.f, numjit.Dispatcher)
        assert mod.g(3) == 8
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def test_warp_intrinsics_dropin():
    """tests/gpu/warp_kernels.py imports through the drop-in (every numba.cuda intrinsic name it
    uses resolves) and gives PTX without a GPU; the names raise when called from Python."""
    import importlib.util
    from numjit import cuda
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda")}
    try:
        sys.modules["numba"] = numjit
        sys.modules["numba.cuda"] = cuda
        path = os.path.join(os.path.dirname(__file__), "..", "gpu", "warp_kernels.py")
        spec = importlib.util.spec_from_file_location("nj_warp_kernels", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        from numba.cuda import shfl_down_sync, ballot_sync, popc  # noqa: F401
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    ptx = mod.reduce_sum.inspect_ptx("void(float32[:], float32[:])")
    assert "shfl.sync.down.b32" in ptx and "%laneid" in ptx
    ptx = mod.votes.inspect_ptx("void(float32[:], int64[:], int32[:, :])")
    assert "vote.sync.ballot.b32" in ptx
    for name in ("syncwarp", "shfl_sync", "ballot_sync", "popc", "selp", "fma", "cbrt",
                 "syncthreads_count", "activemask", "lanemask_lt", "match_any_sync"):
        assert name in cuda.__all__
        with pytest.raises(numjit.errors.UnsupportedError):
            getattr(cuda, name)(1)
    for name in ("inc", "dec", "and_", "or_", "xor", "nanmax", "nanmin"):
        assert hasattr(cuda.atomic, name)


def test_load_numba_module_restores_sys_modules(tmp_path):
    """numjit.load_numba_module imports one Numba program with `numba` meaning numjit and
    leaves sys.modules as it found it."""
    import sys
    p = tmp_path / "prog_once.py"
    p.write_text("from numba import njit\n\n@njit\ndef sq(x):\n    return x * x\n")
    before = {k: sys.modules.get(k) for k in ("numba", "numba.cuda", "numba.cuda.random")}
    mod = numjit.load_numba_module(str(p))
    assert isinstance(mod.sq, numjit.Dispatcher) and mod.sq(3) == 9
    assert {k: sys.modules.get(k) for k in before} == before
    assert "prog_once" not in sys.modules


PROGRAM_RUNTIME_DECORATORS = textwrap.dedent("""
    import os
    import numpy as np
    try:
        import numba as nb
    except ImportError:
        nb = None

    TARGET = os.environ.get("WANT_TARGET", "parallel")
    SIGS = ["void(float64[:], float64[:], float64[:])"]
    LAYOUT = "(k),(k)->()"
    FAST = bool(int(os.environ.get("WANT_FAST", "0")))
    CFG = {"sig": "float64(float64, int64)"}

    @nb.guvectorize(SIGS, LAYOUT, target=TARGET)
    def rowdot(x, y, out):
        s = 0.0
        for j in range(x.shape[0]):
            s += x[j] * y[j]
        out[0] = s

    @nb.vectorize([CFG["sig"]], target=TARGET)
    def scale(x, k):
        return x * k

    @nb.njit(fastmath=FAST)
    def total(a):
        s = 0.0
        for v in a:
            s += v
        return s

    if __name__ == "__main__":
        X = np.arange(6.0 * 64).reshape(6, 64) / 7.0
        r = rowdot(X, X[::-1])
        for _ in range(50):          # back to back: the parallel pool's short-work path
            r2 = rowdot(X, X[::-1])
        assert (r == r2).all()
        print(" ".join(repr(float(v)) for v in r))
        print(repr(total(scale(X.ravel(), 3))))
    """)


def test_runtime_decorator_arguments_match_numba(tmp_path):
    """Decorators whose module is imported under try/except and whose arguments are module
    variables (a target from the environment, signature lists, a layout, a dict entry)."""
    prog = tmp_path / "prog_rt.py"
    prog.write_text(PROGRAM_RUNTIME_DECORATORS)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    outs = {}
    for which in ("numjit", "numba"):
        r = subprocess.run([sys.executable, str(runner), which, str(prog)], capture_output=True,
                           text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        outs[which] = r.stdout
    assert outs["numjit"] == outs["numba"]
    assert len(outs["numjit"].split()) == 7
