"""@vectorize and @guvectorize from Python: numjit's ufuncs against Numba's, case for case.

The same module text (PROGS) is run under real Numba in a child process and under numjit
here (sys.modules['numba'] = numjit while it is imported); CASES calls both the same way and
every result must have the same type, dtype, shape and values (or raise the same kind of
exception).  Where Numba is not installed those comparisons skip; the direct tests below
still check values against NumPy.
"""
import importlib.util
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numjit
from conftest import load_under_numjit

PROGS = textwrap.dedent('''
import math
import numpy as np
from numba import vectorize, guvectorize, float64, float32, int32, int64, boolean

@vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def rel(x, y):
    return 2 * (x - y) / (x + y)

@vectorize(["float32(float32, float32)", "float64(float64, float64)"])
def rel2(x, y):
    return 2 * (x - y) / (x + y)

@vectorize([float64(float64)])
def trig(x):
    return math.sin(x) ** 2 + math.cos(x) ** 2

@vectorize(["int64(int64, int64)", "int32(int32, int32)"])
def bits(a, b):
    return (a ^ b) & (a | 3) << 1

@vectorize(["boolean(float64)"])
def pos(x):
    return x > 0

@vectorize(["float64(float64, int64)"])
def loop(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            s += x
        else:
            s -= x / 2
    return s

@vectorize(["float64(float64, float64)"], identity=0)
def add(a, b):
    return a + b

@vectorize
def dyn(x, y):
    return x * y + 1

@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def dot(a, b, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    out[0] = s

@guvectorize(["void(float64[:], float64, float64[:])", "void(float32[:], float32, float32[:])"], "(n),()->(n)")
def scale(a, c, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * c

@guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)")
def matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s

@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),()->()")
def sumplus(a, c, out):
    s = c[0]
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s
''')

CASES = textwrap.dedent('''
import numpy as np
def cases(m):
    x = np.linspace(1, 2, 12); y = x[::-1].copy()
    x32 = x.astype(np.float32); y32 = y.astype(np.float32)
    i32 = np.arange(12, dtype=np.int32); i64 = np.arange(12)
    A = np.arange(12.).reshape(3, 4) + 1
    out = []
    def r(name, f):
        try:
            v = f()
            out.append((name, v))
        except Exception as e:
            out.append((name, ("EXC", type(e).__name__)))
    r("rel", lambda: m.rel(x, y))
    r("rel f32", lambda: m.rel(x32, y32))
    r("rel2 f32", lambda: m.rel2(x32, y32))
    r("rel2 f32+pyfloat", lambda: m.rel2(x32, 2.0))
    r("rel2 f32+big", lambda: m.rel2(x32, 1e300))
    r("rel2 i32", lambda: m.rel2(i32, i32 + 1))
    r("rel2 i32 + 3", lambda: m.rel2(i32, 3))
    r("rel2 i64 + f32", lambda: m.rel2(i64, x32))
    r("rel scalars", lambda: m.rel(1.0, 3.0))
    r("rel2 scalars", lambda: m.rel2(1.0, 3.0))
    r("rel2 np.float32 scalars", lambda: m.rel2(np.float32(1.0), np.float32(3.0)))
    r("rel 0d", lambda: m.rel(np.array(1.0), np.array(2.0)))
    r("rel2 f32 + 0d f64", lambda: m.rel2(x32, np.array(2.0)))
    r("rel 2d x 1d", lambda: m.rel(A, x[:4]))
    r("rel col x row", lambda: m.rel(A[:, :1], x[:4]))
    r("rel strided", lambda: m.rel(x[::2], y[::-2]))
    r("rel F", lambda: m.rel(np.asfortranarray(A), np.asfortranarray(A) + 1))
    r("rel list", lambda: m.rel([1.0, 2.0], [3.0, 4.0]))
    r("rel out", lambda: m.rel(x, y, out=np.empty(12)))
    r("rel out f32", lambda: m.rel(x, y, out=np.empty(12, np.float32)))
    r("rel out i32", lambda: m.rel(x, y, out=np.empty(12, np.int32)))
    r("rel out shape", lambda: m.rel(x, y, out=np.empty(11)))
    r("rel bcast err", lambda: m.rel(x, y[:5]))
    r("rel complex", lambda: m.rel(x.astype(complex), y))
    r("trig", lambda: m.trig(x))
    r("trig int", lambda: m.trig(i32))
    r("bits", lambda: m.bits(i64, i64 + 5))
    r("bits i32", lambda: m.bits(i32, i32 + 5))
    r("bits i32 + 1", lambda: m.bits(i32, 1))
    r("bits i8", lambda: m.bits(i32.astype(np.int8), 1))
    r("bits u8", lambda: m.bits(i32.astype(np.uint8), 1))
    r("bits f", lambda: m.bits(x, 1))
    r("pos", lambda: m.pos(x - 1.5))
    r("loop", lambda: m.loop(x, 5))
    r("loop i32", lambda: m.loop(x, i32))
    r("add reduce", lambda: m.add.reduce(A))
    r("add reduce ax1", lambda: m.add.reduce(A, axis=1))
    r("add reduce None", lambda: m.add.reduce(A, axis=None))
    r("add reduce empty", lambda: m.add.reduce(np.zeros((0,))))
    r("add reduce i32", lambda: m.add.reduce(i32))
    r("add outer", lambda: m.add.outer(x[:3], y[:4]))
    r("dyn 1", lambda: m.dyn(x, 2))
    r("dyn 2", lambda: m.dyn(i64, 2))
    r("dyn 3", lambda: m.dyn(i32, i32))
    r("dyn 4", lambda: m.dyn(x32, np.float32(2)))
    r("dyn 5", lambda: m.dyn(True, False))
    r("dyn types", lambda: m.dyn.types)
    r("dot", lambda: m.dot(A, A))
    r("dot 1d", lambda: m.dot(x, y))
    r("dot bcast", lambda: m.dot(A, x[:4]))
    r("dot i32", lambda: m.dot(A.astype(np.int32), A))
    r("dot mismatch", lambda: m.dot(A, x[:3]))
    r("scale", lambda: m.scale(A, 2.0))
    r("scale f32", lambda: m.scale(A.astype(np.float32), 2.0))
    r("scale vec", lambda: m.scale(A, np.array([1.0, 2.0, 3.0])[:, None]))
    r("matmul", lambda: m.matmul(A, A.T))
    r("matmul stack", lambda: m.matmul(np.stack([A, A]), A.T))
    r("sumplus", lambda: m.sumplus(A, 10.0))
    r("sumplus vec", lambda: m.sumplus(A, np.array([1.0, 2.0, 3.0])))
    r("dot out", lambda: m.dot(A, A, np.empty(3)))
    def overlap(f, how):  # out= overlapping an input: NumPy reads every input first
        z = np.linspace(1, 2, 12)
        M = A[:, :3].copy()
        if how == "shift":
            f(z[:-1], z[1:], out=z[1:])
        elif how == "back":
            f(z[1:], z[:-1], out=z[:-1])
        elif how == "same":
            f(z, z, out=z)
        elif how == "reversed":
            f(z, 2.0, out=z[::-1])
        elif how == "matmul":
            f(M, M, out=M)
            return M
        elif how == "rows":
            f(M, 2.0, out=M[::-1])
            return M
        return z
    for how in ("shift", "back", "same", "reversed"):
        r("rel overlap " + how, lambda how=how: overlap(m.rel, how))
    r("matmul overlap", lambda: overlap(m.matmul, "matmul"))
    r("scale overlap rows", lambda: overlap(m.scale, "rows"))
    r("nin", lambda: (m.rel.nin, m.rel.nout, m.rel.nargs, m.rel.ntypes, m.rel.types, m.add.identity, m.rel.identity))
    r("gu sig", lambda: (m.dot.signature, m.dot.nin, m.dot.nout))
    return out
''')

RUNNER = textwrap.dedent('''
    import sys, importlib.util, pickle
    d = sys.argv[1]
    sys.path.insert(0, d)
    spec = importlib.util.spec_from_file_location("progs_nb", d + "/progs.py")
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    from cases import cases
    res = [(n, v if not (isinstance(v, tuple) and v and v[0] == "EXC") else v) for n, v in cases(m)]
    pickle.dump(res, open(d + "/numba.pkl", "wb"))
''')




@pytest.fixture(scope="module")
def progs(tmp_path_factory):
    d = tmp_path_factory.mktemp("ufunc")
    (d / "progs.py").write_text(PROGS)
    (d / "cases.py").write_text(CASES)
    (d / "runner.py").write_text(RUNNER)
    return d, load_under_numjit(str(d / "progs.py"), "progs_numjit_ufunc")


def _cases_module(d):
    spec = importlib.util.spec_from_file_location("cases_ufunc", str(d / "cases.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_FAMILY = (ValueError, TypeError, NotImplementedError)


def _family(name):
    for fam in _FAMILY:
        if name == fam.__name__ or name in ("UFuncTypeError", "TypingError") and fam is TypeError:
            return fam.__name__
    return name


def test_same_as_numba(progs):
    d, m = progs
    try:
        import numba  # noqa: F401  (real Numba, only to know it is there)
    except ImportError:
        pytest.skip("Numba is not installed")
    if getattr(sys.modules.get("numba"), "__name__", "") == "numjit":
        pytest.skip("numba is numjit in this process")
    r = subprocess.run([sys.executable, str(d / "runner.py"), str(d)], capture_output=True,
                       text=True, env={k: v for k, v in os.environ.items()
                                       if k != "PYTHONPATH"})
    if r.returncode != 0:
        pytest.skip("Numba failed to run the programs: " + r.stderr[-500:])
    want = pickle.load(open(d / "numba.pkl", "rb"))
    got = _cases_module(d).cases(m)
    bad = []
    for (name, a), (_, b) in zip(want, got):
        exc_a = isinstance(a, tuple) and a[:1] == ("EXC",)
        exc_b = isinstance(b, tuple) and b[:1] == ("EXC",)
        if exc_a or exc_b:
            ok = exc_a and exc_b and _family(a[1]) == _family(b[1])
        elif isinstance(a, (np.ndarray, np.generic)):
            ok = (type(a) is type(b) and a.dtype == b.dtype and np.shape(a) == np.shape(b) and
                  np.allclose(a, b, rtol=1e-12, atol=0, equal_nan=True))
        else:
            ok = a == b
        if not ok:
            bad.append(f"{name}: numba {a!r} numjit {b!r}")
    assert not bad, "\n".join(bad)


def test_values_against_numpy(progs):
    _, m = progs
    x = np.linspace(1, 2, 101)
    y = x[::-1].copy()
    np.testing.assert_allclose(m.rel(x, y), 2 * (x - y) / (x + y), rtol=1e-15)
    np.testing.assert_allclose(m.trig(x * 7), np.ones_like(x), rtol=1e-14)
    assert m.rel(x.astype(np.float32), y.astype(np.float32)).dtype == np.float64  # declared order
    assert m.rel2(x.astype(np.float32), y.astype(np.float32)).dtype == np.float32
    assert m.rel2(x.astype(np.float32), 2.0).dtype == np.float32      # value-based scalar
    # NumPy 1.x judges scalars by value; NumPy 2 by NEP 50: a Python float is weak (float32
    # loop even for 1e300), a NumPy float64 strong (float64 loop even for 2.0)
    np2 = int(np.__version__.split(".")[0]) >= 2
    assert m.rel2(x.astype(np.float32), 1e300).dtype == (np.float32 if np2 else np.float64)
    assert m.rel2(x.astype(np.float32), np.float64(2.0)).dtype == (np.float64 if np2 else np.float32)
    r = m.rel(1.0, 3.0)
    assert type(r) is np.float64 and r == -1.0
    i = np.arange(20)
    np.testing.assert_array_equal(m.bits(i, i + 5), (i ^ (i + 5)) & (i | 3) << 1)
    assert m.pos(x - 1.5).dtype == np.bool_


def test_broadcast_strides_and_out(progs):
    _, m = progs
    A = np.arange(1.0, 25.0).reshape(4, 6)
    v = np.linspace(1, 2, 6)
    np.testing.assert_allclose(m.rel(A, v), 2 * (A - v) / (A + v))
    np.testing.assert_allclose(m.rel(A[::-2, ::3], v[::-3]), 2 * (A[::-2, ::3] - v[::-3]) /
                               (A[::-2, ::3] + v[::-3]))
    B = np.broadcast_to(v, (4, 6))        # zero strides
    np.testing.assert_allclose(m.rel(B, A), 2 * (B - A) / (B + A))
    F = np.asfortranarray(A)
    r = m.rel(F, F + 1)
    assert r.flags.f_contiguous
    out = np.empty((4, 6))
    assert m.rel(A, v, out=out) is out
    assert m.rel(A, v, out) is out
    out32 = np.zeros((4, 6), np.float32)
    m.rel(A, v, out=out32)                # 'same_kind' allows float64 -> float32
    np.testing.assert_allclose(out32, 2 * (A - v) / (A + v), rtol=1e-6)


def test_errors_name_shapes_and_types(progs):
    _, m = progs
    with pytest.raises(ValueError, match=r"\(5,\).*\(3,\)|broadcast"):
        m.rel(np.ones(5), np.ones(3))
    with pytest.raises(ValueError, match="shape"):
        m.rel(np.ones(5), np.ones(5), out=np.empty(4))
    with pytest.raises(TypeError, match="int32"):
        m.rel(np.ones(5), np.ones(5), out=np.empty(5, np.int32))
    with pytest.raises(TypeError, match="not supported for the input types"):
        m.rel(np.ones(5, complex), np.ones(5))     # NumPy's own message: a numpy.ufunc
    with pytest.raises(TypeError):
        m.bits(np.ones(3), 1)             # float64 does not cast safely to int64
    with pytest.raises(ValueError, match="core dimension"):
        m.dot(np.ones((3, 4)), np.ones(5))


def test_gufuncs(progs):
    _, m = progs
    A = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(m.dot(A, A), (A * A).sum(1))
    assert type(m.dot(A[0], A[0])) is np.float64
    np.testing.assert_allclose(m.scale(A, 2.5), A * 2.5)
    np.testing.assert_allclose(m.matmul(A, A.T), A @ A.T)
    np.testing.assert_allclose(m.matmul(np.stack([A, 2 * A]), A.T), np.stack([A, 2 * A]) @ A.T)
    np.testing.assert_allclose(m.sumplus(A, np.array([1.0, 2.0, 3.0])), A.sum(1) + [1, 2, 3])
    out = np.empty(3)
    r = m.dot(A, A, out)
    assert r is out


def test_reduce(progs):
    _, m = progs
    A = np.arange(1.0, 13.0).reshape(3, 4)
    assert m.add.reduce(A[0]) == A[0].sum()
    np.testing.assert_allclose(m.add.reduce(A), A.sum(0))
    np.testing.assert_allclose(m.add.reduce(A, axis=1), A.sum(1))
    np.testing.assert_allclose(m.add.reduce(A, axis=-1, keepdims=True), A.sum(1, keepdims=True))
    assert m.add.reduce(A, axis=None) == A.sum()
    assert m.add.reduce(np.zeros(0)) == 0.0          # identity=0
    with pytest.raises(ValueError, match="identity"):
        m.rel.reduce(np.zeros(0))
    np.testing.assert_allclose(m.add.outer(A[0], A[1]), np.add.outer(A[0], A[1]))


def test_dynamic_ufunc(make_module):
    mod = make_module("dyn_ufunc_mod", """
        from numjit import vectorize

        @vectorize
        def f(x, y):
            return x * y + 1
    """)
    assert mod.f.types == []
    r = mod.f(np.arange(4, dtype=np.int32), np.int32(3))
    assert r.dtype == np.int64 and list(r) == [1, 4, 7, 10]   # int32 * int32 -> int64 (Numba)
    r = mod.f(np.ones(3), 2.0)
    assert r.dtype == np.float64
    assert mod.f.types == ["ii->l", "dd->d"]
    assert mod.f(np.arange(3, dtype=np.int32), 2).dtype == np.int64   # reuses 'ii->l'


def test_parallel_target_same_results(make_module):
    mod = make_module("par_ufunc_mod", """
        import math
        from numjit import vectorize, guvectorize

        @vectorize(["float64(float64, float64)"], target="parallel")
        def p(x, y):
            return math.sin(x) * y

        @vectorize(["float64(float64, float64)"])
        def s(x, y):
            return math.sin(x) * y

        @guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="parallel")
        def rowsum(a, out):
            t = 0.0
            for i in range(a.shape[0]):
                t += a[i]
            out[0] = t
    """)
    x = np.linspace(0, 10, 300_001)
    np.testing.assert_array_equal(mod.p(x, x), mod.s(x, x))
    np.testing.assert_allclose(mod.p(x, x), np.sin(x) * x, rtol=1e-14)
    X = x[:300_000].reshape(-1, 30)
    np.testing.assert_allclose(mod.rowsum(X), X.sum(1), rtol=1e-13)
    old = numjit.get_num_threads()
    try:
        numjit.set_num_threads(1)
        assert numjit.get_num_threads() == 1
        np.testing.assert_array_equal(mod.p(x, x), mod.s(x, x))
    finally:
        numjit.set_num_threads(old)


def test_type_objects_and_options(make_module):
    mod = make_module("typeobj_ufunc_mod", """
        from numjit import vectorize, float64, float32, int64

        @vectorize([float32(float32, float32), float64(float64, float64)], identity=1,
                   nopython=True, cache=False, fastmath=False)
        def mul(x, y):
            return x * y
    """)
    assert mod.mul.types == ["ff->f", "dd->d"]
    assert mod.mul.identity == 1
    assert mod.mul(np.ones(3, np.float32), np.ones(3, np.float32)).dtype == np.float32
    assert mod.mul.reduce(np.arange(1.0, 5.0)) == 24.0
    assert mod.mul.reduce(np.zeros(0)) == 1.0


def test_cuda_target_is_a_clear_error():
    """Without a GPU a target='cuda' ufunc fails at its first call, naming what is missing
    (tests/gpu/test_gpu_ufunc.py runs them where there is one)."""
    from numjit import cuda
    if cuda.is_available():
        pytest.skip("a GPU is present")

    @numjit.vectorize(["float64(float64)"], target="cuda")
    def f(x):
        return x
    with pytest.raises(numjit.UnsupportedError, match="cuda"):
        f(np.ones(2))


def test_dropin_program_with_ufuncs(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""
        import numpy as np
        from numba import vectorize, guvectorize

        @vectorize(["float64(float64, float64)"], target="parallel")
        def hyp(a, b):
            return (a * a + b * b) ** 0.5

        @guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
        def shift(a, c, out):
            for i in range(a.shape[0]):
                out[i] = a[i] + c

        if __name__ == "__main__":
            x = np.arange(6.0).reshape(2, 3)
            print(repr(hyp(x, 4.0)))
            print(repr(shift(x, 0.5)))
    """))
    runner = tmp_path / "run.py"
    runner.write_text("import sys, runpy, numjit\nnumjit.install_as_numba()\n"
                      "runpy.run_path(sys.argv[1], run_name='__main__')\n")
    r = subprocess.run([sys.executable, str(runner), str(prog)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        import numba  # noqa: F401
        has_numba = getattr(numba, "__name__", "") == "numba"
    except ImportError:
        has_numba = False
    if has_numba:
        ref = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env)
        if ref.returncode == 0:
            assert r.stdout == ref.stdout
    assert "array([[4." in r.stdout


def test_allocated_outputs_are_plain_numpy_arrays(progs):
    """Outputs come from NumPy's own allocator (PyArray_NewFromDescr through NumPy's C-API
    table, checked at import against numpy.empty): owned, writeable, C or F order as NumPy."""
    from numjit import ufunc as ufmod
    _, m = progs
    assert ufmod._FAST_ALLOC is True or not numjit._fast_arrays
    x = np.linspace(1, 2, 12)
    for got in (m.rel(x, x[::-1]), m.rel(x.reshape(3, 4), 1.0),
                m.rel(np.asfortranarray(x.reshape(3, 4)), 2.0), m.pos(x), m.bits(np.arange(5), 3)):
        assert type(got) is np.ndarray and got.flags.owndata and got.flags.writeable
        assert got.base is None
    f = m.rel(np.asfortranarray(x.reshape(3, 4)), 2.0)
    assert f.flags.f_contiguous and f.shape == (3, 4) and f.dtype == np.float64
    np.testing.assert_allclose(f, 2 * (x.reshape(3, 4) - 2) / (x.reshape(3, 4) + 2))
    big = m.rel(np.ones(1 << 20), 3.0)
    assert big.shape == (1 << 20,) and np.all(big == -1.0)
    for dt, want in ((np.int32, np.int64), (np.int64, np.int64)):  # declared order: int64 first
        r = m.bits(np.arange(6, dtype=dt), np.arange(6, dtype=dt))
        assert r.dtype == want and r.shape == (6,)


def test_small_1d_fast_path(progs):
    """Calls on small 1-d operands run the compiled loop directly from the extension (no
    executor): strides, broadcasting of length-1 arrays and scalars, out= that is an input,
    out= that overlaps an input, and dtypes the loop reads as they are must all still give
    NumPy's results."""
    _, m = progs
    x = np.linspace(1.0, 2.0, 40)
    y = x[::-1].copy()
    ref = lambda a, b: 2 * (a - b) / (a + b)
    np.testing.assert_allclose(m.rel(x, y), ref(x, y))
    np.testing.assert_allclose(m.rel(x[::3], y[::-3]), ref(x[::3], y[::-3]))
    np.testing.assert_allclose(m.rel(x, y[:1]), ref(x, y[:1]))
    np.testing.assert_allclose(m.rel(x[:1], y), ref(x[:1], y))
    np.testing.assert_allclose(m.rel(x, 3.0), ref(x, 3.0))
    np.testing.assert_allclose(m.rel(np.float64(0.5), x), ref(0.5, x))
    assert m.rel(x[:0], y[:0]).shape == (0,)
    with pytest.raises(ValueError):
        m.rel(x[:5], y[:6])
    z = x.copy()
    assert m.rel(z, y, out=z) is z
    np.testing.assert_allclose(z, ref(x, y))
    w = x.copy()
    want = ref(w[:-1], w[:-1] + 1.0)
    m.rel(w[:-1], w[:-1] + 1.0, out=w[1:])      # overlapping: the executor copies first
    np.testing.assert_allclose(w[1:], want)
    i32 = np.arange(1, 30, dtype=np.int32)
    r = m.bits(i32, i32[::-1])
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, (i32.astype(np.int64) ^ i32[::-1]) & (i32 | 3) << 1)
    f32 = x.astype(np.float32)
    r = m.rel(f32, f32[::-1])
    assert r.dtype == np.float64                 # rel lists float64 first
    np.testing.assert_allclose(r, ref(f32.astype(np.float64), f32[::-1].astype(np.float64)))
    b = m.pos(x - 1.5)
    assert b.dtype == np.bool_ and b.sum() == (x > 1.5).sum()
    out32 = np.zeros(40, np.float32)
    m.rel(x, y, out=out32)
    np.testing.assert_allclose(out32, ref(x, y), rtol=1e-6)
    for n in (4095, 4096, 5000):                 # around the fast path's size limit
        a = np.linspace(1, 2, n)
        np.testing.assert_allclose(m.rel(a, 2.5), ref(a, 2.5))
