"""Range loops, indices and sizes at the edges of int64, where Numba 0.56 itself is wrong.

Numba counts `range(a, b, c)` as empty when b - a overflows int64 (`range(-2**63, 2**63-1,
2**62)` runs 0 times under Numba, 4 under Python); numjit counts every range exactly, as
Python does (docs/guarantees.md), so these cases are checked against Python's own range
rather than against Numba.  The cases where Numba agrees are differential programs
(tests/lang/bounds_ranges.py, tests/lang/array_sizes.py).
"""
import os
import shutil
import subprocess

import numpy as np
import pytest

import numjit
from numjit import njit, prange

BIG = 2**63 - 1
SMALL = -2**63

RANGES = [
    (0, BIG, 2**62), (0, BIG, BIG), (SMALL, BIG, 2**62), (BIG - 3, BIG, 1),
    (BIG, SMALL, -2**62), (BIG, SMALL, SMALL), (SMALL + 3, SMALL, -1), (SMALL, BIG, BIG),
    (BIG, SMALL, -BIG), (SMALL, 0, BIG), (0, BIG, 2**61 + 1), (5, 5, 1), (10, 0, -3),
    (-7, 7, 5), (SMALL, BIG, 2**62 + 12345),
]


@njit
def count_range(a, b, c):
    n = 0
    first = 0
    last = 0
    for i in range(a, b, c):
        if n == 0:
            first = i
        n += 1
        last = i
    return n, first, last


@njit
def count_range_const(a, b):
    n = 0
    last = 0
    for i in range(a, b, -4611686018427387904):
        n += 1
        last = i
    return n, last


@njit(parallel=True)
def count_prange(a, b, c):
    n = 0
    for i in prange(a, b, c):
        n += 1
    return n


@njit(parallel=True)
def sum_prange(a, b, c):
    s = 0
    for i in prange(a, b, c):
        s += i % 1000
    return s


def python_count(a, b, c):
    r = range(a, b, c)
    return len(r), (r[0] if len(r) else 0), (r[-1] if len(r) else 0)


@pytest.mark.parametrize("a,b,c", RANGES)
def test_range_counts_as_python(a, b, c):
    assert count_range(a, b, c) == python_count(a, b, c)


@pytest.mark.parametrize("a,b,c", RANGES)
def test_prange_counts_as_python(a, b, c):
    assert count_prange(a, b, c) == len(range(a, b, c))
    assert sum_prange(a, b, c) == sum(i % 1000 for i in range(a, b, c))


def test_constant_negative_step():
    r = range(BIG, SMALL, -2**62)
    assert count_range_const(BIG, SMALL) == (len(r), r[-1])
    r = range(0, SMALL, -2**62)
    assert count_range_const(0, SMALL) == (len(r), r[-1])


@njit
def tuple_at(i):
    t = (10, 20, 30)
    return t[i]


@pytest.mark.parametrize("i", [3, -4, 7, 2**63 - 1, -2**63])
def test_tuple_index_out_of_range(i):
    with pytest.raises(IndexError, match="tuple index out of range"):
        tuple_at(i)


def test_tuple_index_unsigned():
    assert tuple_at(np.uint64(2)) == 30
    with pytest.raises(IndexError):
        tuple_at(np.uint64(2**64 - 1))


def test_unknown_construct_taints_only_its_function(make_module):
    """A construct numjit's parser does not know (a `match` statement, valid Python that
    Numba 0.56 compiles) fails only the function that holds it, with its location."""
    mod = make_module("match_one", """
        from numjit import njit

        @njit
        def good(x):
            return x + 1

        @njit
        def bad(x):
            match x:
                case 1:
                    return 10
                case _:
                    return 20

        @njit
        def good2(x):
            return x * 2
        """)
    assert mod.good(1) == 2
    assert mod.good2(3) == 6
    with pytest.raises(Exception, match=r"match_one.py:10:\d+: error:") as info:
        mod.bad(1)
    assert "^" in str(info.value)
    assert mod.good(5) == 6


CLI = os.environ.get("NUMJIT_CLI") or os.path.join(
    os.path.dirname(__file__), "..", "..", os.environ.get("NUMJIT_BUILD", "build"), "numjit")


def test_check_still_reports_unknown_construct(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("from numba import njit\n\n@njit\ndef bad(x):\n    match x:\n"
                   "        case 1:\n            return 10\n    return 0\n")
    r = subprocess.run([CLI, "check", str(src)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "m.py:5:11: error:" in r.stderr


def test_nul_byte_is_a_located_error(tmp_path):
    src = tmp_path / "n.py"
    src.write_bytes(b"x = 1\ny = 2 \x00+ 5\nprint(y)\n")
    for cmd in (["run", str(src)], ["check", str(src)]):
        r = subprocess.run([CLI] + cmd, capture_output=True, text=True, timeout=60)
        assert r.returncode != 0, cmd
        assert "n.py:2:7: error: source code cannot contain NUL bytes" in r.stderr, r.stderr
        assert "^" in r.stderr


def test_broadcast_output_too_big():
    """Zero-stride inputs can describe an output whose byte size wraps int64: a ValueError
    (NumPy's class), never a small block written as a huge one."""
    @numjit.vectorize(["float64(float64, float64)"])
    def add(x, y):
        return x + y

    a = np.broadcast_to(np.zeros(1), (2**32, 1))
    b = np.broadcast_to(np.zeros(1), (2**32,))
    with pytest.raises(ValueError, match="array is too big|iterator is too large"):
        add(a, b)


def test_static_array_size_is_checked(tmp_path):
    """cuda.local.array / cuda.shared.array extents are multiplied at compile time: a product
    beyond INT64_MAX is a located error, not a wrapped (small) array."""
    src = tmp_path / "k.py"
    src.write_text("from numba import cuda\nimport numpy as np\n\n@cuda.jit\ndef k(out):\n"
                   "    tmp = cuda.local.array((1099511627776, 1099511627776), np.float32)\n"
                   "    out[0] = tmp[0, 0]\n")
    r = subprocess.run([CLI, "ptx", str(src), "--sig", "k(float32[:])", "--arch", "sm_90",
                        "-o", str(tmp_path / "k.ptx")], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "k.py:6:28: error: the size of this cuda.local.array is larger than INT64_MAX" in r.stderr


def test_non_ascii_kernel_names_make_valid_ptx(tmp_path):
    """A kernel and a device function with non-ASCII names: PTX symbols are ASCII, so their
    UTF-8 bytes are written $xx (LLVM aborted the process on them)."""
    src = tmp_path / "kc.py"
    src.write_text("from numba import cuda\n\n@cuda.jit(device=True)\ndef dé(x):\n"
                   "    return x * 2.0\n\n@cuda.jit\ndef café(out):\n    π = 3.0\n"
                   "    out[0] = dé(π)\n", encoding="utf-8")
    ptx = tmp_path / "kc.ptx"
    r = subprocess.run([CLI, "ptx", str(src), "--sig", "café(float32[:])", "--arch", "sm_90",
                        "-o", str(ptx)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()
    assert ".entry caf$c3$a9(" in text
    assert all(ord(c) < 128 for c in text)
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if os.path.exists(ptxas):
        r = subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "kc.cubin")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr


def test_zero_d_array_new_is_a_located_refusal(make_module):
    """A 0-d argument works in expressions (tests/lang/zero_d_arrays.py); an operation that
    would make a new 0-d array is refused where it is written, not by the IR verifier."""
    mod = make_module("nj_zero_d_new", """
        import numpy as np
        from numjit import njit

        @njit
        def cpy(a):
            return a.copy()

        @njit
        def ast(a):
            return a.astype(np.int32)
        """)
    for f, line, col in ((mod.cpy, 7, 12), (mod.ast, 11, 12)):
        with pytest.raises(numjit.TypingError) as info:
            f(np.array(2.5))
        text = str(info.value)
        assert f"nj_zero_d_new.py:{line}:{col}: error: this makes a new 0-d array" in text
        assert "operand" not in text and " b0:" not in text
