"""A fresh array aliases nothing older (codegen/scopes.c): in `for _ in range(k): z = z*z + c`
the operand z is an earlier result of the same allocation that makes the new one, and without
the alias scopes LLVM's loop vectorizer refused the expression's loop (only one element's
{re, im} pair was packed).  The answers must stay NumPy's, also where arrays do alias: views of
a fresh array, and in-place updates."""
import re

import numpy as np

import numjit


@numjit.njit
def zz_expr(z, c, k):
    for _ in range(k):
        z = z * z + c
    return z


@numjit.njit
def fresh_then_view(a):
    t = a * 2.0
    u = t[1:]
    for i in range(u.shape[0]):
        u[i] += t[i]       # a running sum through a view of the fresh array
    return t


@numjit.njit
def chain(a, k):
    s = a + 0.0
    for _ in range(k):
        s = s * 0.5 + a
        s[1:] = s[:-1]     # writes into the newest array through a view of itself
    return s


def np_zz(z, c, k):
    for _ in range(k):
        z = z * z + c
    return z


def test_iterated_complex_expression_vectorizes_across_elements():
    rng = np.random.default_rng(3)
    z = (rng.standard_normal(1000) + 1j * rng.standard_normal(1000)) * 0.1
    c = (rng.standard_normal(1000) + 1j * rng.standard_normal(1000)) * 0.1
    np.testing.assert_allclose(zz_expr(z, c, 7), np_zz(z, c, 7), rtol=1e-13)
    ir = next(iter(zz_expr.inspect_llvm().values()))
    # the expression's two loops (same shapes; broadcasting) are both vectorized across
    # elements; without the scopes only the broadcasting one was (LLVM 19: one vector.body)
    bodies = re.findall(r"^vector\.body\d*:", ir, re.M)
    assert len(bodies) >= 2, ir[-3000:]
    assert re.search(r"shufflevector <\d+ x double> .*<i32 0, i32 2", ir)


def test_aliasing_views_stay_right():
    a = np.arange(6.0)
    want = a * 2.0
    for i in range(5):
        want[i + 1] += want[i]
    np.testing.assert_array_equal(fresh_then_view(a), want)
    s = a + 0.0
    for _ in range(3):
        s = s * 0.5 + a
        s[1:] = s[:-1]
    np.testing.assert_array_equal(chain(a, 3), s)
