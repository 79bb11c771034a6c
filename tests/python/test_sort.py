"""Sorting, searching and order statistics in @njit functions (typer/typer_sort.c, runtime/sort.c)
against real Numba 0.56: one program runs in a subprocess under each (the drop-in trick of
test_dropin.py) and every result must be the same object type, dtype and bits: NaN places, the
sign of each zero and argsort's order of ties included, since numjit runs Numba's algorithms."""
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
    def sort_copy(a):
        return np.sort(a)

    @njit
    def sort_inplace(a):
        a.sort()
        return a

    @njit
    def argsort_q(a):
        return np.argsort(a)

    @njit
    def argsort_m(a):
        return a.argsort(kind='mergesort')

    @njit
    def argsort_mq(a):
        return np.argsort(a, kind='quicksort')

    @njit
    def ss_left(a, v):
        return np.searchsorted(a, v)

    @njit
    def ss_right(a, v):
        return np.searchsorted(a, v, side='right')

    @njit
    def unique(a):
        return np.unique(a)

    @njit
    def median(a):
        return np.median(a)

    @njit
    def nanmedian(a):
        return np.nanmedian(a)

    @njit
    def percentile(a, q):
        return np.percentile(a, q)

    @njit
    def quantile(a, q):
        return np.quantile(a, q)

    @njit
    def nanpercentile(a, q):
        return np.nanpercentile(a, q)

    @njit
    def nanquantile(a, q):
        return np.nanquantile(a, q)

    def cases():
        rng = np.random.default_rng(7)
        z = np.array([3., 1, np.nan, 2, -0.0, 0.0, 1, np.nan, 0.0, -0.0] * 5)
        ties = rng.integers(0, 6, 300).astype(np.float64)
        i32 = rng.integers(-5, 5, 120).astype(np.int32)
        u8 = rng.integers(0, 255, 100).astype(np.uint8)
        f32 = rng.standard_normal(77).astype(np.float32)
        big = rng.random(5000)
        srt = np.sort(ties)
        vals = np.array([[5., 1, np.nan], [0, 9, 3], [2, 2, -1]])
        c = [
            ("sort nan zeros", sort_copy, (z,)),
            ("sort ties", sort_copy, (ties,)),
            ("sort int32", sort_copy, (i32,)),
            ("sort uint8", sort_copy, (u8,)),
            ("sort bool", sort_copy, (u8 > 100,)),
            ("sort float32", sort_copy, (f32,)),
            ("sort big", sort_copy, (big,)),
            ("sort empty", sort_copy, (np.zeros(0),)),
            ("sort strided", sort_copy, (z[::3],)),
            ("sort reversed", sort_copy, (ties[::-1],)),
            ("sort 2d", sort_copy, (z.reshape(5, 10),)),
            ("sort 3d", sort_copy, (ties[:60].reshape(3, 4, 5),)),
            ("a.sort", sort_inplace, (z.copy(),)),
            ("a.sort 2d F", sort_inplace, (np.asfortranarray(z.reshape(5, 10)),)),
            ("a.sort int32", sort_inplace, (i32.copy(),)),
            ("argsort ties", argsort_q, (ties,)),
            ("argsort nan zeros", argsort_q, (z,)),
            ("argsort int32", argsort_mq, (i32,)),
            ("argsort strided", argsort_q, (ties[::2],)),
            ("argsort empty", argsort_q, (np.zeros(0),)),
            ("mergesort ties", argsort_m, (ties,)),
            ("mergesort nan zeros", argsort_m, (z,)),
            ("mergesort uint8", argsort_m, (u8,)),
            ("mergesort float32", argsort_m, (f32,)),
            ("searchsorted left", ss_left, (srt, 3.0)),
            ("searchsorted right", ss_right, (srt, 3)),
            ("searchsorted int in float", ss_left, (np.sort(i32), 2.5)),
            ("searchsorted nan", ss_left, (np.sort(z), np.nan)),
            ("searchsorted empty", ss_right, (np.zeros(0), 1.0)),
            ("searchsorted array", ss_left, (srt, vals)),
            ("searchsorted array right", ss_right, (srt, vals[::-1])),
            ("searchsorted unsorted", ss_right, (ties[:50], ties[50:80])),
            ("unique", unique, (z,)),
            ("unique 2d int", unique, (i32.reshape(12, 10),)),
            ("unique empty", unique, (np.zeros(0),)),
            ("median nan", median, (z,)),
            ("median even", median, (ties,)),
            ("median odd", median, (ties[:-1],)),
            ("median int32", median, (i32,)),
            ("median float32", median, (f32,)),
            ("median 2d", median, (ties.reshape(30, 10),)),
            ("nanmedian", nanmedian, (z,)),
            ("nanmedian all nan", nanmedian, (np.full(4, np.nan),)),
            ("percentile", percentile, (ties, 37.5)),
            ("percentile 0 100", percentile, (big, np.array([0.0, 100.0, 12.5]))),
            ("percentile inf", percentile, (np.array([1.0, np.inf, -np.inf, 2.0]), 0)),
            ("percentile nan", percentile, (z, 50)),
            ("percentile one", percentile, (np.array([4.0]), 50)),
            ("percentile bad", percentile, (ties, 101.0)),
            ("quantile int", quantile, (i32, 0.3)),
            ("quantile bad", quantile, (i32, -0.1)),
            ("nanpercentile", nanpercentile, (z, 50.0)),
            ("nanquantile", nanquantile, (z, np.array([0.25, 0.75]))),
        ]
        return c
    """)

RUNNER = textwrap.dedent("""
    import pickle, runpy, sys
    if sys.argv[1] == "numjit":
        import numjit
        sys.modules["numba"] = numjit
    ns = runpy.run_path(sys.argv[2])
    out = {}
    for name, f, args in ns["cases"]():
        try:
            out[name] = f(*args)
        except Exception as e:
            out[name] = "raised %s: %s" % (type(e).__name__, str(e).splitlines()[0])
    with open(sys.argv[3], "wb") as fh:
        pickle.dump(out, fh)
    """)


def run(tmp_path, which):
    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    out = tmp_path / f"{which}.pkl"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    r = subprocess.run([sys.executable, str(runner), which, str(prog), str(out)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    with open(out, "rb") as fh:
        return pickle.load(fh)


def same(x, y):
    if isinstance(x, str) or isinstance(y, str):  # numjit's message starts with file:line:col
        return isinstance(x, str) and isinstance(y, str) and x.split(": ")[0] == y.split(": ")[0] \
            and x.endswith(y.split(": ", 1)[1])
    if type(x) is not type(y):
        return False
    x, y = np.asarray(x), np.asarray(y)
    return (x.dtype == y.dtype and x.shape == y.shape and
            np.array_equal(x, y, equal_nan=x.dtype.kind == "f") and
            (x.dtype.kind != "f" or np.array_equal(np.signbit(x), np.signbit(y))))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sort")
    return run(tmp, "numjit"), run(tmp, "numba")


def test_matches_numba(results):
    got, want = results
    bad = [(k, got.get(k), w) for k, w in want.items() if not same(got.get(k), w)]
    assert not bad, "\n".join(f"{k}: numjit {g!r}, numba {w!r}" for k, g, w in bad)


def test_raises_where_numba_raises(results):
    got, _ = results
    assert got["percentile bad"].startswith("raised ValueError: ")
    assert got["percentile bad"].endswith("Percentiles must be in the range [0, 100]")
    assert got["quantile bad"].endswith("Quantiles must be in the range [0, 1]")


# ---- in process: NumPy as the oracle of values, and the diagnostics --------------------------
SRC = """
    import numpy as np
    from numjit import njit

    @njit
    def srt(a):
        return np.sort(a)

    @njit
    def msort(a):
        return np.argsort(a, kind='mergesort')

    @njit
    def med(a):
        return np.median(a)
    """


def test_values_match_numpy(make_module):
    m = make_module("nj_sort_np", SRC)
    rng = np.random.default_rng(3)
    for a in (rng.standard_normal(1000), rng.integers(0, 9, 500), rng.random(64)[::-3],
              np.array([np.nan, 1.0, np.nan, -np.inf, 0.0])):
        assert np.array_equal(m.srt(a), np.sort(a), equal_nan=True)
        if not np.isnan(a).any():  # stable: one answer
            assert np.array_equal(m.msort(a), np.argsort(a, kind="stable"))
    # Numba's float order takes NaN < NaN as true, so its mergesort (and numjit's) reverses
    # runs of NaNs, where NumPy's stable sort keeps them in place
    assert list(m.msort(np.array([np.nan, 1.0, np.nan, -np.inf, 0.0]))) == [3, 4, 1, 2, 0]
    assert m.med(np.arange(7.0)) == 3.0


def test_median_empty_raises(make_module):
    m = make_module("nj_sort_empty", SRC)
    with pytest.raises(ValueError, match="median"):
        m.med(np.zeros(0))


@pytest.mark.parametrize("body, msg", [
    ("np.argsort(a, kind='heapsort')", "kind='heapsort' of np.argsort() is not supported"),
    ("a.argsort(kind=k)", "kind= of a.argsort() must be a string literal"),
    ("np.searchsorted(a, 1.0, side='middle')", "side='middle' of np.searchsorted()"),
    ("np.argsort(a.reshape(2, 2))", "np.argsort() of a 2-d array is not supported"),
    ("np.sort(1.0)", "np.sort() needs an array, not float64"),
    ("np.percentile(a, a.reshape(2, 2))", "q of np.percentile() must be"),
])
def test_diagnostics(make_module, body, msg):
    m = make_module("nj_sort_err", f"""
        import numpy as np
        from numjit import njit

        @njit
        def f(a, k):
            return {body}
        """)
    with pytest.raises(numjit.errors.TypingError) as e:
        m.f(np.zeros(4), 1)
    text = str(e.value)
    assert msg in text
    assert "^" in text and ":7:" in text  # file:line:col and a caret
