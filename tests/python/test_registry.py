"""The library registry (lib/) seen from programs: an unknown name names the closest one, the
binder's wording for arguments (lib/bind.c, at the argument), and the one refusal of CPU-only
names in CUDA kernels (`numjit ptx`, which needs no GPU).
"""
import os
import subprocess
import textwrap

import numpy as np
import pytest

import numjit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("NUMJIT_BUILD", "build"))


def compile_error(make_module, body, *args):
    m = make_module("regmod", "import numpy as np\nfrom numjit import njit\n\n\n@njit\n"
                    "def f(a):\n    " + body + "\n")
    with pytest.raises(numjit.errors.TypingError) as e:
        m.f(*args)
    return str(e.value)


def test_unknown_name_says_the_closest(make_module):
    msg = compile_error(make_module, "return np.sqr(a)", 2.0)
    assert "regmod.py:7:12: error: 'numpy' has no attribute 'sqr' that numjit supports; " \
        "did you mean 'numpy.sqrt'?" in msg, msg


def test_unknown_name_far_from_all(make_module):
    msg = compile_error(make_module, "return np.zzzzzzzz(a)", 2.0)
    assert "has no attribute 'zzzzzzzz' that numjit supports" in msg and "did you mean" not in msg


@pytest.mark.parametrize("body, want", [
    ("return np.ptp(a, 0)", "7:22: error: np.ptp() argument 'axis' is not supported by numjit"),
    ("return np.ptp(a, out=a)", "7:22: error: np.ptp() argument 'out' is not supported"),
    ("return np.ptp(a, a=a)", "7:22: error: np.ptp() got multiple values for argument 'a'"),
    ("return np.ptp(a, b=1)", "7:22: error: np.ptp() got an unexpected keyword argument 'b'"),
    ("return np.ptp()", "7:12: error: np.ptp() missing required argument 'a'"),
    ("return np.ptp(a, 0, None, 1, 2)", "7:34: error: np.ptp() takes at most 4 arguments (5 given)"),
    ("return np.ptp(a > 0)", "7:19: error: np.ptp() argument 'a' must be an array of integers or "
                             "floats, not bool"),
    ("return a.ptp(axis=0)", "7:18: error: ptp() argument 'axis' is not supported by numjit"),
])
def test_binder_wording(make_module, body, want):
    msg = compile_error(make_module, body, np.arange(3.0))
    assert "regmod.py:" + want in msg, msg
    assert "^" in msg


def test_ptp_values(make_module):
    m = make_module("ptpmod", textwrap.dedent("""
        import numpy as np
        from numjit import njit


        @njit
        def f(a):
            return np.ptp(a), a.ptp(), np.ptp(a=a)
        """))
    assert m.f(np.array([3.0, -1.5, 7.25])) == (8.75, 8.75, 8.75)
    assert m.f(np.array([[4, -9], [12, 0]])) == (21, 21, 21)
    r = m.f(np.array([1.0, np.nan]))
    assert all(np.isnan(x) for x in r)
    with pytest.raises(ValueError):
        m.f(np.zeros(0))


@pytest.mark.parametrize("body, want", [
    ("b = np.zeros(3)", "7:9: error: np.zeros() is not supported in CUDA kernels and device "
                        "functions: it makes a new array, which CUDA code cannot do; use "
                        "cuda.local.array(shape, dtype) or pass the array in"),
    ("np.sort(a)", "7:5: error: np.sort() is not supported in CUDA kernels and device functions"),
    ("a.sort()", "7:5: error: a.sort() is not supported in CUDA kernels and device functions"),
    ("x = np.ptp(a)", "7:9: error: np.ptp() is not supported in CUDA kernels and device functions"),
    ("b = np.concatenate((a, a))", "7:9: error: np.concatenate() is not supported in CUDA kernels"),
])
def test_cpu_only_names_refused_in_kernels(tmp_path, body, want):
    exe = os.path.join(BUILD, "numjit")
    if not os.path.exists(exe):
        pytest.skip("no numjit command in " + BUILD)
    path = tmp_path / "kern.py"
    path.write_text("import numpy as np\nfrom numba import cuda\n\n\n@cuda.jit\ndef k(a):\n"
                    "    " + body + "\n")
    p = subprocess.run([exe, "ptx", str(path), "--sig", "k(float64[::1])"],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "kern.py:" + want in p.stderr, p.stderr


def test_gpu_only_names_refused_on_the_cpu(make_module):
    m = make_module("gpumod", "from numba import cuda\nfrom numjit import njit\n\n\n@njit\n"
                    "def f():\n    return cuda.grid(1)\n")
    with pytest.raises(numjit.errors.TypingError) as e:
        m.f()
    assert "gpumod.py:7:12: error: cuda.grid() is only available in CUDA kernels and device " \
        "functions" in str(e.value), str(e.value)
