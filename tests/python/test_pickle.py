"""numjit functions pickle by value (numjit.serialize): @njit dispatchers, ufuncs, gufuncs,
DUFuncs and CUDA kernels round-trip through pickle and cloudpickle, load in a process that
cannot import the module they came from, and a pool of worker processes compiles a cached
function once: the second worker loads what the first stored (numjit.cache_stats()).
"""
import concurrent.futures
import importlib.util
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numjit

MOD = textwrap.dedent('''
    import math
    import numpy as np
    from numba import njit, vectorize, guvectorize, cuda

    SCALE = 3.0

    @njit(cache=True)
    def f(x, n=2):
        s = 0.0
        for i in range(x.shape[0]):
            s += math.sqrt(x[i]) * SCALE + n
        return s

    @vectorize(["float64(float64, float64)", "float32(float32, float32)"], cache=True)
    def rel(x, y):
        return 2 * (x - y) / (x + y)

    @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
    def dot(a, b, out):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        out[0] = s

    @vectorize
    def dyn(x, y):
        return x * y + SCALE

    @vectorize(["float32(float32, float32)"], target="cuda")
    def gpu_add(x, y):
        return x + y

    @cuda.jit
    def kern(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1
''')


def _load(path, name):
    saved = sys.modules.get("numba")
    sys.modules["numba"] = numjit
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        if saved is None:
            sys.modules.pop("numba", None)
        else:
            sys.modules["numba"] = saved
    return mod


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    d = tmp_path_factory.mktemp("pickled")
    (d / "pickled_mod.py").write_text(MOD)
    m = _load(str(d / "pickled_mod.py"), "pickled_mod")   # not importable by name
    m.dyn(np.arange(3.0), 2.0)                            # one loop compiled: 'dd->d'
    return m


def _check(m2):
    x = np.arange(1.0, 5.0)
    assert m2["f"](x) == pytest.approx(sum(np.sqrt(x) * 3.0 + 2))
    assert m2["f"](x, 5) == pytest.approx(sum(np.sqrt(x) * 3.0 + 5))
    np.testing.assert_allclose(m2["rel"](x, x[::-1]), 2 * (x - x[::-1]) / (x + x[::-1]))
    assert isinstance(m2["rel"], np.ufunc) and m2["rel"].types == ["dd->d", "ff->f"]
    np.testing.assert_allclose(m2["dot"](x.reshape(2, 2), x.reshape(2, 2)), [5.0, 25.0])
    assert m2["dyn"].types == ["dd->d"]
    np.testing.assert_array_equal(m2["dyn"](x, 2.0), x * 2 + 3.0)


def _objects(m):
    return {"f": m.f, "rel": m.rel, "dot": m.dot, "dyn": m.dyn}


def test_pickle_round_trip_in_process(mod):
    _check({k: pickle.loads(pickle.dumps(v)) for k, v in _objects(mod).items()})
    k = pickle.loads(pickle.dumps(mod.kern))
    assert type(k) is type(mod.kern) and k.__name__ == "kern"
    assert k.inspect_ptx("void(float32[:])").count(".entry") == 1    # needs no GPU
    g = pickle.loads(pickle.dumps(mod.gpu_add))
    assert type(g) is type(mod.gpu_add) and g.__name__ == "gpu_add" and g.nin == 2
    assert g._texts == mod.gpu_add._texts == ["float32(float32, float32)"]


def test_cloudpickle_round_trip(mod):
    cloudpickle = pytest.importorskip("cloudpickle")
    _check({k: cloudpickle.loads(cloudpickle.dumps(v)) for k, v in _objects(mod).items()})


def test_loads_where_the_module_is_not(mod, tmp_path):
    """A child process without the module (and with Numba not imported) runs them."""
    blob = tmp_path / "objs.pkl"
    blob.write_bytes(pickle.dumps(_objects(mod)))
    code = textwrap.dedent(f'''
        import pickle, sys
        import numpy as np
        objs = pickle.loads(open({str(blob)!r}, "rb").read())
        x = np.arange(1.0, 5.0)
        print(round(objs["f"](x), 9), objs["rel"](x, 1.0).tolist(), objs["dyn"](x, 2.0).tolist(),
              "numba" in sys.modules and sys.modules["numba"].__name__)
    ''')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(numjit.__file__)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=str(tmp_path), env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    want = round(float(sum(np.sqrt(np.arange(1.0, 5.0)) * 3.0 + 2)), 9)
    x = np.arange(1.0, 5.0)
    assert r.stdout.split()[0] == str(want)
    assert str((2 * (x - 1) / (x + 1)).tolist()).replace(" ", "") in r.stdout.replace(" ", "")
    assert r.stdout.strip().endswith("False")


def _work(blob, x):
    """Runs in a fresh pool worker: unpickles (rel's loops compile here) and calls the
    function and the ufunc; returns what the cache did in this process."""
    import pickle
    import numjit
    objs = pickle.loads(blob)
    r = (objs["f"](x), objs["rel"](x, x[::-1]).tolist())
    return os.getpid(), r, numjit.cache_stats()


def test_pool_workers_share_compiled_code(mod, tmp_path, monkeypatch):
    """Two worker processes: the first compiles f and rel's loops and stores them in the
    on-disk cache, the second loads them from it (hits, no stores)."""
    monkeypatch.setenv("NUMJIT_CACHE_DIR", str(tmp_path / "cache"))
    blob = pickle.dumps({"f": mod.f, "rel": mod.rel})
    x = np.arange(1.0, 5.0)
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    runs = []
    for _ in range(2):     # one worker after the other, each a fresh process
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            runs.append(pool.submit(_work, blob, x).result(timeout=120))
    (pid1, r1, s1), (pid2, r2, s2) = runs
    assert pid1 != pid2 and r1 == r2
    assert r1[0] == pytest.approx(mod.f(x))
    # the first worker compiles and stores f and rel's two loops; the second loads all three
    assert s1["stores"] == 3 and s1["hits"] == 0, s1
    assert s2["stores"] == 0 and s2["hits"] == 3, s2
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        got = list(pool.map(_work, [blob] * 2, [x] * 2))
    assert all(g[1] == r1 and g[2] == {"hits": 3, "misses": 0, "stores": 0} for g in got)


DECLARED = textwrap.dedent('''
    from numba import njit, float64, int64

    @njit([float64(float64), int64(int64)])
    def g(x):
        return x + 1

    @njit("float64(float64)")
    def f(x):
        return x * 2
''')


def test_declared_signatures_travel(tmp_path):
    """A dispatcher with declared signatures keeps them through pickling, and compiles no
    others, as Numba's: an int argument converts to the declared float64, compile() raises."""
    src = tmp_path / "declared_mod.py"
    src.write_text(DECLARED.replace("from numba", "from numjit"))
    m = _load(str(src), "declared_mod")
    with pytest.raises(RuntimeError, match="compilation disabled"):
        m.f.compile("float64(int64)")
    blob = tmp_path / "declared.pkl"
    blob.write_bytes(pickle.dumps({"f": m.f, "g": m.g}))
    src.unlink()  # the child cannot import the module
    code = textwrap.dedent(f'''
        import pickle
        objs = pickle.loads(open({str(blob)!r}, "rb").read())
        f, g = objs["f"], objs["g"]
        print(f(3), g(2), g(2.5), [tuple(str(t) for t in s) for s in g.signatures])
        try:
            f.compile("float64(int64)")
        except RuntimeError as e:
            print("RuntimeError", e)
    ''')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(numjit.__file__)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=str(tmp_path), env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["6.0 3 3.5 [('float64',), ('int64',)]",
                                     "RuntimeError compilation disabled"]
