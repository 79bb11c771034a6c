"""numjit in the PyData ecosystem: a numjit ufunc takes a Dask array, an xarray DataArray and a
pandas Series and gives back the same kind of object (NumPy's __array_ufunc__ protocol, since
it is a numpy.ufunc), and examples/dask_numjit.py runs on a LocalCluster of worker processes
(small sizes here; bounded in time).
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import numjit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = os.path.dirname(os.path.dirname(os.path.abspath(numjit.__file__)))


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    path = tmp_path_factory.mktemp("eco") / "eco_mod.py"
    path.write_text(
        "from numjit import vectorize, guvectorize\n"
        "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
        "def rel(x, y):\n"
        "    return 2 * (x - y) / (x + y)\n"
        "@vectorize\n"
        "def dyn(x, y):\n"
        "    return x * y\n"
        "@guvectorize(['void(float64[:], float64[:])'], '(n)->()')\n"
        "def total(a, out):\n"
        "    s = 0.0\n"
        "    for i in range(a.shape[0]):\n"
        "        s += a[i]\n"
        "    out[0] = s\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location("eco_mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pandas_series_unchanged(m):
    pd = pytest.importorskip("pandas")
    s = pd.Series([1.0, 2.0, 4.0], index=["a", "b", "c"], name="v")
    r = m.rel(s, 1.0)
    assert isinstance(r, pd.Series) and list(r.index) == ["a", "b", "c"] and r.name == "v"
    np.testing.assert_allclose(r.values, 2 * (s.values - 1) / (s.values + 1))
    r = m.dyn(s, s)
    assert isinstance(r, pd.Series) and list(r) == [1.0, 4.0, 16.0]


def test_xarray_dataarray_unchanged(m):
    xr = pytest.importorskip("xarray")
    a = xr.DataArray(np.arange(1.0, 7.0).reshape(2, 3), dims=("t", "x"),
                     coords={"t": [10, 20], "x": [1, 2, 3]}, attrs={"units": "m"})
    r = m.rel(a, 2.0)
    assert isinstance(r, xr.DataArray) and r.dims == ("t", "x")
    assert list(r.coords["t"].values) == [10, 20]
    np.testing.assert_allclose(r.values, 2 * (a.values - 2) / (a.values + 2))
    g = xr.apply_ufunc(m.total, a, input_core_dims=[["x"]])
    assert g.dims == ("t",) and list(g.values) == [6.0, 15.0]


def test_dask_array_goes_through(m):
    da = pytest.importorskip("dask.array")
    x = da.from_array(np.linspace(1, 2, 1000), chunks=100)
    r = m.rel(x, 1.5)
    assert isinstance(r, da.Array) and r.chunks == x.chunks
    want = 2 * (np.linspace(1, 2, 1000) - 1.5) / (np.linspace(1, 2, 1000) + 1.5)
    np.testing.assert_allclose(r.compute(scheduler="sync"), want)
    g = da.apply_gufunc(m.total, "(n)->()", x.reshape(10, 100).rechunk((5, 100)))
    np.testing.assert_allclose(g.compute(scheduler="sync"),
                               np.linspace(1, 2, 1000).reshape(10, 100).sum(1))


def test_example_on_local_cluster(tmp_path):
    pytest.importorskip("dask.distributed")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in [PKG, os.environ.get("PYTHONPATH", "")] if p),
        NUMJIT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "dask_numjit.py"),
                        "--elements", "2e6", "--chunk", "2.5e5", "--workers", "2",
                        "--memory-limit", "1GB"], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert "on 2 workers" in r.stdout and "results match NumPy" in r.stdout
