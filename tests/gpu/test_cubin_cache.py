"""GPU suite for the on-disk cubin cache of explicit kernels (runtime/kernel.c, runtime/cache.c).

Each test writes a small numba-cuda program into a temporary directory and runs it in fresh
processes (`sys.executable`) that share one cache directory (NUMJIT_CACHE_DIR) with
NUMJIT_CACHE=1 and NUMJIT_CACHE_DEBUG=1, so that stderr says what the cache did:
  * the first process compiles (typer, LLVM, the driver's JIT) and stores a cubin; the second
    process's first launch is a hit ("hit ... PTX generated in this process: 0") with the same
    results, and its first-launch time (launch + synchronize, the device already initialized)
    is printed as INFO next to the issue's goal (<= 5 ms);
  * a damaged entry (a flipped byte, a truncated file, another key's file in its place) is
    ignored, the kernel compiled again with the same results, the entry rewritten, and the
    process after that hits again;
  * with the cache on, errors are still reported: a typing error (never stored, reported again
    by the next process), too many threads per block on a kernel loaded from the cache (an
    error naming it), and an illegal address in a cached kernel (an error naming it, in a
    process of its own since it leaves the context unusable).
The whole module is skipped without a CUDA driver or device.  The unit checks that need no
GPU (keys, payloads) are in tests/unit/test_cache.c.

Run: PYTHONPATH=build/python python3 -m pytest -v -s tests/gpu/test_cubin_cache.py
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import numjit
from numjit import cuda

if not cuda.is_available():
    pytest.skip("no CUDA driver or device", allow_module_level=True)

GOAL_MS = 5.0  # issue 4: the same kernel in a new process, from the on-disk cubin cache

PROGRAM = textwrap.dedent("""\
    import json, sys, time
    import numjit
    sys.modules["numba"] = numjit
    import numpy as np
    from numba import cuda

    SCALE = 2.0

    @cuda.jit(device=True)
    def affine(v):
        return v * SCALE + 1.0

    @cuda.jit
    def kern(x, out, a):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = affine(x[i]) + a

    @cuda.jit
    def wild(x, k):
        x[k] = 1.0

    @cuda.jit
    def bad(x):
        i = cuda.grid(1)
        x[i] = x

    def run():
        n = 1000
        x = np.arange(n, dtype=np.float32)
        dx = cuda.to_device(x)                 # the device and its context, before timing
        dout = cuda.device_array_like(x)
        cuda.synchronize()
        tb = time.perf_counter()
        if hasattr(kern, "_bind_now"):         # the module's source read and parsed: timed apart
            kern._bind_now()
        t0 = time.perf_counter()
        kern[(n + 127) // 128, 128](dx, dout, 0.5)
        cuda.synchronize()
        t1 = time.perf_counter()
        kern[(n + 127) // 128, 128](dx, dout, 0.5)
        cuda.synchronize()
        t2 = time.perf_counter()
        got = dout.copy_to_host()
        ok = bool(np.allclose(got, x * 2.0 + 1.5))
        wild[1, 1](dout, 3)                    # a second kernel (a second entry), in bounds
        ok = ok and float(dout.copy_to_host()[3]) == 1.0
        return {"ok": ok, "first_ms": (t1 - t0) * 1e3, "second_ms": (t2 - t1) * 1e3,
                "bind_ms": (t0 - tb) * 1e3}

    def errors():
        res = run()
        x = np.zeros(64, np.float32)
        try:
            bad[1, 32](x)
            res["bad"] = "no error"
        except Exception as e:
            res["bad"] = type(e).__name__ + ": " + str(e)
        try:
            kern[1, 4096](x, x, 0.5)
            res["threads"] = "no error"
        except Exception as e:
            res["threads"] = type(e).__name__ + ": " + str(e)
        return res

    def illegal():
        res = run()
        d = cuda.device_array(4, np.float32)
        try:
            wild[1, 1](d, 1 << 40)
            cuda.synchronize()
            res["illegal"] = "no error"
        except Exception as e:
            res["illegal"] = type(e).__name__ + ": " + str(e)
        return res

    if __name__ == "__main__":
        mode = sys.argv[1] if len(sys.argv) > 1 else "run"
        print("RESULT " + json.dumps({"run": run, "errors": errors, "illegal": illegal}[mode]()))
""")


class Child:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.cache = [l for l in proc.stderr.splitlines() if l.startswith("numjit cache:")]
        self.result = None
        for line in proc.stdout.splitlines():
            if line.startswith("RESULT "):
                self.result = json.loads(line[7:])

    def notes(self, word, kernel="kern"):
        """The cache's debug lines of one kind ("hit", "miss", "stored", "damaged") for a kernel."""
        return [l for l in self.cache if l.startswith("numjit cache: " + word) and
                (f": {kernel}(" in l or word == "damaged")]

    def __repr__(self):
        return f"rc={self.rc}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"


@pytest.fixture
def env_dir(tmp_path):
    prog = tmp_path / "cubin_prog.py"
    prog.write_text(PROGRAM)
    cache = tmp_path / "cache"
    pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(numjit.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [pkg_root, env.get("PYTHONPATH", "")] if p)
    env["NUMJIT_CACHE"] = "1"
    env["NUMJIT_CACHE_DEBUG"] = "1"
    env["NUMJIT_CACHE_DIR"] = str(cache)

    def child(mode="run"):
        p = subprocess.run([sys.executable, str(prog), mode], capture_output=True, text=True,
                           env=env, timeout=300)
        return Child(p)

    return child, cache


def entries(cache):
    return sorted(p for p in cache.iterdir() if p.suffix == ".nje") if cache.exists() else []


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def test_second_process_hits(env_dir):
    child, cache = env_dir
    cold = child()
    assert cold.rc == 0 and cold.result and cold.result["ok"], cold
    assert cold.notes("miss") and cold.notes("stored"), cold
    assert "[kernel sm_" in cold.notes("stored")[0], cold
    assert len(entries(cache)) == 2  # kern and wild
    warm_runs = [child() for _ in range(3)]
    for w in warm_runs:
        assert w.rc == 0 and w.result and w.result["ok"], w
        hits = w.notes("hit")
        assert hits and "PTX generated in this process: 0" in hits[0], w
        assert not w.notes("miss") and not w.notes("stored"), w
    first = median([w.result["first_ms"] for w in warm_runs])
    bind = median([w.result["bind_ms"] for w in warm_runs])
    print(f"INFO cubin cache, first launch of a kernel in a fresh process (launch + "
          f"synchronize, device initialized): cold {cold.result['first_ms']:.2f} ms, from the "
          f"cache {first:.3f} ms (median of {len(warm_runs)} processes; "
          f"{', '.join('%.3f' % w.result['first_ms'] for w in warm_runs)}); before it, the "
          f"module's source read and parsed {bind:.3f} ms (cold {cold.result['bind_ms']:.3f}); "
          f"second launch {median([w.result['second_ms'] for w in warm_runs]):.3f} ms; "
          f"goal <= {GOAL_MS} ms (source + first launch {bind + first:.3f} ms): "
          f"{'met' if bind + first <= GOAL_MS else 'NOT met'}")
    assert first < cold.result["first_ms"], "a hit should be faster than compiling"
    assert len(entries(cache)) == 2


def stored_paths(c):
    """kernel name -> the entry file its "stored" debug line names."""
    out = {}
    for l in c.cache:
        if l.startswith("numjit cache: stored "):
            name = l.split(": ", 2)[2].split("(", 1)[0]
            out[name] = l.rsplit(" as ", 1)[1]
    return out


@pytest.mark.parametrize("how", ["flip", "truncate", "foreign"])
def test_damaged_entry_ignored_and_rewritten(env_dir, how):
    child, cache = env_dir
    cold = child()
    assert cold.rc == 0 and cold.result and cold.result["ok"], cold
    paths = stored_paths(cold)
    assert set(paths) == {"kern", "wild"} and len(entries(cache)) == 2, cold
    kern_path, wild_path = Path(paths["kern"]), Path(paths["wild"])
    data = bytearray(kern_path.read_bytes())
    if how == "flip":            # a byte of the cubin: the body's checksum no longer matches
        data[len(data) - 40] ^= 0x5A
        kern_path.write_bytes(bytes(data))
    elif how == "truncate":
        kern_path.write_bytes(bytes(data[: len(data) // 2]))
    else:                        # a valid entry of another key under this name
        kern_path.write_bytes(wild_path.read_bytes())
    fixed = child()
    assert fixed.rc == 0 and fixed.result and fixed.result["ok"], fixed
    assert [l for l in fixed.cache if "damaged entry" in l and kern_path.name in l], fixed
    assert fixed.notes("stored") and not fixed.notes("hit"), fixed
    assert fixed.notes("hit", "wild"), fixed   # the other entry is untouched
    again = child()
    assert again.rc == 0 and again.result["ok"] and again.notes("hit"), again
    assert not [l for l in again.cache if "damaged entry" in l], again
    assert len(entries(cache)) == 2


def test_errors_with_cache(env_dir):
    child, cache = env_dir
    for i in range(2):  # cold, then with kern and wild from the cache
        r = child("errors")
        assert r.rc == 0 and r.result and r.result["ok"], r
        assert "cubin_prog.py:" in r.result["bad"] and "Error" in r.result["bad"], r.result
        assert "kern" in r.result["threads"] and "no error" not in r.result["threads"], r.result
        assert not r.notes("stored", "bad"), r  # what does not type is never stored
        if i:
            assert r.notes("hit"), r
        print(f"INFO run {i}: typing error -> {r.result['bad'].splitlines()[0]}")
        print(f"INFO run {i}: 4096 threads -> {r.result['threads'].splitlines()[0]}")
    cold = child("illegal")      # wild from the cache (the runs above stored it) ...
    warm = child("illegal")      # ... in two processes: the first one's illegal address
                                 # must not have damaged or removed the entry
    for r in (cold, warm):
        assert r.result and r.result["ok"], r
        msg = r.result["illegal"]
        assert "no error" not in msg and "wild" in msg, r.result
        assert r.notes("hit", "wild"), r
        print(f"INFO illegal address in a kernel loaded from the cache: {msg.splitlines()[0]}")


UFUNC_PROGRAM = textwrap.dedent("""\
    import json, sys
    import numjit
    sys.modules["numba"] = numjit
    import numpy as np
    from numba import vectorize, guvectorize

    @vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
    def rel(x, y):
        return 2 * (x - y) / (x + y)

    @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()", target="cuda")
    def dot(a, b, out):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        out[0] = s

    x = np.linspace(1, 2, 1000, dtype=np.float32)
    y = x[::-1].copy()
    a = np.arange(64.0).reshape(8, 8)
    r = rel(x, y)
    i = rel(np.arange(1, 9, dtype=np.int32), np.ones(8, np.int32))   # int32 read by the f64 loop
    d = dot(a, a)
    ok = (np.allclose(r, 2 * (x - y) / (x + y)) and r.dtype == np.float32 and
          np.allclose(i, 2 * (np.arange(1, 9) - 1) / (np.arange(1, 9) + 1)) and
          np.allclose(d, (a * a).sum(1)))
    print("RESULT " + json.dumps({"ok": bool(ok)}))
""")


def test_gpu_ufunc_kernels_cached(tmp_path):
    """GPU ufunc and gufunc kernels go through the same cubin cache: the second process
    generates no PTX and gets the same results."""
    prog = tmp_path / "uf_prog.py"
    prog.write_text(UFUNC_PROGRAM)
    pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(numjit.__file__)))
    env = dict(os.environ, NUMJIT_CACHE="1", NUMJIT_CACHE_DEBUG="1",
               NUMJIT_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = os.pathsep.join(p for p in [pkg_root, env.get("PYTHONPATH", "")] if p)

    def child():
        return Child(subprocess.run([sys.executable, str(prog)], capture_output=True, text=True,
                                    env=env, timeout=300))
    cold = child()
    assert cold.rc == 0 and cold.result and cold.result["ok"], cold
    for name in ("rel", "dot"):
        assert cold.notes("stored", name), (name, cold)
    assert len(cold.notes("stored", "rel")) == 2, cold   # the float32 loop and the int32 one
    warm = child()
    assert warm.rc == 0 and warm.result and warm.result["ok"], warm
    for name in ("rel", "dot"):
        hits = warm.notes("hit", name)
        assert hits and all("PTX generated in this process: 0" in h for h in hits), (name, warm)
        assert not warm.notes("miss", name) and not warm.notes("stored", name), (name, warm)
