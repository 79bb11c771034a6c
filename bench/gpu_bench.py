"""GPU benchmark: numjit against CuPy, numba-cuda and PyTorch, side by side in one run.

Workloads (64M elements unless --n says otherwise), each timed as the median over batches of
back-to-back calls on device arrays (outputs preallocated where the peer allows), reported as
milliseconds, effective bandwidth (bytes read + written / time) and the ratio to numjit:

  copy      device-to-device copy of the W1 inputs' bytes: the bandwidth limit
  W1        rel_diff float32: 2*(x-y)/(x+y)       numjit @vectorize(target='cuda'), CuPy
            ElementwiseKernel and cupy.fuse, numba-cuda @vectorize, PyTorch torch.add(a, b,
            alpha=2) (the issue's "a + 2*b" yardstick)
  W2        trig float64: sin(x)**2 + cos(x)**2   same peers (PyTorch: four kernels)
  rowdot    (n),(n)->() float64, k = 64          numjit and numba-cuda @guvectorize, CuPy
            (A*B).sum(axis=1), PyTorch (A*B).sum(1)
  matmul    2048^3 float32, tests/gpu/kernels.py's shared-memory tiled kernel (TPB x TPB)
            launched by numjit.cuda and by numba-cuda on the same source
  first call (fresh processes): compile + load of a @cuda.jit kernel with math.sin, and of a
            two-signature GPU ufunc (decoration through the first call), numjit and numba-cuda;
            numjit again in a new process with the same cache directory (on-disk cache)
  launch    round trip of a tiny kernel + synchronize from Python (numjit, numba-cuda, CuPy),
            and from C (tests/gpu/test_kernel_launch's INFO line, when built)

Every peer is optional: a peer that does not import (or fails) is skipped with a note.
numba-cuda is imported after `np.row_stack = np.vstack` (NumPy 2.x removed row_stack).

    PYTHONPATH=build/python python3 bench/gpu_bench.py --json bench/results/gpu.json
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GPU_TESTS = os.path.join(ROOT, "tests", "gpu")

NOTES = []
RESULTS = {"workloads": {}, "first_call_ms": {}, "launch_us": {}, "notes": NOTES}


def note(msg):
    NOTES.append(msg)
    print(f"note: {msg}")


# ---- peers -------------------------------------------------------------------------------------
def load_numjit():
    import numjit
    from numjit import cuda
    if not cuda.is_available():
        raise SystemExit("numjit.cuda: no CUDA device; this benchmark needs a GPU")
    return numjit, cuda


def load_cupy():
    try:
        import cupy as cp
        cp.zeros(1)
        return cp
    except Exception as e:  # noqa: BLE001
        note(f"CuPy skipped: {type(e).__name__}: {e}")
        return None


def load_torch():
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch without CUDA")
        return torch
    except Exception as e:  # noqa: BLE001
        note(f"PyTorch skipped: {type(e).__name__}: {e}")
        return None


def load_numba():
    try:
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack
        saved = sys.modules.get("numba")
        if saved is not None and getattr(saved, "__name__", "") != "numba":
            sys.modules.pop("numba")
        import numba
        from numba import cuda as nbcuda
        if not nbcuda.is_available():
            raise RuntimeError("numba-cuda sees no device")
        return numba, nbcuda
    except Exception as e:  # noqa: BLE001
        note(f"numba-cuda skipped: {type(e).__name__}: {e}")
        return None


_NB_UFUNCS = []


def numba_ufuncs():
    """tests/gpu/ufuncs.py under numba-cuda (compiled once: numba-cuda compiles eagerly)."""
    if not _NB_UFUNCS:
        _NB_UFUNCS.append(load_file(os.path.join(GPU_TESTS, "ufuncs.py"), "nb_gpu_ufuncs", False))
    return _NB_UFUNCS[0]


def load_file(path, name, as_numjit):
    """Imports a numba-cuda source file, with `numba` meaning numjit when as_numjit."""
    saved = {k: sys.modules.get(k) for k in ("numba", "numba.cuda")}
    if as_numjit:
        import numjit
        from numjit import cuda
        sys.modules["numba"] = numjit
        sys.modules["numba.cuda"] = cuda
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        if as_numjit:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v


# ---- timing ------------------------------------------------------------------------------------
def timeit(fn, sync, batches=9, inner=5):
    fn()
    sync()
    ts = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        ts.append((time.perf_counter() - t) / inner)
    return statistics.median(ts)


def record(work, peer, secs, nbytes):
    row = RESULTS["workloads"].setdefault(work, {})
    row[peer] = {"ms": secs * 1e3, "GBps": nbytes / secs / 1e9 if nbytes else None}


def attempt(work, peer, fn, sync, nbytes, **kw):
    try:
        record(work, peer, timeit(fn, sync, **kw), nbytes)
    except Exception as e:  # noqa: BLE001
        note(f"{work} / {peer} failed: {type(e).__name__}: {str(e)[:200]}")


# ---- workloads ----------------------------------------------------------------------------------
def rel_py(x, y):
    return 2 * (x - y) / (x + y)


def bench_w1(n, nj, njc, U, cp, torch, nb):
    sync = njc.synchronize
    x = (np.random.default_rng(1).random(n, dtype=np.float32) + 0.5)
    y = (np.random.default_rng(2).random(n, dtype=np.float32) + 0.5)
    nbytes = 3 * n * 4
    dx, dy, do = njc.to_device(x), njc.to_device(y), njc.device_array(n, np.float32)
    attempt("W1 rel_diff f32", "numjit", lambda: U.rel_diff(dx, dy, out=do), sync, nbytes)
    got = do.copy_to_host()  # before the copy below overwrites do
    attempt("copy (bandwidth limit)", "numjit dtod", lambda: do.copy_to_device(dx), sync, 2 * n * 4)
    if cp is not None:
        cx, cy, co = cp.asarray(x), cp.asarray(y), cp.empty(n, cp.float32)
        ek = cp.ElementwiseKernel("float32 x, float32 y", "float32 r",
                                  "r = 2 * (x - y) / (x + y)", "nj_rel_diff")
        fused = cp.fuse(rel_py)
        csync = cp.cuda.Device().synchronize
        attempt("W1 rel_diff f32", "cupy ElementwiseKernel", lambda: ek(cx, cy, co), csync, nbytes)
        attempt("W1 rel_diff f32", "cupy.fuse", lambda: fused(cx, cy), csync, nbytes)
        attempt("copy (bandwidth limit)", "cupy copy", lambda: co.__setitem__(slice(None), cx),
                csync, 2 * n * 4)
        del cx, cy, co
    if torch is not None:
        tx = torch.as_tensor(x, device="cuda")
        ty = torch.as_tensor(y, device="cuda")
        to = torch.empty_like(tx)
        tsync = torch.cuda.synchronize
        attempt("W1 rel_diff f32", "torch a+2*b", lambda: torch.add(tx, ty, alpha=2, out=to),
                tsync, nbytes)
        attempt("copy (bandwidth limit)", "torch copy_", lambda: to.copy_(tx), tsync, 2 * n * 4)
        del tx, ty, to
    if nb is not None:
        nbm, nbc = nb
        V = numba_ufuncs()
        bx, by, bo = nbc.to_device(x), nbc.to_device(y), nbc.device_array(n, np.float32)
        attempt("W1 rel_diff f32", "numba-cuda", lambda: V.rel_diff(bx, by, out=bo),
                nbc.synchronize, nbytes)
        del bx, by, bo
    ref = (2 * (x.astype(np.float64) - y) / (x.astype(np.float64) + y)).astype(np.float32)
    if not np.allclose(got, ref, rtol=1e-6):
        note("W1: numjit's result differs from NumPy's")


def bench_w2(n, njc, U, cp, torch, nb):
    x = np.random.default_rng(3).random(n) * 20 - 10
    nbytes = 2 * n * 8
    dx, do = njc.to_device(x), njc.device_array(n, np.float64)
    attempt("W2 trig f64", "numjit", lambda: U.trig(dx, out=do), njc.synchronize, nbytes)
    if cp is not None:
        cx, co = cp.asarray(x), cp.empty(n, cp.float64)
        ek = cp.ElementwiseKernel("float64 x", "float64 r",
                                  "r = sin(x) * sin(x) + cos(x) * cos(x)", "nj_trig")
        def trig_py(v):  # a named function: cupy.fuse names its kernel after it
            return cp.sin(v) ** 2 + cp.cos(v) ** 2
        fused = cp.fuse(trig_py)
        csync = cp.cuda.Device().synchronize
        attempt("W2 trig f64", "cupy ElementwiseKernel", lambda: ek(cx, co), csync, nbytes)
        attempt("W2 trig f64", "cupy.fuse", lambda: fused(cx), csync, nbytes)
        del cx, co
    if torch is not None:
        tx = torch.as_tensor(x, device="cuda")
        attempt("W2 trig f64", "torch (4 kernels)", lambda: torch.sin(tx) ** 2 + torch.cos(tx) ** 2,
                torch.cuda.synchronize, nbytes)
        del tx
    if nb is not None:
        nbm, nbc = nb
        V = numba_ufuncs()
        bx, bo = nbc.to_device(x), nbc.device_array(n, np.float64)
        attempt("W2 trig f64", "numba-cuda", lambda: V.trig(bx, out=bo), nbc.synchronize, nbytes)
        del bx, bo


def bench_rowdot(n, njc, U, cp, torch, nb, k=64):
    rows = n // k
    rng = np.random.default_rng(4)
    a, b = rng.random((rows, k)), rng.random((rows, k))
    nbytes = (2 * rows * k + rows) * 8
    da, db, do = njc.to_device(a), njc.to_device(b), njc.device_array(rows, np.float64)
    attempt("rowdot f64 k=64", "numjit (staged)", lambda: U.rowdot(da, db, out=do),
            njc.synchronize, nbytes)
    os.environ["NUMJIT_GU_STAGE"] = "0"
    attempt("rowdot f64 k=64", "numjit (unstaged)", lambda: U.rowdot(da, db, out=do),
            njc.synchronize, nbytes)
    del os.environ["NUMJIT_GU_STAGE"]
    if not np.allclose(do.copy_to_host(), (a * b).sum(axis=1)):
        note("rowdot: numjit's result differs from NumPy's")
    if cp is not None:
        ca, cb = cp.asarray(a), cp.asarray(b)
        attempt("rowdot f64 k=64", "cupy (A*B).sum(1)", lambda: (ca * cb).sum(axis=1),
                cp.cuda.Device().synchronize, nbytes)
        del ca, cb
    if torch is not None:
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        attempt("rowdot f64 k=64", "torch (A*B).sum(1)", lambda: (ta * tb).sum(1),
                torch.cuda.synchronize, nbytes)
        del ta, tb
    if nb is not None:
        nbm, nbc = nb
        V = numba_ufuncs()
        ba, bb, bo = nbc.to_device(a), nbc.to_device(b), nbc.device_array(rows, np.float64)
        attempt("rowdot f64 k=64", "numba-cuda", lambda: V.rowdot(ba, bb, bo), nbc.synchronize,
                nbytes)
        del ba, bb, bo


def bench_matmul(njc, nb, size=2048):
    K = load_file(os.path.join(GPU_TESTS, "kernels.py"), "nj_bench_kernels", True)
    tpb = K.TPB
    rng = np.random.default_rng(5)
    A = rng.random((size, size), dtype=np.float32)
    B = rng.random((size, size), dtype=np.float32)
    grid, block = (size // tpb, size // tpb), (tpb, tpb)
    flops = 2 * size ** 3
    dA, dB, dC = njc.to_device(A), njc.to_device(B), njc.device_array((size, size), np.float32)
    attempt("matmul f32 2048^3 (tiled)", "numjit.cuda", lambda: K.matmul[grid, block](dA, dB, dC),
            njc.synchronize, 0, batches=5, inner=3)
    if nb is not None:
        nbm, nbc = nb
        NK = load_file(os.path.join(GPU_TESTS, "kernels.py"), "nb_bench_kernels", False)
        bA, bB, bC = nbc.to_device(A), nbc.to_device(B), nbc.device_array((size, size), np.float32)
        attempt("matmul f32 2048^3 (tiled)", "numba-cuda", lambda: NK.matmul[grid, block](bA, bB, bC),
                nbc.synchronize, 0, batches=5, inner=3)
    for peer, r in RESULTS["workloads"].get("matmul f32 2048^3 (tiled)", {}).items():
        r["GFLOPs"] = flops / (r["ms"] / 1e3) / 1e9


# ---- first call in fresh processes ------------------------------------------------------------
KERNEL_SRC = '''
import math, time, sys
import numpy as np
T0 = time.perf_counter()
{imp}
T1 = time.perf_counter()

@cuda.jit
def ksin(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = math.sin(x[i]) * 2.0

x = cuda.to_device(np.ones(1024))
o = cuda.device_array(1024)
cuda.synchronize()
t = time.perf_counter()
ksin[8, 128](x, o)
cuda.synchronize()
print("FIRST_MS", (time.perf_counter() - t) * 1e3, "IMPORT_MS", (T1 - T0) * 1e3)
'''

UFUNC_SRC = '''
import math, time, sys
import numpy as np
{imp}
x = cuda.to_device(np.ones(1024, np.float32))
cuda.synchronize()
t = time.perf_counter()

@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def rel2(a, b):
    return 2 * (a - b) / (a + b)

r = rel2(x, x)
cuda.synchronize()
print("FIRST_MS", (time.perf_counter() - t) * 1e3)
'''

IMPORTS = {
    "numjit": "from numjit import cuda, vectorize",
    "numba-cuda": "np.row_stack = np.vstack\nfrom numba import cuda, vectorize",
}


def run_fresh(src, peer, tmp, env):
    path = os.path.join(tmp, f"fc_{peer.replace('-', '_')}_{abs(hash(src)) % 10000}.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(src.format(imp=IMPORTS[peer])))
    p = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120, env=env)
    for line in p.stdout.splitlines():
        if line.startswith("FIRST_MS"):
            return float(line.split()[1])
    raise RuntimeError((p.stderr or p.stdout).strip().splitlines()[-1:] or "no output")


def bench_first_calls(have_numba):
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["NUMJIT_CACHE_DIR"] = os.path.join(tmp, "cache")
        peers = ["numjit"] + (["numba-cuda"] if have_numba else [])
        for what, src in (("kernel (math.sin)", KERNEL_SRC), ("two-signature GPU ufunc", UFUNC_SRC)):
            for peer in peers:
                try:
                    RESULTS["first_call_ms"].setdefault(what, {})[peer] = run_fresh(src, peer, tmp, env)
                except Exception as e:  # noqa: BLE001
                    note(f"first call of {what} / {peer} failed: {e}")
            try:  # the same again: numjit's on-disk cache (cache dir kept)
                RESULTS["first_call_ms"][what]["numjit (new process, disk cache)"] = \
                    run_fresh(src, "numjit", tmp, env)
            except Exception as e:  # noqa: BLE001
                note(f"numjit second process for {what} failed: {e}")


# ---- launch round trip ---------------------------------------------------------------------------
def bench_launch(njc, cp, nb, build):
    K = load_file(os.path.join(GPU_TESTS, "kernels.py"), "nj_launch_kernels", True)
    x = njc.to_device(np.ones(32))
    y = njc.to_device(np.ones(32))

    def rt(fn, sync, n=3000):
        fn()
        sync()
        ts = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            sync()
            ts.append(time.perf_counter() - t)
        return statistics.median(ts) * 1e6

    L = RESULTS["launch_us"]
    L["numjit (Python)"] = rt(lambda: K.axpy[1, 32](1.0, x, y), njc.synchronize)
    if nb is not None:
        NK = load_file(os.path.join(GPU_TESTS, "kernels.py"), "nb_launch_kernels", False)
        nbc = nb[1]
        bx, by = nbc.to_device(np.ones(32)), nbc.to_device(np.ones(32))
        try:
            L["numba-cuda (Python)"] = rt(lambda: NK.axpy[1, 32](1.0, bx, by), nbc.synchronize)
        except Exception as e:  # noqa: BLE001
            note(f"numba-cuda launch failed: {e}")
    if cp is not None:
        ek = cp.ElementwiseKernel("float64 x", "float64 y", "y = y + x", "nj_tiny")
        cx, cy = cp.ones(32), cp.ones(32)
        L["cupy ElementwiseKernel (Python)"] = rt(lambda: ek(cx, cy), cp.cuda.Device().synchronize)
    exe = os.path.join(build, "tests", "test_kernel_launch")  # a build tree, or a packed one
    if not os.path.exists(exe):
        exe = os.path.join(build, "bin", "test_kernel_launch")
    if os.path.exists(exe):
        try:
            p = subprocess.run([exe, os.path.join(GPU_TESTS, "kernels.py")], capture_output=True,
                               text=True, timeout=120)
            for line in p.stdout.splitlines():
                if "round trip from C" in line:
                    L["numjit (C)"] = float(line.split(":")[-1].split()[0])
        except Exception as e:  # noqa: BLE001
            note(f"C round trip failed: {e}")
    else:
        note(f"{exe} not built: no C round trip")


# ---- report ------------------------------------------------------------------------------------
def report():
    print()
    print(f"{'workload':28} {'peer':28} {'ms':>9} {'GB/s':>8} {'vs numjit':>10}")
    for work, row in RESULTS["workloads"].items():
        ref = next((r["ms"] for p, r in row.items() if p.startswith("numjit")), None)
        for peer, r in row.items():
            gb = f"{r['GBps']:.0f}" if r.get("GBps") else (f"{r['GFLOPs']:.0f}GF" if r.get("GFLOPs") else "")
            ratio = f"{r['ms'] / ref:.2f}x" if ref else ""
            r["time_vs_numjit"] = r["ms"] / ref if ref else None
            print(f"{work:28} {peer:28} {r['ms']:9.3f} {gb:>8} {ratio:>10}")
    print("\nfirst call (compile + load, fresh process), ms")
    for what, row in RESULTS["first_call_ms"].items():
        for peer, ms in row.items():
            print(f"  {what:28} {peer:36} {ms:9.1f}")
    print("\nlaunch + synchronize round trip of a tiny kernel, us")
    for peer, us in RESULTS["launch_us"].items():
        print(f"  {peer:36} {us:8.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=64 * 1024 * 1024)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory (for the C round trip)")
    ap.add_argument("--skip-first-call", action="store_true")
    ap.add_argument("--plot", help="also draw the bandwidth chart into this SVG file "
                    "(docs/gpu.svg)")
    ap.add_argument("--only", help="comma-separated sections to run: w1,w2,rowdot,matmul,"
                    "launch,first (default: all)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    nj, njc = load_numjit()
    U = load_file(os.path.join(GPU_TESTS, "ufuncs.py"), "nj_bench_ufuncs", True)
    cp, torch, nb = load_cupy(), load_torch(), load_numba()
    RESULTS["n"] = args.n
    try:
        RESULTS["device"] = njc.get_current_device().name
    except Exception:  # noqa: BLE001
        RESULTS["device"] = "?"
    only = set(args.only.split(",")) if args.only else None
    steps = {"w1": lambda: bench_w1(args.n, nj, njc, U, cp, torch, nb),
             "w2": lambda: bench_w2(args.n, njc, U, cp, torch, nb),
             "rowdot": lambda: bench_rowdot(args.n, njc, U, cp, torch, nb),
             "matmul": lambda: bench_matmul(njc, nb),
             "launch": lambda: bench_launch(njc, cp, nb, args.build)}
    for name, step in steps.items():
        if only is not None and name not in only:
            continue
        try:
            step()
        except Exception as e:  # noqa: BLE001
            note(f"a section failed: {type(e).__name__}: {e}")
        if cp is not None:
            cp.get_default_memory_pool().free_all_blocks()
        if torch is not None:
            torch.cuda.empty_cache()
    if not args.skip_first_call and (only is None or "first" in only):
        bench_first_calls(nb is not None)
    RESULTS["seconds"] = time.perf_counter() - t0
    report()
    print(f"\n({RESULTS['seconds']:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(RESULTS, f, indent=1, default=str)
    if args.plot:
        plot_bandwidth(RESULTS, args.plot)


def plot_bandwidth(results, path):
    """Effective bandwidth of every peer per workload (matmul, in GFLOP/s, left out)."""
    sys.path.insert(0, HERE)
    import plot

    def family(peer):  # one bar colour per project; second variants left out
        if peer in ("cupy.fuse", "numjit (unstaged)"):
            return None
        for prefix, name in (("numjit", "numjit"), ("cupy", "CuPy"), ("torch", "PyTorch"),
                             ("numba", "numba-cuda")):
            if peer.startswith(prefix):
                return name
        return peer

    rows = [{"group": wl, "impl": family(peer), "value": v["GBps"]}
            for wl, peers in results["workloads"].items() if not wl.startswith("matmul")
            for peer, v in peers.items() if v.get("GBps") and family(peer)]
    device = str(results.get("device", "?"))
    if device.startswith("b'"):
        device = device[2:-1]
    with open(path, "w") as f:
        f.write(plot.render(rows, f"GPU ({device}): effective bandwidth, GB/s, higher is "
                            "better", "GB/s"))


if __name__ == "__main__":
    main()
