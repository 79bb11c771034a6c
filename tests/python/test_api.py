"""The rest of the package's surface: type objects and signatures, eager compilation, typeof,
introspection, and a sanity check of the per-call path (no timing assertions: the numbers are
printed with -s; bench/ holds the real measurements)."""
import gc
import sys
import time

import numpy as np
import pytest

import numjit
from numjit import njit


@njit
def two_arrays(x, y):
    return x[0] + y[0]


def test_type_objects():
    assert str(numjit.float32) == "float32"
    assert str(numjit.float32[:]) == "array(float32, 1d, A)"
    assert str(numjit.float32[::1]) == "array(float32, 1d, C)"
    assert str(numjit.float64[:, ::1]) == "array(float64, 2d, C)"
    assert str(numjit.float64[::1, :]) == "array(float64, 2d, F)"
    assert numjit.float64[:, ::1].spelling == "float64[:, ::1]"
    sig = numjit.float64(numjit.float32[:], numjit.int64)
    assert sig.args_spelling == "(float32[:], int64)"
    assert numjit.f8 is numjit.float64 and numjit.i4 is numjit.int32
    assert numjit.float32(1.5) == np.float32(1.5)
    assert type(numjit.int16(3)) is np.int16


def test_typeof():
    assert numjit.typeof(1) == numjit.int64
    assert numjit.typeof(1.0) == numjit.float64
    assert numjit.typeof(True) == numjit.boolean
    assert numjit.typeof(np.float32(1)) == numjit.float32
    assert numjit.typeof(np.zeros(3, np.int32)) == numjit.int32[::1]
    assert numjit.typeof(np.zeros(6)[::2]) == numjit.float64[:]
    assert numjit.typeof(2**64 - 1) == numjit.uint64


def test_eager_signatures(make_module):
    mod = make_module("nj_eager", """
        import numpy as np
        from numjit import njit, float64, int64

        @njit("float64(float64[::1], int64)")
        def eager(a, k):
            return a[k]

        @njit(["int64(int64)", "float64(float64)"])
        def eager_many(x):
            return x + 1

        @njit(float64(float64[:], int64))
        def eager_obj(a, k):
            return a[k] * 2.0
        """)
    a = np.arange(5.0)
    assert mod.eager(a, 3) == 3.0
    assert mod.eager_many(1) == 2
    assert mod.eager_many(1.5) == 2.5
    assert mod.eager_obj(a[::2], 1) == 4.0


def test_signature_of():
    assert two_arrays.signature_of(np.zeros(3), np.zeros((2, 2))[:, 0]) == \
        "(float64[::1], float64[:])"


def test_inspect_llvm_and_asm():
    two_arrays(np.zeros(3), np.zeros(3))
    llvm = two_arrays.inspect_llvm()
    assert len(llvm) == 1
    (text,) = llvm.values()
    assert "define" in text
    asm = two_arrays.inspect_asm("(float64[::1], float64[::1])")
    assert isinstance(asm, str) and asm


def test_library_version():
    assert numjit.library_version().startswith("0.1")


def test_no_reference_leaks_on_hot_path():
    x = np.ones(8)
    y = np.ones(8)
    two_arrays(x, y)
    gc.collect()
    rx, ry = sys.getrefcount(x), sys.getrefcount(y)
    for _ in range(10000):
        two_arrays(x, y)
    assert sys.getrefcount(x) == rx and sys.getrefcount(y) == ry
    with pytest.raises(numjit.TypingError):
        two_arrays(x, "nope")
    assert sys.getrefcount(x) == rx


def test_per_call_overhead_reported():
    x = np.ones(8)
    y = np.ones(8)
    two_arrays(x, y)
    n = 20000
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            two_arrays(x, y)
        best = min(best, (time.perf_counter() - t0) / n)
    print(f"numjit two-array call: {best * 1e9:.0f} ns (loop included)")
    assert best < 1e-3   # sanity only: a millisecond per call would mean recompiling


def test_threads_share_a_dispatcher():
    import threading
    x = np.arange(4.0)
    errors = []

    def work():
        try:
            for _ in range(2000):
                assert two_arrays(x, x) == 0.0
        except Exception as e:   # pragma: no cover
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_fork_after_import(tmp_path):
    """The JIT starts on a thread at import; a process forked right then still compiles."""
    import subprocess
    import textwrap
    prog = tmp_path / "forked.py"
    prog.write_text(textwrap.dedent("""
        import os, sys
        import numjit
        from numjit import njit

        @njit
        def f(a):
            return a + 1

        pid = os.fork()
        if pid == 0:
            os._exit(0 if f(41) == 42 else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status) or (0 if f(1) == 2 else 4))
    """))
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_ctypes_mirrors_match_the_c_structs():
    """gpu_ufunc.py calls libnumjit through ctypes with its own NjArray and NjValue: a field
    added to numjit.h and not to them corrupts memory (it did, once)."""
    import ctypes
    from numjit import _numjit, gpu_ufunc
    nj_array, nj_value = _numjit._abi_sizes()
    assert ctypes.sizeof(gpu_ufunc._NjArray) == nj_array
    assert ctypes.sizeof(gpu_ufunc._NjValue) == nj_value
