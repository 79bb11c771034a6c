"""The on-disk cache from Python: cache=True across processes.

Each scenario runs fresh interpreters (subprocess) that share one cache directory
(NUMJIT_CACHE_DIR, a temporary directory) and import a small module of cached functions.
NUMJIT_CACHE_DEBUG=1 makes the library say on stderr what the cache did: "hit ... (optimizer
runs in this process: N)", "miss", "stored", "damaged entry ... ignored".  A warm process must
hit every entry with the optimizer never run; editing a callee must recompile its caller; a
damaged entry must be ignored and rewritten; an unwritable directory must only turn caching
off.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numjit
import pytest

MODULE = """
import math
from numjit import njit, vectorize, guvectorize

BIAS = 1.0

@njit
def helper(x):
    return x * SCALE_TEXT + BIAS

@njit(cache=True)
def f(x, y):
    return helper(x) + y

@njit(cache=True)
def quot(a, b):
    return a // b

@vectorize(['float64(float64, float64)', 'float32(float32, float32)'], cache=True)
def rel(x, y):
    return 2 * (x - y) / (x + y)

@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()', cache=True)
def dot(a, b, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s

@njit
def plain(x):
    return math.sqrt(x) + 1.0
"""

DRIVER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import numjit
x = np.arange(1.0, 5.0)
y = x[::-1].copy()
out = {}
t = time.perf_counter()
import cachemod as m            # @vectorize/@guvectorize compile their loops here, as Numba's
out["rel"] = m.rel(x, y).tolist()
out["rel_ms"] = (time.perf_counter() - t) * 1e3
t = time.perf_counter()
out["f"] = m.f(3.0, 0.5)
out["f_ms"] = (time.perf_counter() - t) * 1e3
out["rel32"] = m.rel(x.astype(np.float32), y.astype(np.float32)).tolist()
out["dot"] = m.dot(np.arange(6.0).reshape(2, 3), np.ones((2, 3))).tolist()
try:
    m.quot(7, 0)
    out["quot"] = "no error"
except ZeroDivisionError as e:
    out["quot"] = str(e)
out["plain"] = m.plain(4.0)  # last: it is not cached and runs the optimizer
print(json.dumps(out))
"""


def _package_path():
    return str(pathlib.Path(numjit.__file__).resolve().parent.parent)


@pytest.fixture
def cache_env(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "driver.py").write_text(DRIVER)
    env = dict(os.environ)
    env["NUMJIT_CACHE_DIR"] = str(tmp_path / "cache")
    env["NUMJIT_CACHE_DEBUG"] = "1"
    env.pop("NUMJIT_CACHE", None)
    env["PYTHONPATH"] = _package_path() + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return src, env, tmp_path / "cache"


def write_module(src, scale="2.0"):
    (src / "cachemod.py").write_text(textwrap.dedent(MODULE).replace("SCALE_TEXT", scale))


def run(src, env):
    p = subprocess.run([sys.executable, str(src / "driver.py"), str(src)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = [l for l in p.stderr.splitlines() if l.startswith("numjit cache:")]
    return json.loads(p.stdout.strip().splitlines()[-1]), lines


def hits(lines):
    return [l for l in lines if ": hit " in l]


def optimizer_runs(lines):
    return [int(m.group(1)) for l in lines
            for m in [re.search(r"optimizer runs in this process: (\d+)", l)] if m]


def entries(cache):
    return sorted(cache.glob("*.nje")) if cache.exists() else []


def check_values(out, scale=2.0):
    assert out["rel"] == [-1.2, -0.4, 0.4, 1.2]
    assert out["f"] == 3.0 * scale + 1.0 + 0.5
    assert out["rel32"] == pytest.approx([-1.2, -0.4, 0.4, 1.2], rel=1e-6)
    assert out["dot"] == [3.0, 12.0]
    assert out["plain"] == 3.0
    assert "ZeroDivisionError" in out["quot"] and "a // b" in out["quot"]


def test_warm_process_runs_no_llvm(cache_env):
    src, env, cache = cache_env
    write_module(src)
    cold, cold_lines = run(src, env)
    check_values(cold)
    assert not hits(cold_lines)
    stored = [l for l in cold_lines if ": stored " in l]
    assert len(stored) == 5, cold_lines  # f, quot, rel f64, rel f32, dot; plain is not cached
    assert len(entries(cache)) == 5
    warm, warm_lines = run(src, env)
    check_values(warm)
    assert warm["quot"] == cold["quot"]  # the rendered raise message comes from the entry
    assert len(hits(warm_lines)) == 5, warm_lines
    assert not [l for l in warm_lines if ": miss " in l or ": stored " in l]
    # the optimizer never ran up to the last hit (plain, not cached, compiles after it)
    assert optimizer_runs(warm_lines) == [0] * 5
    print(f"\nfirst call from Python: @vectorize cold {cold['rel_ms']:.2f} ms, warm "
          f"{warm['rel_ms']:.3f} ms; @njit cold {cold['f_ms']:.2f} ms, warm {warm['f_ms']:.3f} ms")
    assert warm["rel_ms"] < cold["rel_ms"]


def test_editing_a_callee_recompiles_its_caller(cache_env):
    src, env, cache = cache_env
    write_module(src, "2.0")
    out, _ = run(src, env)
    check_values(out, 2.0)
    write_module(src, "5.0")  # helper (not cached itself) changes; f calls it
    out, lines = run(src, env)
    check_values(out, 5.0)
    assert [l for l in lines if ": miss " in l and " f(" in l], lines
    assert len(hits(lines)) == 4, lines  # everything else is unchanged
    out, lines = run(src, env)
    check_values(out, 5.0)
    assert len(hits(lines)) == 5


def test_damaged_entries_are_ignored_and_rewritten(cache_env):
    src, env, cache = cache_env
    write_module(src)
    run(src, env)
    files = entries(cache)
    assert len(files) == 5
    for i, path in enumerate(files):
        data = bytearray(path.read_bytes())
        if i % 2:
            data[-10] ^= 0xFF      # a flipped bit in the payload
        else:
            data = data[: len(data) // 2]  # truncated
        path.write_bytes(bytes(data))
    out, lines = run(src, env)
    check_values(out)
    assert len([l for l in lines if "damaged entry" in l]) == 5, lines
    assert len([l for l in lines if ": stored " in l]) == 5, lines
    out, lines = run(src, env)
    check_values(out)
    assert len(hits(lines)) == 5, lines


def test_unwritable_directory_is_not_an_error(cache_env, tmp_path):
    src, env, _ = cache_env
    write_module(src)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    env["NUMJIT_CACHE_DIR"] = str(blocker / "cache")
    out, lines = run(src, env)
    check_values(out)
    assert [l for l in lines if "not caching" in l], lines
    env.pop("NUMJIT_CACHE_DEBUG")
    p = subprocess.run([sys.executable, str(src / "driver.py"), str(src)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "numjit cache" not in p.stderr, p.stderr


def test_numjit_cache_env_caches_every_function(cache_env):
    src, env, cache = cache_env
    write_module(src)
    env["NUMJIT_CACHE"] = "1"
    run(src, env)
    assert len(entries(cache)) == 6  # plain too
    _, lines = run(src, env)
    assert len(hits(lines)) == 6
    assert optimizer_runs(lines) == [0] * 6


def test_cache_command(cache_env):
    src, env, cache = cache_env
    build = os.environ.get("NUMJIT_BUILD")
    exe = pathlib.Path(build) / "numjit" if build else None
    if not exe or not exe.exists():
        pytest.skip("the numjit command is not built here (set NUMJIT_BUILD)")
    write_module(src)
    run(src, env)
    p = subprocess.run([str(exe), "cache", "list"], env=env, capture_output=True, text=True)
    assert p.returncode == 0 and "5 entries" in p.stdout and "rel(float64, float64)" in p.stdout
    p = subprocess.run([str(exe), "cache", "clear"], env=env, capture_output=True, text=True)
    assert p.returncode == 0 and "removed 5 entries" in p.stdout
    assert not entries(cache)


def _measure(n):
    """Medians of n cold and n warm fresh interpreters (for docs/performance.md):
    PYTHONPATH=build/python /usr/bin/python3 tests/python/test_cache.py --measure 7"""
    import shutil
    import statistics
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        src = tmp / "src"
        src.mkdir()
        (src / "driver.py").write_text(DRIVER)
        write_module(src)
        env = dict(os.environ, NUMJIT_CACHE_DIR=str(tmp / "cache"), PYTHONDONTWRITEBYTECODE="1")
        env["PYTHONPATH"] = _package_path() + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("NUMJIT_CACHE_DEBUG", None)
        rows = {"cold": [], "warm": []}
        for _ in range(n):
            shutil.rmtree(tmp / "cache", ignore_errors=True)
            rows["cold"].append(run(src, env)[0])
            rows["warm"].append(run(src, env)[0])
    print(f"medians of {n} fresh interpreters (cold cache / warm cache):")
    for key, what in (("rel_ms", "first call of a two-signature @vectorize"),
                      ("f_ms", "then the first call of an @njit")):
        cold = statistics.median(r[key] for r in rows["cold"])
        warm = statistics.median(r[key] for r in rows["warm"])
        print(f"  {what}: {cold:.2f} / {warm:.3f} ms")


if __name__ == "__main__":
    _measure(int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--measure" else 7)


RECORD_MODULE = """
import numpy as np
from numjit import njit

@njit(cache=True)
def tail(a, k):
    for i in range(a.shape[0]):
        a[i].x += k
    return a[1:]
"""

RECORD_DRIVER = """
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import recmod
out = {}
for name, dt in (("packed", np.dtype([("x", "f8"), ("y", "i4")])),
                 ("aligned", np.dtype([("y", "i4"), ("x", "f8")], align=True))):
    a = np.zeros(3, dt)
    r = recmod.tail(a, 1.5)
    out[name] = [str(r.dtype), r["x"].tolist(), a["x"].tolist()]
print(json.dumps(out))
"""


def test_arrays_of_records_are_cached_per_record_type(cache_env):
    """Each record type is an entry of its own, and a warm process loads both (the record's
    spelling is kept with the returned array's type)."""
    src, env, cache = cache_env
    (src / "recmod.py").write_text(textwrap.dedent(RECORD_MODULE))
    (src / "driver.py").write_text(RECORD_DRIVER)
    cold, cold_lines = run(src, env)
    assert len(entries(cache)) == 2 and not hits(cold_lines)
    warm, warm_lines = run(src, env)
    assert warm == cold and len(hits(warm_lines)) == 2
    assert cold["packed"][1] == [1.5, 1.5] and cold["aligned"][2] == [1.5, 1.5, 1.5]
    assert "'x'" in cold["packed"][0] and "'y'" in cold["aligned"][0]
