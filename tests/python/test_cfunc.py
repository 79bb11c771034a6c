"""numjit.cfunc (Numba's @cfunc) and numjit.stencil from Python: what the differential
programs (tests/lang/cfunc_*.py, stencil_*.py) cannot show — refusals and their messages, an
exception inside a callback, the types of the signature, the objects' API."""
import ctypes

import numpy as np
import pytest

import numjit
from numjit import cfunc, carray, stencil, types
from numjit.errors import TypingError, UnsupportedError


def test_callback_signature_forms(make_module):
    m = make_module("cb_forms", """
        from numjit import cfunc, types
        @cfunc("int64(int64, int64)")
        def mul(a, b):
            return a * b
        @cfunc(types.float32(types.float32))
        def half(x):
            return x / 2
        @cfunc(types.boolean(types.int32))
        def odd(x):
            return x % 2 == 1
    """)
    assert m.mul.ctypes(6, 7) == 42 and m.mul.ctypes.restype is ctypes.c_int64
    assert m.half.ctypes(3.0) == 1.5 and m.half.ctypes.restype is ctypes.c_float
    assert m.odd.ctypes(3) is True and m.odd.ctypes(4) is False
    assert m.mul(2, 3) == 6                  # __call__ runs the Python function
    assert "define" in m.mul.inspect_llvm()
    assert repr(m.mul) == "<Numba C callback 'mul'>"


def test_exception_in_callback_returns_zero(make_module):
    m = make_module("cb_raise", """
        from numjit import cfunc
        @cfunc("int64(int64)")
        def inv(x):
            return 10 // x
    """)
    assert m.inv.ctypes(2) == 5
    assert m.inv.ctypes(0) == 0


def test_refusals(make_module):
    def f(x):
        return x
    with pytest.raises(TypeError, match="explicit return type"):
        cfunc((types.float64,))(f)
    with pytest.raises(UnsupportedError, match="object mode"):
        cfunc("float64(float64)", nopython=False)(f)
    with pytest.raises(UnsupportedError, match="pointers to numbers"):
        types.CPointer(types.complex128)
    m = make_module("cb_cffi", """
        from numjit import cfunc
        @cfunc("float64(float64)")
        def ident(x):
            return x
    """)
    with pytest.raises(UnsupportedError, match="cffi"):
        m.ident.cffi


def test_carray_errors_are_located(make_module):
    with pytest.raises(TypingError, match="mismatching dtype 'int32' for pointer type"):
        make_module("cb_bad_dtype", """
            import numpy as np
            from numjit import cfunc, carray, types
            @cfunc(types.float64(types.CPointer(types.float64), types.intc))
            def first(p, n):
                return carray(p, n, np.int32)[0]
        """)
    with pytest.raises(TypingError, match=r"carray\(\): pointer argument expected"):
        make_module("cb_not_ptr", """
            from numjit import cfunc, carray
            @cfunc("float64(float64)")
            def first(x):
                return carray(x, 1)[0]
        """)


def test_carray_in_python():
    buf = np.arange(6.0)
    p = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    assert carray(p, (2, 3)).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert numjit.farray(p, (2, 3)).tolist() == [[0, 2, 4], [1, 3, 5]]
    with pytest.raises(TypeError, match="explicit dtype required"):
        carray(ctypes.c_void_p(buf.ctypes.data), 3)
    assert carray(ctypes.c_void_p(buf.ctypes.data), 3, np.float64).tolist() == [0, 1, 2]


def test_stencil_errors():
    with pytest.raises(ValueError, match="Unsupported mode style reflect"):
        stencil("reflect")
    with pytest.raises(ValueError, match="Unknown stencil option padding"):
        stencil(padding=1)

    def k(a, out):
        return a[0]
    with pytest.raises(TypingError, match="reserved word 'out'"):
        stencil(k)


def test_stencil_index_not_constant(make_module):
    m = make_module("st_var", """
        from numjit import stencil
        @stencil
        def shifted(a, k):
            return a[k]
    """)
    with pytest.raises(TypingError, match="'neighborhood' option required"):
        m.shifted(np.arange(5.0), 1)


def test_stencil_in_parallel_code_runs_on_the_pool(make_module):
    """A stencil called from @njit(parallel=True) code runs its loop nest as a parallel loop:
    the pool ran chunks of it (a big array, so the loop is long enough to be pooled)."""
    m = make_module("st_par", """
        from numjit import njit, stencil
        @stencil
        def lap(a):
            return a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1] - 4 * a[0, 0]
        @njit(parallel=True)
        def run(a):
            return lap(a)
    """)
    a = np.sin(np.arange(1500 * 1500.0)).reshape(1500, 1500)
    before = numjit.parfor_stats()["loops"]
    got = m.run(a)
    assert numjit.parfor_stats()["loops"] > before
    for _ in range(3):
        m.run(a)
    assert numjit.parfor_stats()["pooled"] > 0
    np.testing.assert_allclose(got, m.lap(a))
    assert m.lap(a).shape == a.shape


def test_cfunc_cache_option(make_module, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMJIT_CACHE_DIR", str(tmp_path / "cache"))
    m = make_module("cb_cache", """
        from numjit import cfunc
        @cfunc("float64(float64)", cache=True)
        def twice(x):
            return 2 * x
    """)
    assert m.twice.ctypes(4.0) == 8.0


def test_stencil_kernel_errors_point_into_the_kernel(make_module):
    """The rewritten kernel keeps its lines: a type error in it is reported at its line."""
    m = make_module("st_loc", """
        from numjit import stencil
        # padding lines, so that a line number off by the generated text's shows


        @stencil
        def bad(a):
            t = a[-1] + a[1]
            return t + "x"
    """)
    with pytest.raises(TypingError) as e:
        m.bad(np.arange(5.0))
    msg = str(e.value)
    assert "st_loc.py:9:" in msg and 'return t + "x"' in msg, msg


def test_objmode_in_python_is_a_no_op(make_module):
    """numba.objmode is a context manager with no effect in Python (py_func runs), as
    Numba's."""
    m = make_module("om", """
        import numpy as np
        from numjit import njit, objmode
        @njit
        def f(x):
            with objmode(y='float64'):
                y = float(np.sum(x))
            return y + 1
    """)
    assert m.f.py_func(np.arange(4.0)) == 7.0
    assert m.f(np.arange(4.0)) == 7.0


def test_objmode_exception_is_raised_at_the_block(make_module, capfd):
    m = make_module("om_raise", """
        from numjit import njit, objmode
        @njit
        def f(x):
            with objmode(y='float64'):
                y = 1.0 / x
            return y
    """)
    assert m.f(4.0) == 0.25
    with pytest.raises(Exception, match="exception was raised in an objmode block"):
        m.f(0.0)
    assert "ZeroDivisionError" in capfd.readouterr().err


def test_objmode_refuses_strings_at_the_block(make_module):
    m = make_module("om_str", """
        from numjit import njit, objmode
        @njit
        def f(s):
            with objmode(n='int64'):
                n = len(s)
            return n
    """)
    with pytest.raises(TypingError, match=r"om_str.py:5:.*numbers and arrays of numbers"):
        m.f("abc")


def test_objmode_without_python_is_a_located_error(tmp_path):
    """The C library and the numjit command have no interpreter: `with` stays refused."""
    import subprocess
    import os
    prog = tmp_path / "om_c.py"
    prog.write_text("from numba import njit, objmode\n\n@njit\ndef f(x):\n"
                    "    with objmode(y='float64'):\n        y = x\n    return y\n")
    exe = os.path.join(os.path.dirname(numjit.__file__), "..", "..", "numjit")
    if not os.path.exists(exe):
        pytest.skip("the numjit command is not built next to the package")
    r = subprocess.run([exe, "check", str(prog)], capture_output=True, text=True)
    assert r.returncode != 0
    assert "om_c.py:5:5: error: 'with' is not supported by numjit" in r.stdout + r.stderr
