"""@vectorize and @guvectorize give real numpy.ufunc objects: what NumPy's machinery adds.

NumPy's own ufunc tests check these behaviours for its ufuncs; here they must hold for ufuncs
whose loops numjit compiled: reduce, accumulate, reduceat, outer, at, out=, where=, casting=,
dtype=, axes=, ndarray subclasses and __array_wrap__, __array_ufunc__ overrides, the parallel
target, and Numba's DUFunc for ufuncs without signatures.
"""
import importlib.util
import sys
import textwrap

import numpy as np
import pytest

import numjit


def _load(tmp_path_factory, name, text):
    path = tmp_path_factory.mktemp(name) / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return _load(tmp_path_factory, "npufunc_mod", """
        import math
        from numjit import vectorize, guvectorize

        @vectorize(["float64(float64, float64)", "int64(int64, int64)"], identity=0)
        def add(a, b):
            return a + b

        @vectorize(["float64(float64, float64)"])
        def rel(x, y):
            return 2 * (x - y) / (x + y)

        @vectorize(["float64(float64, float64)"], target="parallel")
        def psin(x, y):
            return math.sin(x) * y

        @vectorize(["float64(float64, float64)"])
        def ssin(x, y):
            return math.sin(x) * y

        @guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
        def dot(a, b, out):
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i] * b[i]
            out[0] = s

        @guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="parallel")
        def rowsum(a, out):
            t = 0.0
            for i in range(a.shape[0]):
                t += a[i]
            out[0] = t

        @vectorize
        def dyn(x, y):
            return x * y + 1
    """)


def test_they_are_numpy_ufuncs(m):
    for f in (m.add, m.rel, m.psin, m.dot, m.rowsum):
        assert isinstance(f, np.ufunc)
    assert m.add.__name__ == "add" and m.add.nin == 2 and m.add.nout == 1
    assert m.add.types == ["dd->d", "ll->l"] and m.add.identity == 0
    assert m.dot.signature == "(n),(n)->()"
    assert m.rel.identity is None
    assert not isinstance(m.dyn, np.ufunc) and isinstance(m.dyn.ufunc, np.ufunc)  # DUFunc


def test_reduce_accumulate_reduceat_outer_at(m):
    a = np.arange(1.0, 13.0).reshape(3, 4)
    np.testing.assert_array_equal(m.add.reduce(a), np.add.reduce(a))
    np.testing.assert_array_equal(m.add.reduce(a, axis=(0, 1)), a.sum())
    np.testing.assert_array_equal(m.add.reduce(a, axis=1, keepdims=True), a.sum(1, keepdims=True))
    assert m.add.reduce(np.zeros(0)) == 0.0
    np.testing.assert_array_equal(m.add.accumulate(a, axis=1), np.add.accumulate(a, axis=1))
    np.testing.assert_array_equal(m.add.reduceat(a[0], [0, 2]), np.add.reduceat(a[0], [0, 2]))
    np.testing.assert_array_equal(m.add.outer(a[0], a[1]), np.add.outer(a[0], a[1]))
    x = np.zeros(5)
    m.add.at(x, [0, 1, 1, 4], 1.0)
    np.testing.assert_array_equal(x, [1, 2, 0, 0, 1])
    i = np.arange(10)
    assert m.add.reduce(i) == 45 and m.add.reduce(i).dtype == np.int64
    with pytest.raises(ValueError, match="identity"):
        m.rel.reduce(np.zeros(0))


def test_out_where_casting_dtype(m):
    x = np.linspace(1, 2, 10)
    y = x[::-1].copy()
    out = np.full(10, -7.0)
    r = m.rel(x, y, out=out, where=x > 1.5)
    assert r is out
    want = np.where(x > 1.5, 2 * (x - y) / (x + y), -7.0)
    np.testing.assert_array_equal(out, want)
    out32 = np.zeros(10, np.float32)
    with pytest.raises(TypeError):
        m.rel(x, y, out=out32, casting="safe")
    m.rel(x, y, out=out32, casting="same_kind")
    np.testing.assert_allclose(out32, 2 * (x - y) / (x + y), rtol=1e-6)
    r = m.add(np.arange(3), np.arange(3), dtype=np.float64)
    assert r.dtype == np.float64
    assert m.add(np.arange(3), np.arange(3)).dtype == np.int64
    with pytest.raises(TypeError):
        m.add(np.ones(3, np.complex128), 1.0)


def test_gufunc_axes_and_broadcasting(m):
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(m.dot(a, a), (a * a).sum(1))
    np.testing.assert_allclose(m.dot(a, a, axes=[(0,), (0,), ()]), (a * a).sum(0))
    np.testing.assert_allclose(m.dot(a, a[0]), a @ a[0])
    with pytest.raises(ValueError):
        m.dot(np.ones((3, 4)), np.ones(5))


class Tagged(np.ndarray):
    def __array_wrap__(self, obj, context=None):
        r = super().__array_wrap__(obj, context)
        r.tag = "wrapped"
        return r


class Override:
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ("override", ufunc.__name__, method)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_subclasses_and_overrides(m):
    t = np.arange(4.0).view(Tagged)
    r = m.add(t, 1.0)
    assert type(r) is Tagged and r.tag == "wrapped"
    np.testing.assert_array_equal(r, np.arange(1.0, 5.0))
    mat = np.matrix([[1.0, 2.0]])
    assert type(m.add(mat, mat)) is np.matrix
    assert m.add(Override(), 1.0) == ("override", "add", "__call__")
    assert m.add.reduce(Override()) == ("override", "add", "reduce")


def test_parallel_target(m):
    x = np.linspace(0, 10, 300_001)
    np.testing.assert_array_equal(m.psin(x, x), m.ssin(x, x))
    np.testing.assert_array_equal(m.psin(x[::3], 2.0), m.ssin(x[::3], 2.0))
    X = x[:300_000].reshape(-1, 30)
    np.testing.assert_allclose(m.rowsum(X), X.sum(1), rtol=1e-13)
    old = numjit.get_num_threads()
    try:
        numjit.set_num_threads(1)
        np.testing.assert_array_equal(m.psin(x, x), m.ssin(x, x))
    finally:
        numjit.set_num_threads(old)


def test_dynamic_ufunc_grows_its_loops(m):
    f = m.dyn
    assert f.types == []
    r = f(np.arange(4, dtype=np.int32), np.int32(3))
    assert r.dtype == np.int64 and list(r) == [1, 4, 7, 10]
    assert f(np.ones(3), 2.0).dtype == np.float64
    assert f.types == ["ii->l", "dd->d"]
    assert f(np.arange(3, dtype=np.int32), 2).dtype == np.int64      # reuses 'ii->l'
    assert f.types == ["ii->l", "dd->d"]
    np.testing.assert_array_equal(f.reduce(np.arange(1.0, 4.0)), (1 * 2 + 1) * 3 + 1)
    with pytest.raises(TypeError):
        f(np.array(["a"]), np.array(["b"]))


def test_falls_back_where_numpys_c_api_is_another_major(monkeypatch):
    """An extension built against NumPy 1.x headers raises ImportError on NumPy 2's C API:
    the decorators then give numjit's own ufunc objects, which still compute."""
    import numjit.ufunc as uf

    def refuse(*args, **kws):
        raise ImportError("compiled using NumPy 1.x")
    monkeypatch.setattr(uf._numjit, "_numpy_ufunc", refuse)
    monkeypatch.setattr(uf, "_numpy_api_ok", True)

    @numjit.vectorize(["float64(float64, float64)"])
    def add(x, y):
        return x + y

    @numjit.vectorize
    def mul(x, y):
        return x * y

    assert not isinstance(add, np.ufunc)
    assert np.array_equal(add(np.arange(3.0), 1.0), np.arange(3.0) + 1.0)
    assert np.array_equal(mul(np.arange(3), 2), np.arange(3) * 2)
    assert uf._numpy_api_ok is False
