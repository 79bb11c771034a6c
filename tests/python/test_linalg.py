"""Linear algebra in @njit functions (typer/typer_linalg.c, runtime/linalg.c) against real Numba
0.56 (SciPy's BLAS/LAPACK): np.dot and @ of matrices and vectors, np.dot's out=, np.vdot,
np.trace, np.cross, np.sign and np.linalg.norm/det/inv/solve (the decompositions:
test_linalg_decomp.py).

One program (PROGRAM) holds the functions and the cases; a subprocess runs it under real
Numba and pickles each case's result (value, or exception class and message), and the same
cases run here under numjit.  Values must have Numba's dtype, shape and C/F order and agree to
rounding (the kernels sum in another order than BLAS); errors must be the same exception with
Numba's message.  Compile-time refusals are checked for their location and wording, and the
narrower kernels (AVX2, SSE2) against the widest in a subprocess."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import numjit

pytestmark = pytest.mark.usefixtures("numba056")  # Numba 0.56 is the oracle

PROGRAM = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit
    def dot(a, b):
        return np.dot(a, b)

    @njit
    def matmul(a, b):
        return a @ b

    @njit
    def dot_out(a, b, out):
        r = np.dot(a, b, out)
        return r

    @njit
    def vdot(a, b):
        return np.vdot(a, b)

    @njit
    def trace(a, k):
        return np.trace(a, k)

    @njit
    def trace0(a):
        return np.trace(a)

    @njit
    def cross(a, b):
        return np.cross(a, b)

    @njit
    def sign(a):
        return np.sign(a)

    @njit
    def norm(a):
        return np.linalg.norm(a)

    @njit
    def norm_ord(a, o):
        return np.linalg.norm(a, o)

    @njit
    def norm_kw(a):
        return np.linalg.norm(a, ord=np.inf)

    @njit
    def det(a):
        return np.linalg.det(a)

    @njit
    def inv(a):
        return np.linalg.inv(a)

    @njit
    def solve(a, b):
        return np.linalg.solve(a, b)

    @njit
    def residual(a, b):
        # a product of results made in the same function: counted arrays, freed in place
        x = np.linalg.solve(a, b)
        return np.linalg.norm(a @ x - b) / np.linalg.norm(b)

    @njit
    def loop_products(a, n):
        s = 0.0
        for i in range(n):
            s += np.trace(a @ a.T)
        return s

    def cases():
        rng = np.random.default_rng(12345)
        def r(*shape, dt=np.float64):
            return rng.standard_normal(shape).astype(dt)
        def well(n, dt=np.float64):
            return (r(n, n) + n * np.eye(n)).astype(dt)
        A, B = r(7, 5), r(5, 9)
        big_a, big_b = r(150, 203), r(203, 130)
        M = well(6)
        S = np.array([[1.0, 2.0], [2.0, 4.0]])
        c = []
        for f in ("dot", "matmul"):
            c += [(f, (A, B)), (f, (A, r(5))), (f, (r(7), A)), (f, (r(5), r(5))),
                  (f, (big_a, big_b)), (f, (big_a, r(203))), (f, (r(150), big_a)),
                  (f, (A.astype(np.float32), B.astype(np.float32))),
                  (f, (big_a.astype(np.float32), big_b.astype(np.float32))),
                  (f, (np.asfortranarray(A), B)), (f, (A, np.asfortranarray(B))),
                  (f, (B.T, A.T)), (f, (r(14, 10)[::2, ::2], r(5, 18)[:, ::2])),
                  (f, (r(20, 5)[::-3], B)), (f, (big_a.T, r(150))),
                  (f, (r(0, 5), B)), (f, (A, r(5, 0))), (f, (r(3, 0), r(0, 4))),
                  (f, (r(0), r(0))), (f, (r(0, 3), r(3))),
                  (f, (A, A)), (f, (A, r(4))), (f, (r(4), A)), (f, (r(3), r(4))),
                  (f, (r(1, 5), B)), (f, (A, r(5, 1)))]
        c += [("dot_out", (A, B, np.zeros((7, 9)))), ("dot_out", (A, r(5), np.zeros(7))),
              ("dot_out", (r(7), A, np.zeros(5))), ("dot_out", (A, B, np.zeros((7, 8)))),
              ("dot_out", (A, r(5), np.zeros(6))), ("dot_out", (A, A, np.zeros((7, 7))))]
        c += [("vdot", (r(6), r(6))), ("vdot", (r(12)[::2], r(6))),
              ("vdot", (r(6, dt=np.float32), r(6, dt=np.float32))), ("vdot", (r(5), r(6)))]
        c += [("trace0", (M,)), ("trace0", (A,)), ("trace0", (A.astype(np.float32),)),
              ("trace", (A, 2)), ("trace", (A, -3)), ("trace", (A, 9)), ("trace", (A, -9)),
              ("trace", (np.asfortranarray(M), np.int32(1))), ("trace0", (r(0, 3),))]
        c += [("cross", (r(3), r(3))), ("cross", (r(2), r(3))), ("cross", (r(3), r(2))),
              ("cross", (r(2), r(2))), ("cross", (r(4), r(3))),
              ("cross", (np.arange(3), np.arange(3, 6))),
              ("cross", (np.arange(3, dtype=np.int8), np.arange(3, dtype=np.uint8))),
              ("cross", (np.arange(3), r(3, dt=np.float32))), ("cross", (r(6)[::2], r(3)))]
        c += [("sign", (np.array([-2.5, 0.0, -0.0, 3.0, np.nan, -np.inf]),)),
              ("sign", (np.array([-2, 0, 3], dtype=np.int32),)),
              ("sign", (np.array([0, 3, 200], dtype=np.uint8),)),
              ("sign", (np.array([True, False]),)), ("sign", (r(3, 4, dt=np.float32),)),
              ("sign", (-2.5,)), ("sign", (7,)), ("sign", (np.int16(-3),))]
        for x in (r(7), r(7, dt=np.float32), r(4, 5), r(4, 5, dt=np.float32),
                  np.asfortranarray(r(4, 5)), r(8, 6)[::2, 1::2], r(0), r(0, 3),
                  np.array([1.0, np.nan]), np.array([1e200, 1e200]), np.array([1e-200, 3e-200])):
            c.append(("norm", (x,)))
        v, m = r(7), r(4, 5)
        for o in (1, 2, -1, -2, 0, 3, 2.5, np.inf, -np.inf):
            c += [("norm_ord", (v, o)), ("norm_ord", (v.astype(np.float32), o))]
        for o in (1, -1, np.inf, -np.inf, 0, 3, 2, -2, 2.0):
            c += [("norm_ord", (m, o)), ("norm_ord", (np.asfortranarray(m), o))]
        c += [("norm_ord", (m.T, 2)), ("norm_ord", (m.astype(np.float32), -2)),
              ("norm_ord", (np.array([[1.0, np.nan], [0.0, 1.0]]), 2)),
              ("norm_ord", (np.array([[1.0, np.nan], [0.0, 1.0]]), 1))]
        c += [("norm_ord", (r(0, 3), 3)), ("norm_ord", (r(0), 3)), ("norm_kw", (m,)),
              ("norm_ord", (np.array([1.0, np.nan, 2.0]), np.inf))]
        c += [("det", (M,)), ("det", (np.asfortranarray(M),)), ("det", (well(40),)),
              ("det", (M.astype(np.float32),)), ("det", (S,)), ("det", (np.zeros((3, 3)),)),
              ("det", (r(0, 0),)), ("det", (A,)), ("det", (np.array([[1.0, np.inf], [0, 1]]),)),
              ("det", (M[::-1, ::2].copy()[:, :3][:3],)), ("det", (r(12, 12)[::2, ::2],)),
              ("det", (np.array([[0.0, 1.0], [1.0, 0.0]]),))]
        c += [("inv", (M,)), ("inv", (np.asfortranarray(M),)), ("inv", (well(60),)),
              ("inv", (M.astype(np.float32),)), ("inv", (r(12, 12)[::2, ::2],)),
              ("inv", (M.T,)), ("inv", (S,)), ("inv", (r(0, 0),)), ("inv", (A,)),
              ("inv", (np.array([[1.0, np.nan], [0, 1]]),))]
        c += [("solve", (M, r(6))), ("solve", (M, r(6, 3))), ("solve", (well(50), r(50, 7))),
              ("solve", (M.astype(np.float32), r(6, dt=np.float32))),
              ("solve", (np.asfortranarray(M), r(6, 2)[:, ::-1])), ("solve", (M.T, r(12)[::2])),
              ("solve", (S, r(2))), ("solve", (S, r(2, 2))), ("solve", (M, r(5))),
              ("solve", (M, r(5, 2))), ("solve", (r(0, 0), r(0))), ("solve", (M, r(6, 0))),
              ("solve", (M, np.array([1.0, np.inf, 0, 0, 0, 0])))]
        c += [("residual", (well(30), r(30))), ("loop_products", (r(8, 5), 50))]
        return c

    def run_all():
        out = []
        for name, args in cases():
            try:
                out.append(("ok", globals()[name](*args)))
            except Exception as e:
                out.append(("err", type(e).__name__, str(e)))
        return out

    if __name__ == "__main__":
        import pickle, sys
        with open(sys.argv[1], "wb") as f:
            pickle.dump(run_all(), f)
    """)


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    d = tmp_path_factory.mktemp("linalg")
    path = d / "linalg_prog.py"
    path.write_text(PROGRAM)
    out = d / "numba.pkl"
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    p = subprocess.run(["/usr/bin/python3", str(path), str(out)], capture_output=True, text=True,
                       env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    with open(out, "rb") as f:
        want = pickle.load(f)
    import importlib.util
    spec = importlib.util.spec_from_file_location("nj_linalg_prog", path)
    mod = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("numba")
    sys.modules["numba"] = numjit
    try:
        spec.loader.exec_module(mod)
    finally:
        if saved is None:
            sys.modules.pop("numba", None)
        else:
            sys.modules["numba"] = saved
    return mod, want


def same(got, want, label):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), label
        assert got.dtype == want.dtype and got.shape == want.shape, (label, got.dtype, got.shape)
        if got.ndim == 2 and got.size > 1:
            assert got.flags.c_contiguous == want.flags.c_contiguous, label
            assert got.flags.f_contiguous == want.flags.f_contiguous, label
    else:
        assert type(got) is type(want), (label, type(got), type(want))
    if isinstance(want, np.ndarray) and want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=label)
        return
    w = np.asarray(want, dtype=np.float64)
    g = np.asarray(got, dtype=np.float64)
    single = isinstance(want, np.ndarray) and want.dtype == np.float32
    rtol = 2e-4 if single or "float32" in label else 1e-9
    scale = np.max(np.abs(w[np.isfinite(w)]), initial=1.0)
    np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale, equal_nan=True, err_msg=label)


def test_against_numba(programs):
    mod, want = programs
    cases = mod.cases()
    assert len(cases) == len(want)
    for (name, args), w in zip(cases, want):
        label = f"{name}{tuple(str(getattr(a, 'dtype', type(a).__name__)) for a in args)} " \
                f"{[getattr(a, 'shape', None) for a in args]}"
        try:
            got = ("ok", getattr(mod, name)(*args))
        except Exception as e:
            got = ("err", type(e).__name__, str(e))
        assert got[0] == w[0], (label, got, w)
        if w[0] == "err":
            assert got[1] == w[1], (label, got, w)
            assert w[2] in got[2], (label, got[2], w[2])
        else:
            same(got[1], w[1], label)


def test_out_is_returned(programs):
    mod, _ = programs
    a, b = np.ones((3, 4)), np.ones((4, 2))
    out = np.empty((3, 2))
    assert mod.dot_out(a, b, out) is out
    assert (out == 4).all()


def test_linalg_error_is_numpys(programs):
    mod, _ = programs
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        mod.inv(np.ones((3, 3)))


REFUSED = [
    ("np.dot(a, b)", "int64[:, :]; int64[:, :]", "only supported on float and complex arrays"),
    ("np.dot(a, b)", "float64[:, :]; float32[:, :]", "must all have the same dtype"),
    ("a @ b", "float64[:, :, :]; float64[:, :]", "only supported on 1-D and 2-D arrays"),
    ("np.dot(a, b, a)", "float64[:]; float64[:]", "explicit output unsupported"),
    ("np.dot(a, b, a.T)", "float64[:, :]; float64[:, :]", "C-contiguous"),
    ("np.linalg.inv(a)", "int64[:, :]; int64[:, :]", "np.linalg.inv() only supported on float"),
    ("np.linalg.det(a)", "float64[:]; float64[:]", "only supported on 2-D arrays"),
    ("np.linalg.solve(a, b)", "float64[:, :]; float32[:]", "homogeneous dtypes"),
    ("np.linalg.norm(a, 'fro')", "float64[:, :]; float64[:]", "ord='fro' is not supported"),
    ("np.trace(a, 1.5)", "float64[:, :]; float64[:]", "integer argument expected"),
    ("np.cross(a, b)", "float64[:, :]; float64[:, :]", "two 1-d arrays"),
    ("np.linalg.svd(a)", "int64[:, :]; float64[:]", "only supported on float and complex arrays."),
    ("np.linalg.eigh(b)", "float64[:, :]; float64[:]", "only supported on 2-D arrays."),
    ("np.linalg.qr(a)", "complex128[:, :]; float64[:]", "complex arrays is not supported by numjit"),
    ("np.linalg.norm(a, 2)", "complex128[:, :]; float64[:]", "complex matrix with ord 2 or -2"),
    ("np.linalg.lstsq(a, b)", "float64[:, :]; float32[:]", "homogeneous dtypes"),
    ("np.linalg.matrix_power(a, 1.5)", "float64[:, :]; float64[:]", "Exponent must be an integer."),
    ("np.linalg.cholesky(b)", "float64[:, :]; float64[:]", "only supported on 2-D arrays"),
]


@pytest.mark.parametrize("expr,sig,msg", REFUSED)
def test_refused_with_location(make_module, expr, sig, msg):
    mod = make_module("nj_linalg_refused", f"""
        import numpy as np
        from numjit import njit

        @njit
        def f(a, b):
            return {expr}
        """)
    samples = {"float64[:, :, :]": np.ones((2, 2, 2)), "float64[:, :]": np.ones((2, 2)),
               "float32[:, :]": np.ones((2, 2), np.float32), "int64[:, :]": np.ones((2, 2), np.int64),
               "float64[:]": np.ones(2), "float32[:]": np.ones(2, np.float32),
               "complex128[:, :]": np.ones((2, 2), np.complex128)}
    a, b = (samples[s.strip()] for s in sig.split(";"))
    with pytest.raises(numjit.errors.TypingError) as e:
        mod.f(a, b)
    text = str(e.value)
    assert msg in text, text
    assert "nj_linalg_refused.py:7:" in text and "^" in text, text


@pytest.mark.parametrize("isa", ["avx2", "base"])
def test_narrower_kernels(tmp_path, isa):
    """The AVX2 and baseline (SSE2) builds of the kernels give the same products and
    factorizations (NUMJIT_LINALG_ISA caps the choice; on a CPU without AVX2 both are the
    baseline)."""
    code = textwrap.dedent("""
        import numpy as np
        from numjit import njit
        @njit
        def run(a, b, m):
            return a @ b, np.linalg.inv(m), np.linalg.solve(m, b), np.linalg.det(m)
        rng = np.random.default_rng(1)
        for dt, tol in ((np.float64, 1e-10), (np.float32, 1e-3)):
            for n, k, p in ((37, 29, 41), (200, 190, 33), (5, 1, 1), (1, 300, 70)):
                a = rng.standard_normal((n, k)).astype(dt)
                b = rng.standard_normal((k, p)).astype(dt)
                m = (rng.standard_normal((k, k)) + k * np.eye(k)).astype(dt)
                ab, mi, x, d = run(a, b, m)
                a64, b64, m64 = (v.astype(np.float64) for v in (a, b, m))
                assert np.allclose(ab, a64 @ b64, rtol=tol, atol=tol * k), (n, k, p)
                assert np.allclose(mi, np.linalg.inv(m64), rtol=tol, atol=tol), k
                assert np.allclose(x, np.linalg.solve(m64, b64), rtol=tol, atol=tol), k
                assert np.isclose(d, np.linalg.det(m64), rtol=tol * 10), k
        print("ok")
        """)
    env = dict(os.environ, NUMJIT_LINALG_ISA=isa)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    prog = tmp_path / "isa_prog.py"
    prog.write_text(code)
    p = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0 and "ok" in p.stdout, p.stderr[-3000:]
